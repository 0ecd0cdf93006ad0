#if !canImport(Darwin)
import Foundation

/// A value behind a lock, for the API's reference types whose fields change after creation (the mutable
/// content, the center's delegate) and which Apple's callers share across threads.
///
/// `Mutex` would need every value moved in to be `sending`; the fields here hold the app's own objects
/// (`userInfo` values, the delegate), which Apple's types also hold without proving them sendable.
// @unchecked Sendable: every access to `value` goes through `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Carries an app object (a delegate, a content extension) into the queue that calls it.
///
/// Apple calls these objects on its own queues without requiring them to be `Sendable`; Chime does the
/// same, and calls each one from a single serial queue.
// @unchecked Sendable: the value is only used on the serial delegate queue it is sent to.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Resumes a continuation at most once: apps call completion handlers, and a second call must not crash
/// the process.
final class OnceContinuation<Value: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Locked(continuation)
    }

    /// Resumes with `value`; returns whether this call did (only the first does).
    @discardableResult
    func resume(returning value: Value) -> Bool {
        let taken = continuation.withLock { continuation -> CheckedContinuation<Value, Never>? in
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(returning: value)
        return taken != nil
    }
}
#endif
