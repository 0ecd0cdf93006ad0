import Foundation

/// A thread's sleep until an instant, cut short by `signal()`; a signal while the thread is awake is kept
/// for its next sleep. For work that must happen at an instant whatever the cooperative pool is doing.
final class ThreadAlarm: @unchecked Sendable {
    // `NSCondition` guards `signalled`; it is the only state.
    private let condition = NSCondition()
    private var signalled = false

    func signal() {
        condition.lock()
        signalled = true
        condition.signal()
        condition.unlock()
    }

    /// Returns at `deadline`, or earlier on a signal.
    func sleep(until deadline: Date) {
        condition.lock()
        while !signalled, condition.wait(until: deadline) {}
        signalled = false
        condition.unlock()
    }
}
