import Synchronization

/// A result that arrives once and can be awaited any number of times: the state behind
/// ``SQLiteDatabase/SubmittedWrite``.
final class Outcome<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, any Error>])
        case done(Result<Value, any Error>)
    }

    private let state = Mutex(State.waiting([]))

    /// Stores `result` and resumes every waiter. Called exactly once.
    func fulfil(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard case .waiting(let waiters) = state else { preconditionFailure("an outcome was fulfilled twice") }
            state = .done(result)
            return waiters
        }
        // Resumed outside the lock: a resumed task may run at once.
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// The result, once it has arrived.
    var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { state -> Result<Value, any Error>? in
                    switch state {
                    case .waiting(var waiters):
                        waiters.append(continuation)
                        state = .waiting(waiters)
                        return nil
                    case .done(let result):
                        return result
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        }
    }
}
