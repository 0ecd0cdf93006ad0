import Synchronization

/// Collects what a command writes through a callback (its notes on standard error), for a test to read.
public final class LineCollector: Sendable {
    private let collected = Mutex("")

    public init() {}

    public var text: String { collected.withLock { $0 } }

    public func add(_ text: String) {
        collected.withLock { $0 += text }
    }
}
