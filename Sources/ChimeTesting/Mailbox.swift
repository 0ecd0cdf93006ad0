import Synchronization

/// A queue that one side fills and the other awaits, element by element: the rendezvous under
/// `RecordingPresenter.nextPresentation()` and `SimulatedUser.nextAuthorizationPrompt()`.
///
/// Every element posted is kept (`all`); `next()` hands them out oldest first, waiting when none is new.
final class Mailbox<Element: Sendable>: Sendable {
    private struct State {
        var all: [Element] = []
        var taken = 0
        var waiters: [CheckedContinuation<Element, Never>] = []
    }

    private let state = Mutex(State())

    func post(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, Never>? in
            state.all.append(element)
            guard !state.waiters.isEmpty else { return nil }
            state.taken += 1
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: element)
    }

    func next() async -> Element {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Element? in
                guard state.taken < state.all.count else {
                    state.waiters.append(continuation)
                    return nil
                }
                state.taken += 1
                return state.all[state.taken - 1]
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    var all: [Element] { state.withLock { $0.all } }
}
