import ChimeCore
public import ChimeEngine
import Foundation

/// The presenter without a desktop: one log line per notification, with identifiers and where it went,
/// never its text (headless machines, CI, tests).
public struct LogPresenter: NotificationPresenter {
    let log: DaemonLog

    public init(log: DaemonLog) {
        self.log = log
    }

    public func present(_ presentation: Presentation) async {
        log.info("presented \(presentation.appIdentifier)/\(presentation.notificationIdentifier)")
    }

    public func withdraw(appIdentifier: String, identifiers: [String]) async {
        log.debug("withdrew \(identifiers.count) notification(s) of \(appIdentifier)")
    }

    public func updateBadge(appIdentifier: String, count: Int) async {
        log.debug("badge of \(appIdentifier) is \(count)")
    }
}

/// The authorization policy without a desktop to ask on (`--authorization`).
public enum HeadlessAuthorization: String, Sendable, CaseIterable {
    /// Nobody can answer now: the app stays undecided until the user runs `chime apps allow|deny`.
    case ask
    case allow
    case deny

    var resolver: any AuthorizationResolver {
        switch self {
        case .allow: FixedAuthorization.allowAll
        case .deny: FixedAuthorization.denyAll
        case .ask: Undecided()
        }
    }

    struct Undecided: AuthorizationResolver {
        func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? { nil }
    }
}
