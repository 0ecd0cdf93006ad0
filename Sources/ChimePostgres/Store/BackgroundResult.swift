import Foundation
import Synchronization

/// A value worked out on another thread while the caller does something else, such as waiting for
/// PostgreSQL: `value()` blocks until it is ready, then returns it (or rethrows its error) as often as
/// it is asked, so a transaction that is run again gets the same value.
///
/// Only for blocking callers — a connection's own queue — never for a task on Swift's cooperative pool.
final class BackgroundResult<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            ready.signal()
        }
    }

    func value() throws -> Value {
        if let done = result.withLock({ $0 }) { return try done.get() }
        ready.wait()
        ready.signal()  // for the next caller
        return try result.withLock { $0! }.get()
    }
}
