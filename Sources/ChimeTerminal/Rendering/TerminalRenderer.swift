import ChimeCore
import ChimeEngine
import Foundation

/// Everything the presenter writes, as text: notifications, prompts, answers and notes.
///
/// Pure: the same presentation gives the same text. App text is sanitized before it is shown (see
/// `TerminalText.sanitized`), lines are wrapped to `width` columns, and styles come from `style`, so with
/// `.plain` the text is exactly what a pipe receives.
///
/// A notification with a banner, the photo post of the seeds:
///
/// ```
///
/// [com.example.photos] 09:00
///   Hello
///   Shared some photo
///   [image] logo-image
///   1) Like
///   2) Dislike
///   o) open   d) dismiss   Enter) later
/// Choice:
/// ```
///
/// preceded by a bell (BEL) when it has a sound; three for a critical alert.
struct TerminalRenderer: Sendable {
    var style: TerminalStyle
    /// The most columns a line takes.
    var width: Int
    var timeZone: TimeZone
    /// Names to show for app identifiers; an app without one shows its identifier.
    var appNames: [String: String]

    init(style: TerminalStyle = .plain, width: Int = 80, timeZone: TimeZone = .current, appNames: [String: String] = [:]) {
        precondition(width >= 20, "the presenter needs at least 20 columns")
        self.style = style
        self.width = width
        self.timeZone = timeZone
        self.appNames = appNames
    }

    static let bell = "\u{7}"
    private static let indent = "  "

    // MARK: - Notifications

    /// A notification with a banner: header, texts, attachments, group summary, and — when the user can
    /// answer — its actions and the choice prompt.
    ///
    /// - Parameters:
    ///   - isUpdate: the notification is on screen already and comes again with new buttons: marked
    ///     `updated`, without a bell.
    ///   - waiting: how many notifications and questions wait behind this one, for the prompt.
    ///   - interactive: whether the user can answer (input is open); without, no actions and no prompt.
    func notification(_ presentation: Presentation, isUpdate: Bool, waiting: Int, interactive: Bool) -> String {
        var text = ""
        if presentation.sound != nil && !isUpdate {
            text += String(repeating: Self.bell, count: presentation.sound?.isCritical == true ? 3 : 1)
        }
        text += "\n" + header(presentation, isUpdate: isUpdate) + "\n"
        let title = TerminalText.sanitized(presentation.title, keepsLineBreaks: true)
        if !title.isEmpty { text += block(title, styled: style.bold) }
        let subtitle = TerminalText.sanitized(presentation.subtitle, keepsLineBreaks: true)
        if !subtitle.isEmpty { text += block(subtitle) }
        let body = TerminalText.sanitized(presentation.body, keepsLineBreaks: true)
        if !body.isEmpty { text += block(body) }
        for attachment in presentation.attachments {
            text += block("[\(attachment.kind)] " + TerminalText.sanitized(attachment.identifier), styled: style.dim)
        }
        if let sound = soundLine(presentation.sound) {
            text += block(sound, styled: style.dim)
        }
        if presentation.group.count > 1 {
            text += block(TerminalText.sanitized(presentation.group.summary), styled: style.dim)
        }
        if interactive {
            text += choices(presentation) + choicePrompt(waiting: waiting)
        }
        return text
    }

    /// `[sound] warning-sound · critical, volume 100%` for a sound the user would hear as more than the
    /// bell: an app's own sound file or a critical alert's; `nil` for the default sound and silence.
    private func soundLine(_ sound: PresentationSound?) -> String? {
        switch sound {
        case nil, .default: nil
        case .defaultRingtone: "[sound] ringtone"
        case .named(let name): "[sound] " + TerminalText.sanitized(name)
        case .ringtone(let name): "[sound] " + TerminalText.sanitized(name) + " · ringtone"
        case .critical(let name, let volume):
            "[sound] " + TerminalText.sanitized(name ?? "critical alert") + " · critical, volume \(Int((volume * 100).rounded()))%"
        }
    }

    /// `[App] 09:00 · updated · late, due 08:00 · time-sensitive · badge 5`, going on to indented lines
    /// when it is wider than the screen; a critical alert's is marked and drawn white on red.
    private func header(_ presentation: Presentation, isUpdate: Bool) -> String {
        let critical = presentation.interruptionLevel == .critical
        var parts = [(critical ? "!! CRITICAL ALERT !! " : "") + "[\(appLabel(presentation.appIdentifier))] \(clockTime(presentation.date))"]
        if isUpdate { parts.append("updated") }
        if presentation.isLate {
            parts.append(presentation.scheduledDate.map { "late, due \(dueTime($0, deliveredAt: presentation.date))" } ?? "late")
        }
        switch presentation.interruptionLevel {
        case .timeSensitive: parts.append("time-sensitive")
        case .passive, .active, .critical: break
        }
        if presentation.brokeThroughFocus { parts.append("through focus") }
        if let badge = presentation.badge { parts.append(badge == 0 ? "badge cleared" : "badge \(badge)") }

        var lines: [String] = []
        for part in parts {
            let separator = " · "
            if let last = lines.last, TerminalText.columns(last) + separator.count + TerminalText.columns(part) <= width {
                lines[lines.count - 1] = last + separator + part
            } else {
                let lead = lines.isEmpty ? "" : Self.indent
                lines.append(lead + TerminalText.truncated(part, width: width - lead.count))
            }
        }
        return lines.map { critical ? style.alarm($0) : style.bold($0) }.joined(separator: "\n")
    }

    /// The numbered actions and the open / dismiss / later line.
    func choices(_ presentation: Presentation) -> String {
        var text = ""
        for (index, action) in presentation.actions.enumerated() {
            let number = "\(index + 1)) "
            let title = TerminalText.sanitized(action.title)
            var marks: [String] = []
            if action.isDestructive { marks.append("destructive") }
            if action.requiresUnlock { marks.append("needs unlock") }
            if action.launchesApp { marks.append("opens the app") }
            if action.textInput != nil { marks.append("reply") }
            let lines = TerminalText.wrapped(title, width: width - Self.indent.count - number.count)
            for (offset, line) in lines.enumerated() {
                let lead = offset == 0 ? number : String(repeating: " ", count: number.count)
                var rendered = Self.indent + lead + (action.isDestructive ? style.warning(line) : line)
                if offset == lines.count - 1 && !marks.isEmpty {
                    let note = "(" + marks.joined(separator: ", ") + ")"
                    let used = Self.indent.count + lead.count + TerminalText.columns(line)
                    let under = Self.indent + String(repeating: " ", count: number.count)
                    rendered += used + 2 + note.count <= width ? "  " + style.dim(note) : "\n" + block(note, indent: under, styled: style.dim).dropLast()
                }
                text += rendered + "\n"
            }
        }
        text += Self.indent + "o) open   d) dismiss   Enter) later\n"
        return text
    }

    /// The prompt the user answers a notification at (no line break: the cursor waits after it).
    func choicePrompt(waiting: Int) -> String {
        waiting > 0 ? "Choice (\(waiting) waiting): " : "Choice: "
    }

    /// A notification without a banner, kept in the list: one quiet line, no bell, no prompt.
    func quietLine(_ presentation: Presentation) -> String {
        let title = TerminalText.sanitized(presentation.title)
        let body = TerminalText.sanitized(presentation.body)
        let text = [title, body].filter { !$0.isEmpty }.joined(separator: " — ")
        // The thread's summary before the text, which is what gets cut when the line is too long.
        let group = presentation.group.count > 1 ? " (\(TerminalText.sanitized(presentation.group.summary)))" : ""
        let line = "[\(appLabel(presentation.appIdentifier))] \(clockTime(presentation.date)) delivered quietly\(group): \(text)"
        return style.dim(TerminalText.truncated(line, width: width)) + "\n"
    }

    // MARK: - Answers to a notification

    /// What the user is told when an action asks for text, and the prompt they type it at.
    func replyPrompt(_ action: PresentationAction) -> String {
        let title = TerminalText.sanitized(action.title)
        let button = TerminalText.sanitized(action.textInput?.buttonTitle ?? "")
        let placeholder = TerminalText.sanitized(action.textInput?.placeholder ?? "")
        let hint = "\(title): type your reply, Enter to \(button.isEmpty ? "send" : quoted(button)), an empty line to go back"
        return block(hint, styled: style.dim) + "\(placeholder.isEmpty ? "Reply" : placeholder): "
    }

    func invalidChoice(_ line: String, for presentation: Presentation) -> String {
        let typed = TerminalText.truncated(TerminalText.sanitized(line), width: 20)
        let numbers =
            switch presentation.actions.count {
            case 0: ""
            case 1: "1, "
            case let count: "1-\(count), "
            }
        return block("\(quoted(typed)) is not a choice: type \(numbers)o, d, or press Enter for later.", styled: style.notice)
    }

    /// The user left the notification without answering (Enter): it stays in the list, if it is in one.
    func leftForLater(_ presentation: Presentation) -> String {
        block(presentation.destinations.contains(.list) ? "Left in the list." : "Closed.", styled: style.dim)
    }

    /// What came of the user's answer, from the engine's outcome.
    func outcome(_ outcome: ResponseOutcome, of action: UserAction, on presentation: Presentation) -> String {
        let app = appLabel(presentation.appIdentifier)
        var sentences: [String] = []
        switch action {
        case .open: sentences.append("Opened.")
        case .dismiss: sentences.append("Dismissed.")
        case .action(let identifier): sentences.append("\(quoted(title(of: identifier, in: presentation))) chosen.")
        case .reply(let identifier, _): sentences.append("\(quoted(title(of: identifier, in: presentation))): reply sent.")
        }
        if outcome.response != nil {
            if !outcome.deliveredToApp {
                sentences.append("\(app) is not running to receive it.")
            } else if action == .dismiss {
                sentences.append("\(app) was told.")
            } else {
                sentences.append(outcome.launch == .foreground ? "\(app) comes to the front." : "\(app) handles it in the background.")
            }
        }
        switch outcome.disposition.outcome {
        case .dismiss, .performDefaultAction: sentences.append("The notification was removed.")
        case .standard, .keepOnScreen: break
        }
        return block(sentences.joined(separator: " "), first: "→ ")
    }

    /// Why the engine did not take the answer.
    func refusal(_ error: any Error, of action: UserAction, on presentation: Presentation) -> String {
        let message: String
        switch (error as? ChimeError)?.code {
        case .sessionLocked?:
            if case .action(let identifier) = action {
                message = "\(quoted(title(of: identifier, in: presentation))) needs an unlocked session: unlock it, then choose again."
            } else {
                message = "This needs an unlocked session: unlock it, then choose again."
            }
        case .actionNotAvailable?: message = "That action is not available any more."
        case .notificationNotFound?: message = "This notification is gone."
        default:
            if error is NotConnected {
                message = "No notification engine is connected to take the answer."
            } else {
                message = "The answer could not be delivered (\(error))."
            }
        }
        return block(message, styled: style.notice)
    }

    // MARK: - Notes

    /// A line the user typed, as a terminal would have echoed it.
    func echo(_ line: String) -> String {
        TerminalText.sanitized(line) + "\n"
    }

    func badge(appIdentifier: String, count: Int) -> String {
        "[\(appLabel(appIdentifier))] " + (count == 0 ? "badge cleared" : "badge \(count)") + "\n"
    }

    /// A line the app writes itself: its own text, control characters removed, ending in a line break.
    func appText(_ text: String) -> String {
        let clean = TerminalText.sanitized(text, keepsLineBreaks: true)
        return clean.hasSuffix("\n") ? clean : clean + "\n"
    }

    /// The open prompt's notification was taken off the screen by the app or the system.
    var removedWhileOpen: String { "\n" + block("The notification was removed.", styled: style.dim) }

    /// Input ended while a notification waited for an answer.
    var inputClosedWhileOpen: String { "\n" + block("Input closed.", styled: style.dim) }

    /// A line typed while nothing asked for one.
    var nothingWaiting: String { block("Nothing is waiting for an answer.", styled: style.dim) }

    // MARK: - Authorization

    /// The authorization question and its prompt: "Allow “App” to send notifications? [y/n] ".
    func authorizationQuestion(appIdentifier: String, options: AuthorizationOptions) -> String {
        let app = appLabel(appIdentifier)
        var text = "\n"
        let kinds = Self.describe(options)
        if !kinds.isEmpty {
            text += block("\(app) asks to send notifications: \(kinds).", indent: "")
        }
        return text + authorizationPrompt(appIdentifier: appIdentifier)
    }

    func authorizationPrompt(appIdentifier: String) -> String {
        style.bold("Allow \(quoted(appLabel(appIdentifier))) to send notifications?") + " [y/n] "
    }

    func authorizationAnswer(_ allowed: Bool) -> String {
        block(allowed ? "Allowed." : "Not allowed.", styled: style.dim)
    }

    var invalidAuthorizationAnswer: String { block("Please answer y or n.", styled: style.notice) }

    /// Input closed while the question was open. Nobody can answer any more, so the app is not allowed: a
    /// decision is needed, and this is the one that lets nothing happen the user did not agree to.
    var authorizationInputClosed: String { "\n" + block("Input closed: left undecided.", styled: style.dim) }

    /// A question asked after input closed: shown, and left undecided (see `authorizationInputClosed`);
    /// the app may ask again when someone can answer.
    func authorizationWithoutInput(appIdentifier: String) -> String {
        "\n" + block("\(appLabel(appIdentifier)) asks to send notifications; with no input to answer, it is left undecided.", indent: "")
    }

    /// "alerts, sounds, badges, critical alerts (they sound even when muted)".
    static func describe(_ options: AuthorizationOptions) -> String {
        let names: [(AuthorizationOptions, String)] = [
            (.alert, "alerts"), (.sound, "sounds"), (.badge, "badges"), (.timeSensitive, "time-sensitive alerts"),
            (.criticalAlert, "critical alerts (they sound even when muted)"), (.announcement, "announcements"),
            (.carPlay, "CarPlay"),
        ]
        return names.filter { options.contains($0.0) }.map(\.1).joined(separator: ", ")
    }

    // MARK: - Helpers

    func appLabel(_ appIdentifier: String) -> String {
        TerminalText.sanitized(appNames[appIdentifier] ?? appIdentifier)
    }

    private func title(of identifier: String, in presentation: Presentation) -> String {
        TerminalText.sanitized(presentation.actions.first { $0.identifier == identifier }?.title ?? identifier)
    }

    private func quoted(_ text: String) -> String { "“\(text)”" }

    /// `text` wrapped to the width, every line indented (the first one starting with `first` instead),
    /// each line styled on its own.
    private func block(_ text: String, indent: String = TerminalRenderer.indent, first: String? = nil, styled: (String) -> String = { $0 }) -> String {
        let lead = first.map { indent + $0 } ?? indent
        let hanging = String(repeating: " ", count: TerminalText.columns(lead))
        var result = ""
        for (index, line) in TerminalText.wrapped(text, width: width - hanging.count).enumerated() {
            result += (index == 0 ? lead : hanging) + styled(line) + "\n"
        }
        return result
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// "09:05", in the presenter's time zone.
    func clockTime(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return Self.twoDigits(parts.hour ?? 0) + ":" + Self.twoDigits(parts.minute ?? 0)
    }

    /// The time of day when `due` is the day of delivery, else "2025-11-30 08:00".
    private func dueTime(_ due: Date, deliveredAt date: Date) -> String {
        if calendar.isDate(due, inSameDayAs: date) { return clockTime(due) }
        let parts = calendar.dateComponents([.year, .month, .day], from: due)
        return "\(parts.year ?? 0)-\(Self.twoDigits(parts.month ?? 0))-\(Self.twoDigits(parts.day ?? 0)) \(clockTime(due))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

/// The presenter has no engine to send answers to (`TerminalPresenter.connect(to:)` was not called, or
/// the engine is gone).
struct NotConnected: Error {}
