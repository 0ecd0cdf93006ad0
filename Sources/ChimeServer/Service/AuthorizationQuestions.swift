public import ChimeAPI
public import ChimeCore
public import ChimeEngine
import Foundation
import Synchronization

/// The permission questions put to the user and not answered yet, so that every door can show them: the
/// engine's authorization resolver, wrapped around the one that asks (the desktop's prompt, or the
/// headless policy).
///
/// While `decide` waits, the app's question is listed (`AppInfo.authorizationQuestion`) and pages hear
/// `appChanged`; the user answers it where they like — the prompt, the web center, `chime apps allow` —
/// and the engine takes the first answer and cancels the rest (`NotificationEngine.requestAuthorization`),
/// which takes the question off the list.
public final class AuthorizationQuestions: AuthorizationResolver {
    private let asking: any AuthorizationResolver
    private let events: EventHub
    /// Open questions by app; an app asking twice at once has two, listed as its first.
    private let open = Mutex([String: [(number: Int, question: AuthorizationQuestion)]]())
    private let counter = Atomic<Int>(0)

    /// - Parameter asking: who puts the question to the user (`nil` from it: nobody could answer).
    public init(asking: any AuthorizationResolver, events: EventHub) {
        self.asking = asking
        self.events = events
    }

    public func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        let number = counter.add(1, ordering: .relaxed).newValue
        open.withLock { $0[appIdentifier, default: []].append((number, AuthorizationQuestion(options: options, since: Date()))) }
        events.publish(.appChanged, AppChangedEvent(app: appIdentifier), to: .lists)
        defer {
            open.withLock { open in
                open[appIdentifier]?.removeAll { $0.number == number }
                if open[appIdentifier]?.isEmpty == true { open[appIdentifier] = nil }
            }
            events.publish(.appChanged, AppChangedEvent(app: appIdentifier), to: .lists)
        }
        return await asking.decide(appIdentifier: appIdentifier, options: options)
    }

    /// The question `app` is waiting on, if any.
    public func question(for app: String) -> AuthorizationQuestion? {
        open.withLock { $0[app]?.first?.question }
    }
}

/// Without a desktop and with `--authorization ask`: nobody is asked on screen; the question waits, listed
/// in the web center and `chime apps list`, for the user to answer there or with `chime apps allow|deny`,
/// at most `patience` (then the app stays undecided and may ask again).
public struct WaitForTheUser: AuthorizationResolver {
    public let patience: Duration

    public init(patience: Duration = .seconds(600)) {
        self.patience = patience
    }

    public func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        // Answered elsewhere, the engine cancels this wait.
        try? await Task.sleep(for: patience)
        return nil
    }
}
