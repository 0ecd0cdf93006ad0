public import Foundation

/// The real wall clock.
///
/// It sleeps in chunks of at most `maximumChunk` and re-reads the wall clock after each one. Monotonic
/// sleeps do not follow wall-clock steps (NTP corrections, the user setting the time) and may stop during
/// system suspend; re-reading bounds how late a fire can be after either to one chunk.
public struct SystemClock: NotificationClock {
    /// The longest single sleep.
    public var maximumChunk: TimeInterval

    public init(maximumChunk: TimeInterval = 5) {
        precondition(maximumChunk > 0, "maximumChunk must be positive")
        self.maximumChunk = maximumChunk
    }

    public var now: Date { Date() }

    /// `CLOCK_BOOTTIME`: monotonic, and it keeps counting while the machine is suspended, so a suspend is
    /// not mistaken for the wall clock being set.
    public var elapsed: TimeInterval? {
        var time = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &time) == 0 else { return nil }
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
    }

    /// Sleeps in chunks; returns early when the wall clock was set back by more than a second during the
    /// sleep, so the engine can reschedule instead of waiting out the step.
    public func sleep(until deadline: Date) async throws {
        let start = (wall: Date(), elapsed: elapsed)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return }
            try await Task.sleep(for: .seconds(min(remaining, maximumChunk)))
            if let before = start.elapsed, let after = elapsed, Date().timeIntervalSince(start.wall) < after - before - 1 { return }
        }
    }
}
