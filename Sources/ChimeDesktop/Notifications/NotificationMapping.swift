import ChimeCore
import ChimeEngine
import Foundation

/// Turns a `Presentation` into the `Notify` call that shows it on a freedesktop notification server.
///
/// The presentation has every rule applied already; this only translates, and degrades to what the
/// server can do:
///
/// | Presentation | Notify |
/// |---|---|
/// | app (its `DesktopAppInfo`) | `app_name` = display name, else the identifier; `app_icon`; hints `desktop-entry`, `x-chime-app`, `x-chime-notification` |
/// | `title`, `subtitle` | `summary` = "title — subtitle" (whichever are not empty) |
/// | `body` | `body`, escaped when the server reads markup; without `body` it joins the summary |
/// | `actions` | a key and label for each (key = the action identifier), plus `default` (open); none without `actions` |
/// | text-input action | with `inline-reply`: the first one becomes KDE's `inline-reply` with `x-kde-reply-placeholder-text`, `x-kde-reply-submit-button-text`; others stay buttons that ask for a reply elsewhere |
/// | first image attachment whose file exists | `image-path` = its file URL |
/// | `interruptionLevel` | `urgency` passive 0, active and time-sensitive 1, critical 2; 0 when there is no banner (list only: GNOME then shows no banner; other servers are not sent it) |
/// | `sound` | `sound-file` (the app's file) or `sound-name` (theme sound); `suppress-sound` for silence |
/// | `categoryIdentifier` | `category` |
/// | `bannerIsPersistent` | `expire_timeout` 0 (never), else -1 (the server's default) |
struct NotificationMapping: Sendable {
    /// The freedesktop sound theme's names for the system's sounds.
    static let defaultSoundName = "message-new-instant"
    static let ringtoneSoundName = "phone-incoming-call"
    static let criticalSoundName = "alarm-clock-elapsed"
    /// Action keys with a meaning of their own in the protocol, which an app's action must not take.
    static let reservedKeys: Set<String> = ["default", "inline-reply", allowKey, denyKey]
    static let allowKey = "chime-allow"
    static let denyKey = "chime-deny"

    let capabilities: ServerCapabilities
    let app: DesktopAppInfo
    let soundFile: @Sendable (_ appIdentifier: String, _ name: String) -> URL?

    /// The call for `presentation`, replacing the server's notification `replacesID` (0 for a new one).
    func request(for presentation: Presentation, replacing replacesID: UInt32) -> NotifyRequest {
        let headline = [presentation.title, presentation.subtitle].map(Self.clean).filter { !$0.isEmpty }.joined(separator: " — ")
        let text = Self.clean(presentation.body)
        var request = NotifyRequest(
            appName: Self.clean(app.displayName ?? presentation.appIdentifier), replacesID: replacesID,
            appIcon: Self.clean(app.iconName ?? ""), summary: headline, body: "", actions: [], hints: [:],
            expireTimeout: presentation.bannerIsPersistent ? 0 : -1, meanings: [:])
        if capabilities.body {
            request.body = capabilities.bodyMarkup ? Markup.escape(text) : text
        } else {
            request.summary = [headline, text].filter { !$0.isEmpty }.joined(separator: " — ")
        }

        var hints: [String: BusValue] = [
            "urgency": .byte(Self.urgency(presentation)),
            "desktop-entry": .string(Self.clean(app.desktopEntry ?? presentation.appIdentifier)),
            "x-chime-app": .string(Self.clean(presentation.appIdentifier)),
            "x-chime-notification": .string(Self.clean(presentation.notificationIdentifier)),
        ]
        if !presentation.categoryIdentifier.isEmpty {
            hints["category"] = .string(Self.clean(presentation.categoryIdentifier))
        }
        if let image = presentation.attachments.first(where: { $0.kind == .image }), FileManager.default.fileExists(atPath: image.url.path) {
            hints["image-path"] = .string(image.url.absoluteString)
        }
        hints.merge(soundHints(presentation.sound, appIdentifier: presentation.appIdentifier)) { $1 }

        if capabilities.actions {
            addActions(presentation.actions, to: &request, hints: &hints)
        }
        request.hints = hints
        return request
    }

    /// The authorization prompt: "Allow “Photos” to send notifications?" with Allow and Don't Allow.
    /// Without the `actions` capability nothing can be asked (the caller checks).
    /// In the session's language (`DesktopText`).
    func prompt(appIdentifier: String, options: AuthorizationOptions, text: TextCatalog = DesktopText.text) -> NotifyRequest {
        let name = Self.clean(app.displayName ?? appIdentifier)
        var body = ""
        let kinds = Self.describe(options, text: text)
        if !kinds.isEmpty { body = text("prompt.body", name, kinds) }
        if capabilities.bodyMarkup { body = Markup.escape(body) }
        var request = NotifyRequest(
            appName: name, replacesID: 0, appIcon: Self.clean(app.iconName ?? ""),
            summary: text("prompt.title", name), body: capabilities.body ? body : "",
            actions: [(Self.allowKey, text("prompt.allow")), (Self.denyKey, text("prompt.deny"))],
            hints: [
                "urgency": .byte(1), "desktop-entry": .string(Self.clean(app.desktopEntry ?? appIdentifier)),
                "x-chime-app": .string(Self.clean(appIdentifier)), "category": .string("x-chime.authorization"),
            ],
            // The question stays until it is answered; it never times out by itself.
            expireTimeout: 0, meanings: [Self.allowKey: .allow, Self.denyKey: .deny])
        if !capabilities.body && !body.isEmpty { request.summary += " — " + body }
        return request
    }

    /// A notice from Chime itself (no app, no buttons): what the user should know and do, such as how to
    /// send a reply this server cannot take.
    static func notice(summary: String, body: String, capabilities: ServerCapabilities) -> NotifyRequest {
        var text = clean(body)
        if capabilities.bodyMarkup { text = Markup.escape(text) }
        var request = NotifyRequest(
            appName: "Chime", replacesID: 0, appIcon: "", summary: clean(summary), body: capabilities.body ? text : "", actions: [],
            hints: ["urgency": .byte(1), "category": .string("x-chime.notice")], expireTimeout: -1, meanings: [:])
        if !capabilities.body && !text.isEmpty { request.summary += " — " + clean(body) }
        return request
    }

    // MARK: - Parts

    /// passive 0, active and time-sensitive 1, critical 2 — and 0 without a banner: the notification
    /// goes to the list only, which servers with a list (GNOME) honour by showing no banner for low
    /// urgency.
    static func urgency(_ presentation: Presentation) -> UInt8 {
        guard presentation.destinations.contains(.banner) else { return 0 }
        switch presentation.interruptionLevel {
        case .passive: return 0
        case .active, .timeSensitive: return 1
        case .critical: return 2
        }
    }

    private func soundHints(_ sound: PresentationSound?, appIdentifier: String) -> [String: BusValue] {
        func file(_ name: String?) -> URL? {
            guard let name, let url = soundFile(appIdentifier, name), FileManager.default.fileExists(atPath: url.path) else { return nil }
            return url
        }
        switch sound {
        case nil:
            return ["suppress-sound": .boolean(true)]
        case .default:
            return ["sound-name": .string(Self.defaultSoundName)]
        case .defaultRingtone:
            return ["sound-name": .string(Self.ringtoneSoundName)]
        case .named(let name):
            if let url = file(name) { return ["sound-file": .string(url.path)] }
            return ["sound-name": .string(Self.defaultSoundName)]
        case .ringtone(let name):
            if let url = file(name) { return ["sound-file": .string(url.path)] }
            return ["sound-name": .string(Self.ringtoneSoundName)]
        case .critical(let name, _):
            if let url = file(name) { return ["sound-file": .string(url.path)] }
            return ["sound-name": .string(Self.criticalSoundName)]
        }
    }

    /// The default action first (servers show it as a click on the notification, not as a button), then
    /// the buttons in order. The first text-input action becomes the inline reply where the server has
    /// one; the protocol allows only one per notification.
    private func addActions(_ actions: [PresentationAction], to request: inout NotifyRequest, hints: inout [String: BusValue]) {
        request.actions.append(("default", "Open"))
        request.meanings["default"] = .open
        var usedKeys: Set<String> = ["default"]
        var inlineReplyUsed = false
        for (index, action) in actions.enumerated() {
            let title = Self.clean(action.title)
            if let input = action.textInput {
                if capabilities.inlineReply && !inlineReplyUsed {
                    inlineReplyUsed = true
                    usedKeys.insert("inline-reply")
                    request.actions.append(("inline-reply", title))
                    request.meanings["inline-reply"] = .inlineReply(action.identifier)
                    if !input.placeholder.isEmpty { hints["x-kde-reply-placeholder-text"] = .string(Self.clean(input.placeholder)) }
                    if !input.buttonTitle.isEmpty { hints["x-kde-reply-submit-button-text"] = .string(Self.clean(input.buttonTitle)) }
                    continue
                }
            }
            // The action's own identifier, unless the protocol reserves it or another action has it.
            var key = Self.clean(action.identifier)
            if key.isEmpty || Self.reservedKeys.contains(key) || usedKeys.contains(key) { key = "chime-action-\(index)" }
            usedKeys.insert(key)
            request.actions.append((key, title))
            if let input = action.textInput {
                request.meanings[key] = .replyElsewhere(
                    PresentationActionSummary(identifier: action.identifier, title: action.title, placeholder: input.placeholder))
            } else {
                request.meanings[key] = .action(action.identifier)
            }
        }
    }

    /// D-Bus strings end at NUL; app text is sent without them rather than cut short.
    static func clean(_ text: String) -> String {
        text.utf8.contains(0) ? String(text.unicodeScalars.filter { $0 != "\0" }.map(Character.init)) : text
    }

    /// "alerts, sounds and badges".
    static func describe(_ options: AuthorizationOptions, text: TextCatalog = DesktopText.text) -> String {
        var kinds: [String] = []
        if options.contains(.alert) { kinds.append(text("kind.alerts")) }
        if options.contains(.sound) { kinds.append(text("kind.sounds")) }
        if options.contains(.badge) { kinds.append(text("kind.badges")) }
        if options.contains(.criticalAlert) { kinds.append(text("kind.critical")) }
        if options.contains(.timeSensitive) { kinds.append(text("kind.timeSensitive")) }
        guard let last = kinds.popLast() else { return "" }
        guard let beforeLast = kinds.popLast() else { return last }
        let head = kinds.reduce(nil as String?) { joined, kind in joined.map { text("list.more", $0, kind) } ?? kind }
        return text("list.last", head.map { text("list.more", $0, beforeLast) } ?? beforeLast, last)
    }
}
