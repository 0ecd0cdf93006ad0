import ChimeCore
public import Foundation

extension NotificationEngine {
    /// The scheduler's driver: asks the timeline what to do, does it, and repeats until stopped.
    func runScheduler() async {
        while !Task.isCancelled {
            await noticeClockStep()
            reportUnfinishedResponses(now: clock.now)
            do {
                switch timeline.nextStep(now: clock.now) {
                case .load(let after, let through, let limit):
                    isLoading = true
                    defer { isLoading = false }
                    let page = try await store.pendingFires(after: after, through: through, limit: limit)
                    timeline.didLoad(page, after: after, through: through)
                    let replay = addedWhileLoading
                    addedWhileLoading = []
                    for fire in replay { timeline.didAdd(fire) }
                case .fire(let due):
                    try await fire(due)
                case .sleep(let nextStep):
                    // Also wake when a response handler would overrun, to report it on time.
                    let deadline = min(nextStep, unfinishedResponseDeadline ?? .distantFuture)
                    let task = Task { [clock] in try await clock.sleep(until: deadline) }
                    sleeper = task
                    _ = try? await task.value  // a cancellation is a wake-up
                    sleeper = nil
                }
            } catch {
                log.warning("scheduler: \(error); retrying in 1 s")
                try? await clock.sleep(until: clock.now.addingTimeInterval(1))
            }
        }
    }

    /// Tells the scheduler about a request's new fire date (added, replaced, or a repeat).
    func schedule(_ fire: ScheduledFire) {
        if isLoading { addedWhileLoading.append(fire) }
        if timeline.didAdd(fire) { wakeScheduler() }
    }

    /// Delivers the fires the timeline says are due: records each in the store (with the request's next
    /// fire date, in one transaction), then presents what was recorded. A fire whose request was removed
    /// or moved in the meantime is dropped; the store refuses to record one fire twice.
    private func fire(_ due: [ScheduledFire]) async throws {
        let now = clock.now
        let pending = try await store.pendingRequests(due.map(\.key))
        let byKey = Dictionary(pending.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var records: [FireRecord] = []
        for fire in due {
            guard let request = byKey[fire.key] else { continue }  // removed
            guard request.nextFireDate == fire.date else {
                // Replaced while this fire was on its way: follow the request's real date.
                if let date = request.nextFireDate { schedule(ScheduledFire(date: date, key: fire.key)) }
                continue
            }
            do {
                records.append(try fireRecord(for: request, firedDate: fire.date, now: now))
            } catch {
                log.warning("request \(fire.key) could not be delivered: \(error)")
            }
        }
        let applied = try await store.recordFires(records)
        for record in applied {
            if let next = record.nextFireDate {
                schedule(ScheduledFire(date: next, key: record.key))
            }
        }
        await present(applied.compactMap { record in record.delivered.map { (record.key.appIdentifier, $0) } })
    }

    /// What one fire does: the notification to deliver (or none, when a missed fire is skipped), the
    /// request's next fire date, and what was missed.
    ///
    /// A fire more than `misfireTolerance` late was missed (the process or machine was down). Under
    /// `.deliverLate` it is delivered once, marked late, however many repeats were missed; under `.skip` it
    /// is not delivered. Either way a repeating request continues with its first fire date after now,
    /// enumerated from its trigger, never from the late delivery.
    func fireRecord(for pending: PendingRequest, firedDate: Date, now: Date) throws(ChimeError) -> FireRecord {
        let request = pending.request
        let isLate = now.timeIntervalSince(firedDate) > configuration.misfireTolerance
        let (next, missedDates) = nextFire(of: pending, firedDate: firedDate, now: now, counting: isLate)

        var missed: MissedFire?
        var delivered: DeliveredNotification?
        if isLate {
            let outcome: MissedFire.Outcome = request.misfirePolicy == .skip ? .skipped : .deliveredLate
            missed = MissedFire(
                requestIdentifier: request.identifier, firstMissedDate: firedDate, lastMissedDate: missedDates.last,
                count: missedDates.count, outcome: outcome, detectedDate: now)
            if outcome == .deliveredLate {
                delivered = try DeliveredNotification(request: request, date: now, scheduledDate: missedDates.last, isLate: true)
            }
        } else {
            delivered = try DeliveredNotification(request: request, date: now, scheduledDate: firedDate)
        }
        return FireRecord(key: pending.key, firedDate: firedDate, delivered: delivered, nextFireDate: next, missed: missed)
    }

    /// The request's next fire date after this one (`nil` when it does not repeat), and — when counting
    /// missed fires — the last and the number of fire dates from `firedDate` up to `now`.
    ///
    /// On time, the next date follows `firedDate` on the trigger's own schedule (a fire delivered a little
    /// late does not shift the next one). Missed, it is the first date after `now`.
    private func nextFire(of pending: PendingRequest, firedDate: Date, now: Date, counting: Bool) -> (Date?, (last: Date, count: Int)) {
        var missed = (last: firedDate, count: 1)
        let after = counting ? now : firedDate
        switch pending.request.trigger {
        case .timeInterval(let trigger) where trigger.repeats:
            let elapsed = now.timeIntervalSince(pending.addedDate)
            if counting {
                let lastIndex = (elapsed / trigger.timeInterval).rounded(.down)
                let firstIndex = (firedDate.timeIntervalSince(pending.addedDate) / trigger.timeInterval).rounded()
                missed = (pending.addedDate.addingTimeInterval(lastIndex * trigger.timeInterval), max(1, Int(lastIndex - firstIndex) + 1))
            }
            return (trigger.nextTriggerDate(after: after, anchor: pending.addedDate), missed)
        case .calendar(let trigger) where trigger.repeats:
            if counting {
                // Missed repeats, counted up to a bound: a minutely trigger missed for a year is "many".
                let later = trigger.nextFireDates(after: firedDate, count: 10_000, floatingTimeZone: timeZone).prefix { $0 <= now }
                missed = (later.last ?? firedDate, 1 + later.count)
            }
            return (trigger.nextTriggerDate(after: after, floatingTimeZone: timeZone), missed)
        default:
            return (nil, missed)
        }
    }

    /// The request's coming fire dates, from its next one: at most `count`, fewer for a trigger that does
    /// not repeat (or stops: a calendar trigger with a year), none for one that never fires by itself.
    /// Repeats follow the trigger's own schedule from its stored next date, as the scheduler will.
    public func upcomingFireDates(of pending: PendingRequest, count: Int) -> [Date] {
        guard count > 0, let next = pending.nextFireDate else { return [] }
        switch pending.request.trigger {
        case .timeInterval(let trigger) where trigger.repeats:
            return (0..<count).map { next.addingTimeInterval(Double($0) * trigger.timeInterval) }
        case .calendar(let trigger) where trigger.repeats:
            return [next] + trigger.nextFireDates(after: next, count: count - 1, floatingTimeZone: timeZone)
        default:
            return [next]
        }
    }

    /// The first fire date of a request added at `now`.
    func firstFireDate(of request: NotificationRequest, now: Date) -> Date? {
        switch request.trigger {
        case nil: now
        case .timeInterval(let trigger): trigger.nextTriggerDate(after: now, anchor: now)
        case .calendar(let trigger): trigger.nextTriggerDate(after: now, floatingTimeZone: timeZone)
        case .location, .push: nil
        }
    }

    /// Recomputes the fire dates of calendar triggers that float with the user's zone, and reloads the
    /// scheduler's window.
    func refloatCalendarTriggers() async throws {
        let now = clock.now
        var dates: [RequestKey: Date?] = [:]
        for pending in try await store.floatingCalendarRequests() {
            if case .calendar(let trigger) = pending.request.trigger {
                dates[pending.key] = trigger.nextTriggerDate(after: now, floatingTimeZone: timeZone)
            }
        }
        try await store.updateNextFireDates(dates)
        timeline.reset()
        wakeScheduler()
    }
}
