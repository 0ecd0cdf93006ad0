import ChimeTestSupport
import Synchronization

/// Values handed over by callbacks, taken in order by the test, each wait with a deadline.
final class Inbox<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let taken = Mutex(0)

    func put(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// How many values arrived in all, taken or not.
    var count: Int { values.withLock { $0.count } }

    /// The next value not yet taken, waiting for it at most `seconds`.
    func next(_ what: String, within seconds: Double = 10) async throws -> Value {
        var value: Value?
        try await eventually(what, within: seconds) {
            value = values.withLock { values in
                taken.withLock { taken in
                    guard taken < values.count else { return nil }
                    taken += 1
                    return values[taken - 1]
                }
            }
            return value != nil
        }
        return value!
    }
}
