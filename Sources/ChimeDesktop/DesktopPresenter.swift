public import ChimeCore
public import ChimeEngine
import Synchronization

/// Shows notifications on the Linux desktop through the freedesktop notification server (GNOME Shell,
/// KDE Plasma, dunst, mako, …) over D-Bus, and takes the user's answers back to the engine; it also asks
/// the authorization question as a notification, and sets launcher badges.
///
/// Implements https://specifications.freedesktop.org/notification-spec/latest/ (version 1.2) with KDE's
/// inline reply, and Unity's `LauncherEntry` for badges.
///
/// ```swift
/// let desktop = DesktopPresenter(configuration: .init(apps: DesktopPresenter.Configuration.appNames(["com.example.photos": "Photos"])))
/// let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: desktop, authorization: desktop)
/// await engine.start()     // connects the presenter to the engine (held weakly)
/// ```
///
/// **What is shown.** Exactly what the `Presentation` says (`NotificationMapping` has the table): a
/// presentation with no destinations shows nothing (and takes down the version shown before, if any);
/// the same app and notification identifier presented again replaces the server's notification
/// (`replaces_id`), so new buttons and repeat alerts update it in place.
///
/// **Answers.** `ActionInvoked` with `default` opens the notification (`UserAction.open`), with a button's
/// key chooses it (`.action`); KDE's `NotificationReplied` sends the typed text (`.reply`);
/// `NotificationClosed` with reason 2 — the user closed it — is a dismissal (`.dismiss`), which the engine
/// passes to the app only when its category asked (`customDismissAction`) and which, as on iOS, removes
/// the notification from the delivered list either way. A close after the user chose an action, an
/// expiry (reason 1) and a close by a call (reason 3) are not dismissals. Each answer goes to the engine
/// in a task of its own; an error (the notification is gone, the action is not offered, the session is
/// locked) is logged. Text-input actions on servers without `inline-reply` stay buttons; pressing one
/// calls `Configuration.onReplyNeeded` (see `ReplyRequest`).
///
/// **Degrading.** Capabilities are read once per server (again after it restarts): without `actions`
/// there are no buttons, and authorization cannot be asked (`decide` answers `nil`, undecided); without
/// `body` the text joins the summary; with `body-markup` app text is escaped. With no bus or no server
/// the notification is dropped with a warning in the log; nothing throws, nothing waits for long.
///
/// **Threading.** `present`, `withdraw` and `updateBadge` only queue the work and return; one task sends
/// it to the server in order, each call bounded by `Configuration.callTimeout`. The D-Bus connection has
/// a thread of its own (`BusConnection`), so no blocking call runs on the cooperative pool. `decide`
/// suspends until the user answers the prompt. All methods may be called from any task.
///
/// **Lifetime.** The connection opens on first use and reopens after the bus went away. Releasing the
/// presenter closes it; open prompts are answered `nil`. With `Configuration.shownFile`, what it showed is
/// kept on disk, and a later process on the same server takes it back (`restoreShownNotifications()`),
/// so a button pressed after a restart still reaches the app; without it, answers to notifications an
/// earlier process showed are ignored.
public final class DesktopPresenter: NotificationPresenter, AuthorizationResolver {
    enum Operation: Sendable {
        case present(Presentation)
        case withdraw(appIdentifier: String, identifiers: [String])
        case badge(appIdentifier: String, count: Int)
        case prompt(Int, appIdentifier: String, options: AuthorizationOptions)
        /// The prompt was answered elsewhere: take it off the screen.
        case withdrawPrompt(Int)
        /// A notice from Chime itself.
        case notice(summary: String, body: String)
        /// A notification of the presenter's own that nobody withdraws (an answered prompt).
        case closeServerNotification(UInt32)
    }

    struct State {
        weak var engine: NotificationEngine?
        var shown = ShownNotifications()
        /// A save of `shown` to `Configuration.shownFile` is on its way.
        var shownSaveScheduled = false
        var nextPrompt = 0
        var prompts: [Int: CheckedContinuation<Bool?, Never>] = [:]
        /// Prompts cancelled before they were asked.
        var cancelledPrompts: Set<Int> = []
        /// Operations queued and not yet carried out, and answers sent to the engine and not yet done.
        var pendingOperations = 0
        var runningResponses = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let configuration: Configuration
    let log: any EngineLog
    let link: NotificationServerLink
    let state = Mutex(State())
    private let operations: AsyncStream<Operation>.Continuation

    /// Starts the presenter; the connection opens with the first notification.
    ///
    /// - Parameters:
    ///   - configuration: The bus, the apps' names and icons, timeouts and callbacks.
    ///   - log: Where warnings go (no server, a call that failed, an answer the engine refused). Messages
    ///     carry identifiers, never notification text.
    public init(configuration: Configuration = Configuration(), log: any EngineLog = StandardErrorLog()) {
        self.configuration = configuration
        self.log = log
        link = NotificationServerLink(address: configuration.bus, timeout: configuration.callTimeout, log: log)
        let (stream, continuation) = AsyncStream.makeStream(of: Operation.self, bufferingPolicy: .unbounded)
        operations = continuation
        Task { [weak self] in
            for await operation in stream {
                guard let self else { return }
                await self.perform(operation)
                self.operationDone()
            }
        }
        Task { [weak self, events = link.events] in
            for await event in events {
                guard let self else { return }
                self.handle(event)
            }
        }
    }

    deinit {
        operations.finish()
        let prompts = state.withLock { state in
            defer { state.prompts = [:] }
            return state.prompts.values
        }
        for prompt in prompts { prompt.resume(returning: nil) }
    }

    /// Sends the user's answers to `engine`, which is held weakly (the engine holds its presenter); the
    /// engine calls it when it starts. Until then, or once the engine is gone, answers are logged and
    /// dropped.
    public func connect(to engine: NotificationEngine) {
        state.withLock { $0.engine = engine }
    }

    /// Returns once everything handed to the presenter so far has been sent to the server, and every
    /// answer of the user received so far has been handled by the engine (with what that caused in turn).
    ///
    /// For orderly shutdown and for tests; answers that the server has sent but the connection has not
    /// read yet are not waited for.
    public func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                guard state.pendingOperations == 0 && state.runningResponses == 0 else {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if idle { continuation.resume() }
        }
    }

    // MARK: NotificationPresenter

    public func present(_ presentation: Presentation) async {
        post(.present(presentation))
    }

    public func withdraw(appIdentifier: String, identifiers: [String]) async {
        post(.withdraw(appIdentifier: appIdentifier, identifiers: identifiers))
    }

    /// Broadcasts the badge as `com.canonical.Unity.LauncherEntry.Update` (`count`, `count-visible`) for
    /// the app's desktop entry; docks that know the app show it.
    public func updateBadge(appIdentifier: String, count: Int) async {
        post(.badge(appIdentifier: appIdentifier, count: count))
    }

    // MARK: AuthorizationResolver

    /// Asks with a notification — “Allow “Photos” to send notifications?” with Allow and Don't Allow —
    /// and returns the user's choice; `nil` (undecided: the app may ask again) when the prompt closed or
    /// expired without a choice, the server went away, or nothing can be asked (no server, or a server
    /// without buttons, which is logged). The prompt never expires by itself.
    public func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        let number = state.withLock { state -> Int in
            state.nextPrompt += 1
            return state.nextPrompt
        }
        // Cancelled (the user answered through another door): the question is withdrawn from the screen.
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (answer: CheckedContinuation<Bool?, Never>) in
                let cancelled = state.withLock { state -> Bool in
                    guard state.cancelledPrompts.remove(number) == nil else { return true }
                    state.prompts[number] = answer
                    return false
                }
                guard !cancelled else { return answer.resume(returning: nil) }
                post(.prompt(number, appIdentifier: appIdentifier, options: options))
            }
        } onCancel: {
            let waiting = state.withLock { state in
                guard let waiting = state.prompts.removeValue(forKey: number) else {
                    // Not asked yet: the question is never put up.
                    state.cancelledPrompts.insert(number)
                    return CheckedContinuation<Bool?, Never>?.none
                }
                return waiting
            }
            guard let waiting else { return }
            waiting.resume(returning: nil)
            post(.withdrawPrompt(number))
        }
    }

    /// Shows a notice from Chime itself (no app, no buttons), in turn with the notifications.
    public func notice(summary: String, body: String) {
        post(.notice(summary: summary, body: body))
    }

    // MARK: - Queue

    func post(_ operation: Operation) {
        state.withLock { $0.pendingOperations += 1 }
        // The stream is unbounded and only finishes in `deinit`, so it always takes the operation.
        operations.yield(operation)
    }

    func operationDone() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pendingOperations -= 1
            return Self.takeIdleWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    static func takeIdleWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard state.pendingOperations == 0 && state.runningResponses == 0 else { return [] }
        defer { state.idleWaiters = [] }
        return state.idleWaiters
    }
}
