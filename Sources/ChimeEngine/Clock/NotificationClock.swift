public import Foundation

/// The engine's only source of time: what time it is, and a way to wait for a moment.
///
/// Engine code never calls `Date()` or `Task.sleep`; it asks the clock it was given. Production uses
/// `SystemClock`; tests use `ManualClock` from ChimeTesting, which moves only when the test says so.
///
/// Fire dates are wall-clock instants (`Date`), so the clock sleeps *until a date*, not for a duration:
/// if the wall clock is stepped or the machine sleeps, a well-behaved implementation still wakes at (or
/// right after) the date.
public protocol NotificationClock: Sendable {
    /// The current instant.
    var now: Date { get }

    /// Returns once `now >= deadline`, or at once if it already is; may return earlier when the wall clock
    /// is set back (the caller then looks at `now` again).
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled while it waits.
    func sleep(until deadline: Date) async throws

    /// Seconds on a clock that moves only with elapsed time, whatever the wall clock is set to (Linux's
    /// `CLOCK_BOOTTIME`); comparing it with `now` tells the engine when the wall clock was stepped. `nil`
    /// (the default) when the clock cannot tell: steps then go unnoticed.
    var elapsed: TimeInterval? { get }
}

extension NotificationClock {
    public var elapsed: TimeInterval? { nil }
}
