import ChimeCore
import ChimeServer
public import ChimeEngine
import Foundation

/// The presenter without a desktop (no notification server answers, or `--presenter log`): the log is
/// where a person sees the notification — chimed's terminal when it runs in one, the journal under
/// systemd (`journalctl --user -u chimed`) — so each one is a line with its text as the user would read
/// it (the previews rule applied), then how it came: its level when above active, whether it played a
/// sound, whether it only went quietly to the list, e.g.
/// `presented com.example.alarm/wake — “Wake up” — Time to get up [Snooze] (time-sensitive, with sound)`.
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
        var how: [String] = []
        switch presentation.interruptionLevel {
        case .critical: how.append("critical")
        case .timeSensitive: how.append("time-sensitive")
        case .active, .passive: break
        }
        if presentation.brokeThroughFocus { how.append("through the focus") }
        if let sound = presentation.sound { how.append(sound.isCritical ? "with the critical sound" : "with sound") }
        if !presentation.destinations.contains(.banner) { how.append("quietly: in the list only") }
        if !how.isEmpty { line += " (\(how.joined(separator: ", ")))" }
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
    /// The question waits for the user, who answers it in the web center or with `chime apps allow|deny`.
    case ask
    case allow
    case deny

    var resolver: any AuthorizationResolver {
        switch self {
        case .allow: FixedAuthorization.allowAll
        case .deny: FixedAuthorization.denyAll
        case .ask: WaitForTheUser()
        }
    }
}
