public import ChimeCore
public import ChimeEngine
import Synchronization

/// A person using the notifications, for tests: answers authorization prompts, opens and dismisses
/// notifications, taps their buttons and types replies.
///
/// Give it to the engine as its `AuthorizationResolver`, then act through an app's center:
///
/// ```swift
/// let user = SimulatedUser(answersAuthorization: true)
/// let engine = NotificationEngine(store: store, clock: clock, presenter: presenter, authorization: user)
/// let center = engine.center(for: "com.example.photos")
/// let outcome = try await user.tap("ACTION_LIKE", on: "photo-1", in: center)
/// ```
///
/// Without a standing answer, an authorization prompt waits until the test answers it:
/// `let prompt = await user.nextAuthorizationPrompt(); user.answer(allow: false)`.
public final class SimulatedUser: AuthorizationResolver {
    /// A question the user was asked.
    public struct AuthorizationPrompt: Sendable, Hashable {
        public var appIdentifier: String
        public var options: AuthorizationOptions

        public init(appIdentifier: String, options: AuthorizationOptions) {
            self.appIdentifier = appIdentifier
            self.options = options
        }
    }

    private struct State {
        var standingAnswer: Bool?
        var openPrompts: [(number: Int, answer: CheckedContinuation<Bool?, Never>)] = []
        var nextPrompt = 0
        /// Prompts cancelled before they were put up.
        var cancelled: Set<Int> = []
        var withdrawn = 0
    }

    private let state: Mutex<State>
    private let prompts = Mailbox<AuthorizationPrompt>()

    /// - Parameter answersAuthorization: how the user answers every prompt; `nil` makes each prompt wait
    ///   for `answer(allow:)`.
    public init(answersAuthorization: Bool? = nil) {
        state = Mutex(State(standingAnswer: answersAuthorization))
    }

    // MARK: Authorization

    /// Asks the user; a prompt whose task is cancelled (answered through another door) is withdrawn, as a
    /// desktop takes its question off the screen, and answers `nil`.
    public func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        let prompt = AuthorizationPrompt(appIdentifier: appIdentifier, options: options)
        let number = state.withLock { state in
            state.nextPrompt += 1
            return state.nextPrompt
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (answer: CheckedContinuation<Bool?, Never>) in
                let (standing, cancelled) = state.withLock { state -> (Bool?, Bool) in
                    if state.cancelled.remove(number) != nil { return (nil, true) }
                    if state.standingAnswer == nil { state.openPrompts.append((number, answer)) }
                    return (state.standingAnswer, false)
                }
                if cancelled { return answer.resume(returning: nil) }
                prompts.post(prompt)
                if let standing { answer.resume(returning: standing) }
            }
        } onCancel: {
            let open = state.withLock { state -> CheckedContinuation<Bool?, Never>? in
                guard let index = state.openPrompts.firstIndex(where: { $0.number == number }) else {
                    state.cancelled.insert(number)
                    return nil
                }
                state.withdrawn += 1
                return state.openPrompts.remove(at: index).answer
            }
            open?.resume(returning: nil)
        }
    }

    /// How many open prompts were withdrawn because the question was answered elsewhere.
    public var withdrawnPrompts: Int { state.withLock { $0.withdrawn } }

    /// Waits until the user is asked, and returns the question.
    public func nextAuthorizationPrompt() async -> AuthorizationPrompt {
        await prompts.next()
    }

    /// Answers the oldest open prompt.
    public func answer(allow: Bool) {
        let prompt = state.withLock { state in state.openPrompts.isEmpty ? nil : state.openPrompts.removeFirst().answer }
        precondition(prompt != nil, "no authorization prompt is open")
        prompt?.resume(returning: allow)
    }

    /// Every prompt the user has seen, oldest first.
    public var authorizationPrompts: [AuthorizationPrompt] { prompts.all }

    // MARK: Acting on notifications

    /// Opens the notification (the default action).
    @discardableResult
    public func open(_ notificationIdentifier: String, in center: AppNotificationCenter) async throws -> ResponseOutcome {
        try await center.engine.respond(appIdentifier: center.appIdentifier, notificationIdentifier: notificationIdentifier, action: .open)
    }

    /// Closes the notification explicitly.
    @discardableResult
    public func dismiss(_ notificationIdentifier: String, in center: AppNotificationCenter) async throws -> ResponseOutcome {
        try await center.engine.respond(appIdentifier: center.appIdentifier, notificationIdentifier: notificationIdentifier, action: .dismiss)
    }

    /// Taps one of the notification's buttons.
    @discardableResult
    public func tap(_ actionIdentifier: String, on notificationIdentifier: String, in center: AppNotificationCenter) async throws -> ResponseOutcome {
        try await center.engine.respond(appIdentifier: center.appIdentifier, notificationIdentifier: notificationIdentifier, action: .action(actionIdentifier))
    }

    /// Types `text` into a text-input button and sends it.
    @discardableResult
    public func reply(_ text: String, with actionIdentifier: String, on notificationIdentifier: String, in center: AppNotificationCenter) async throws -> ResponseOutcome {
        try await center.engine.respond(
            appIdentifier: center.appIdentifier, notificationIdentifier: notificationIdentifier, action: .reply(action: actionIdentifier, text: text))
    }
}
