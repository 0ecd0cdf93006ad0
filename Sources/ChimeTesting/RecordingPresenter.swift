public import ChimeEngine
import Synchronization

/// A presenter that shows nothing and remembers everything, for tests: every presentation, every
/// withdrawal, every badge.
///
/// A rendezvous, like `ManualClock`: `nextPresentation()` waits for the engine's next `present` call,
/// so a test reads as a story without polling.
///
/// ```swift
/// clock.advance(to: fireDate)
/// let shown = await presenter.nextPresentation()
/// #expect(shown.title == "Wake up")
/// ```
public final class RecordingPresenter: NotificationPresenter {
    private struct State {
        var withdrawals: [(appIdentifier: String, identifiers: [String])] = []
        var badges: [String: Int] = [:]
    }

    private let shown = Mailbox<Presentation>()
    private let state = Mutex(State())

    public init() {}

    public func present(_ presentation: Presentation) async {
        shown.post(presentation)
    }

    public func withdraw(appIdentifier: String, identifiers: [String]) async {
        state.withLock { $0.withdrawals.append((appIdentifier, identifiers)) }
    }

    public func updateBadge(appIdentifier: String, count: Int) async {
        state.withLock { $0.badges[appIdentifier] = count }
    }

    /// Waits for the next presentation not yet taken by this method, oldest first.
    public func nextPresentation() async -> Presentation {
        await shown.next()
    }

    /// Every presentation so far, oldest first.
    public var presentations: [Presentation] { shown.all }

    /// The identifiers withdrawn from the screen, per call, oldest first.
    public var withdrawals: [(appIdentifier: String, identifiers: [String])] { state.withLock { $0.withdrawals } }

    /// The last badge count each app showed.
    public var badges: [String: Int] { state.withLock { $0.badges } }
}
