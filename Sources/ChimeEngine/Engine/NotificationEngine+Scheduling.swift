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

    /// The rules of fire dates as they stand: the configured misfire tolerance and the user's zone now.
    var fireRules: FireRules {
        FireRules(misfireTolerance: configuration.misfireTolerance, timeZone: timeZone)
    }

    func fireRecord(for pending: PendingRequest, firedDate: Date, now: Date) throws(ChimeError) -> FireRecord {
        try fireRules.fireRecord(for: pending, firedDate: firedDate, now: now)
    }

    /// The request's coming fire dates, from its next one (`FireRules.upcomingFireDates`).
    public func upcomingFireDates(of pending: PendingRequest, count: Int) -> [Date] {
        fireRules.upcomingFireDates(of: pending, count: count)
    }

    func firstFireDate(of request: NotificationRequest, now: Date) -> Date? {
        fireRules.firstFireDate(of: request, now: now)
    }

    /// Recomputes the fire dates of calendar triggers that float with the user's zone, and reloads the
    /// scheduler's window.
    func refloatCalendarTriggers() async throws {
        let now = clock.now
        let rules = fireRules
        var dates: [RequestKey: Date?] = [:]
        for pending in try await store.floatingCalendarRequests() {
            dates[pending.key] = rules.refloatedFireDate(of: pending, now: now)
        }
        try await store.updateNextFireDates(dates)
        timeline.reset()
        wakeScheduler()
    }
}
