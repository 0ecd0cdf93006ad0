public import ChimeCore
public import Foundation

/// What a fire does and when a request fires next: the rules of the scheduler, apart from any store or
/// clock, so the engine of one user and server mode's nodes (where each recipient has a zone) fire by the
/// same rules.
///
/// ```swift
/// let rules = FireRules(misfireTolerance: 60, timeZone: TimeZone(identifier: "Asia/Seoul")!)
/// let record = try rules.fireRecord(for: pending, firedDate: pending.nextFireDate!, now: Date())
/// ```
public struct FireRules: Sendable {
    /// How late a fire may be and still count as on time; later, it was missed.
    public var misfireTolerance: TimeInterval
    /// The zone calendar triggers without their own zone float with.
    public var timeZone: TimeZone

    public init(misfireTolerance: TimeInterval = EngineConfiguration().misfireTolerance, timeZone: TimeZone) {
        self.misfireTolerance = misfireTolerance
        self.timeZone = timeZone
    }

    /// What one fire does: the notification to deliver (or none, when a missed fire is skipped), the
    /// request's next fire date, and what was missed.
    ///
    /// A fire more than `misfireTolerance` late was missed (the process or machine was down). Under
    /// `.deliverLate` it is delivered once, marked late, however many repeats were missed; under `.skip` it
    /// is not delivered. Either way a repeating request continues with its first fire date after now,
    /// enumerated from its trigger, never from the late delivery.
    public func fireRecord(for pending: PendingRequest, firedDate: Date, now: Date) throws(ChimeError) -> FireRecord {
        let request = pending.request
        let isLate = now.timeIntervalSince(firedDate) > misfireTolerance
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
        // A repeating location trigger fired on a crossing and waits, undated, for the next one.
        let waitsForRegion = if case .location(let trigger) = request.trigger { trigger.repeats } else { false }
        return FireRecord(key: pending.key, firedDate: firedDate, delivered: delivered, nextFireDate: next, missed: missed, staysPending: waitsForRegion)
    }

    /// The request's next fire date after this one (`nil` when it does not repeat), and — when counting
    /// missed fires — the last and the number of fire dates from `firedDate` up to `now`.
    ///
    /// On time, the next date follows `firedDate` on the trigger's own schedule (a fire delivered a little
    /// late does not shift the next one). Missed, it is the first date after `now`.
    func nextFire(of pending: PendingRequest, firedDate: Date, now: Date, counting: Bool) -> (Date?, (last: Date, count: Int)) {
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
    public func firstFireDate(of request: NotificationRequest, now: Date) -> Date? {
        switch request.trigger {
        case nil: now
        case .timeInterval(let trigger): trigger.nextTriggerDate(after: now, anchor: now)
        case .calendar(let trigger): trigger.nextTriggerDate(after: now, floatingTimeZone: timeZone)
        case .location, .push: nil
        }
    }

    /// The request's next fire date once the zone it floats with is this one: a calendar trigger without
    /// a zone of its own fires next at its first date after `now` here; any other request keeps its date.
    public func refloatedFireDate(of pending: PendingRequest, now: Date) -> Date? {
        guard case .calendar(let trigger) = pending.request.trigger, trigger.pinnedTimeZone == nil else { return pending.nextFireDate }
        return trigger.nextTriggerDate(after: now, floatingTimeZone: timeZone)
    }
}
