import Dispatch
import Synchronization

/// A first-in first-out queue that one dedicated thread takes from, blocking while it is empty.
///
/// Any thread or task may `post`; posting never blocks. `close()` means stop: from then on posts are
/// dropped, what still waits is discarded, and `take()` returns `nil`.
final class EventQueue<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    /// Counts the elements posted and not yet taken, plus one for `close()`.
    private let available = DispatchSemaphore(value: 0)

    /// Adds `element`; returns `false` when the queue is closed and dropped it.
    @discardableResult
    func post(_ element: Element) -> Bool {
        let posted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.elements.append(element)
            return true
        }
        if posted { available.signal() }
        return posted
    }

    /// Closes the queue: `take()` returns `nil` from now on, and what waits in it is dropped.
    func close() {
        let wasOpen = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        if wasOpen { available.signal() }
    }

    /// The oldest element, waiting for one; `nil` once the queue is closed. Blocks the calling thread:
    /// call it only from a thread of its own, never from a task.
    func take() -> Element? {
        while true {
            available.wait()
            let next = state.withLock { state -> Element?? in
                if state.isClosed { return .some(nil) }
                return state.elements.isEmpty ? nil : state.elements.removeFirst()
            }
            if case .some(nil) = next { available.signal() }  // so that every later take() returns too
            if let next { return next }
        }
    }
}
