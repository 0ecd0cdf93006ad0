import ChimeCore
import Foundation

/// What the engine does when the wall clock is set (NTP stepping it, the user changing the time), noticed
/// by comparing the wall clock with the clock of elapsed time each time the scheduler wakes.
///
/// The rule, next to the misfire policy:
/// - **Set forward**: fires the new time has passed were missed; each request follows its misfire policy
///   (delivered late once, or skipped), as after a shutdown.
/// - **Set back**: time-interval triggers count elapsed time, so their anchor and next fire move back with
///   the clock (a 60 s repeat fires 60 s after its last fire, "in 10 minutes" still means 10 minutes after
///   the add). Calendar triggers that fire every hour or every minute keep firing: their next fire is
///   recomputed from the new time, so an every-minute reminder does not fall silent for the hour the clock
///   went back. Triggers for a time of day on a date keep their fire dates, so what already fired at 08:00
///   does not fire again when the clock shows 08:00 a second time; a fire is never recorded twice.
///
/// Steps under `clockStepThreshold` are ordinary corrections and change nothing.
extension NotificationEngine {
    static let clockStepThreshold: TimeInterval = 2

    func noticeClockStep() async {
        guard let elapsed = clock.elapsed else { return }
        let now = clock.now
        let last = clockReading
        clockReading = (now, elapsed)
        guard let last else { return }
        let step = now.timeIntervalSince(last.wall) - (elapsed - last.elapsed)
        if step >= Self.clockStepThreshold {
            log.info("the wall clock was set forward by \(Int(step.rounded())) s; fires it skipped are handled as missed")
        } else if step <= -Self.clockStepThreshold {
            do {
                let moved = try await reschedule(setBackBy: -step, now: now)
                log.info("the wall clock was set back by \(Int((-step).rounded())) s; \(moved) notifications rescheduled from the new time")
            } catch {
                log.warning("the wall clock was set back, but repeating notifications could not be rescheduled: \(error)")
            }
        }
    }

    /// Moves time-interval requests back by `interval`, and hourly and minutely repeating calendar requests
    /// to their first fire after `now`; returns how many moved.
    private func reschedule(setBackBy interval: TimeInterval, now: Date) async throws -> Int {
        var dates: [RequestKey: Date?] = [:]
        var shifted: [RequestKey] = []
        let fires = try await store.pendingFires(after: nil, through: .distantFuture, limit: Int.max)
        for chunk in stride(from: 0, to: fires.count, by: 500).map({ fires[$0..<min($0 + 500, fires.count)] }) {
            for pending in try await store.pendingRequests(chunk.map(\.key)) {
                guard let stored = pending.nextFireDate else { continue }
                switch pending.request.trigger {
                case .timeInterval:
                    shifted.append(pending.key)
                case .calendar(let trigger) where trigger.repeats && trigger.firesEveryHourOrMinute:
                    if let next = trigger.nextTriggerDate(after: now, floatingTimeZone: timeZone), next < stored { dates[pending.key] = next }
                default:
                    break
                }
            }
        }
        guard !dates.isEmpty || !shifted.isEmpty else { return 0 }
        try await store.shiftPending(shifted, by: -interval)
        try await store.updateNextFireDates(dates)
        timeline.reset()
        return dates.count + shifted.count
    }
}
