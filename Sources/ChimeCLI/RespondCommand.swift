/// `chime respond`: act on a delivered notification as the user would — open it, dismiss it, press a
/// button, or type a reply — for notifications whose server cannot (no buttons, no inline reply) and
/// for scripts.
///
/// ```
/// chime respond --app com.example.meetings --id design-review --action meeting.reasonForDeclineInputAction --text "Dentist"
/// ```
public struct RespondCommand: Equatable {
    public static let name = "respond"
    public static let abstract = "Act on a delivered notification as the user would."

    /// What the user does.
    public enum Choice: Equatable {
        case open
        case dismiss
        case action(String)
        case reply(action: String, text: String)
    }

    public var appIdentifier: String
    public var notificationIdentifier: String
    public var choice: Choice
    public var json = false

    public static let helpText = """
        OVERVIEW: \(abstract)

        The app hears it as if the user had clicked: its delegate receives the response (the app is launched
        when it is not running and has a launch command).

        USAGE: chime respond --app <id> --id <notification> (--open | --dismiss | --action <id> [--text <reply>])

        OPTIONS:
          --app <id>        The app whose notification it is (default: \(AddCommand.defaultApp)).
          --id <id>         The delivered notification's identifier (see chime delivered), or its
                            start when that is unique.
          --open            Open it: the default action.
          --dismiss         Dismiss it.
          --action <id>     Press the button with this action identifier.
          --text <reply>    The reply for a text-input action.
          --json            Print JSON for scripts.
          -h, --help        Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> RespondCommand {
        var reader = ArgumentReader(arguments, command: name)
        var app = AddCommand.defaultApp
        var identifier: String?
        var open = false
        var dismiss = false
        var action: String?
        var text: String?
        var json = false
        while let (option, inline) = try reader.nextOption() {
            switch option {
            case "--app": app = try reader.value(for: option, inline: inline)
            case "--id": identifier = try reader.value(for: option, inline: inline)
            case "--open": open = true
            case "--dismiss": dismiss = true
            case "--action": action = try reader.value(for: option, inline: inline)
            case "--text": text = try reader.value(for: option, inline: inline)
            case "--json": json = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        guard let identifier, !identifier.isEmpty else { throw UsageError("give the notification: --id <identifier>", command: name) }
        guard !app.isEmpty else { throw UsageError("--app must not be empty", command: name) }
        let choice: Choice
        switch (open, dismiss, action, text) {
        case (true, false, nil, nil): choice = .open
        case (false, true, nil, nil): choice = .dismiss
        case (false, false, let action?, nil) where !action.isEmpty: choice = .action(action)
        case (false, false, let action?, let text?) where !action.isEmpty: choice = .reply(action: action, text: text)
        case (_, _, nil, _?): throw UsageError("--text goes with the --action that takes it", command: name)
        default: throw UsageError("give one of --open, --dismiss or --action", command: name)
        }
        return RespondCommand(appIdentifier: app, notificationIdentifier: identifier, choice: choice, json: json)
    }
}
