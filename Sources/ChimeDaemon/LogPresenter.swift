import ChimeCore
public import ChimeEngine
import Foundation

/// The presenter without a desktop (no notification server answers, or `--presenter log`): the log is
/// where a person sees the notification — chimed's terminal when it runs in one, the journal under
/// systemd (`journalctl --user -u chimed`) — so each one is a line with its text as the user would read
/// it (the previews rule applied), e.g.
/// `presented com.example.alarm/wake — “Wake up” — Time to get up`.
public struct LogPresenter: NotificationPresenter {
    let log: DaemonLog

    public init(log: DaemonLog) {
        self.log = log
    }

    public func present(_ presentation: Presentation) async {
        log.info(Self.line(presentation))
    }

    static func line(_ presentation: Presentation) -> String {
        let text = [presentation.subtitle, presentation.body].filter { !$0.isEmpty }
        var line = "presented \(presentation.appIdentifier)/\(presentation.notificationIdentifier) — “\(presentation.title)”"
        for part in text { line += " — \(part)" }
        let actions = presentation.actions.map(\.title)
        if !actions.isEmpty { line += " [\(actions.joined(separator: " | "))]" }
        if !presentation.destinations.contains(.banner) { line += " (quietly: in the list only)" }
        return line
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
