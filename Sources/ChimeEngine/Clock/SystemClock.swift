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

    public func sleep(until deadline: Date) async throws {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return }
            try await Task.sleep(for: .seconds(min(remaining, maximumChunk)))
        }
    }
}
