/// `chime focus on|off|status`: Do Not Disturb for Chime's notifications. While it is on, notifications
/// go quietly to the list; critical and time-sensitive ones still alert.
public enum FocusCommand: Equatable {
    case on
    case off
    case status(json: Bool)

    public static let name = "focus"
    public static let abstract = "Turn Do Not Disturb on or off, or show it."

    public static let helpText = """
        OVERVIEW: \(abstract)

        While a focus is on, notifications are delivered quietly to the list; critical and time-sensitive
        ones still alert. It stays on until turned off, across restarts of chimed. The desktop's own Do Not
        Disturb, where the notification server has one, counts too.

        USAGE: chime focus on | off | status [--json]

        OPTIONS:
          --json       Print JSON for scripts (status).
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> FocusCommand {
        guard let verb = arguments.first else { throw UsageError("say on, off or status", command: name) }
        let options = Set(arguments.dropFirst())
        switch verb {
        case "on", "off":
            guard options.isEmpty else { throw unexpected(options) }
            return verb == "on" ? .on : .off
        case "status":
            guard options.isSubset(of: ["--json"]) else { throw unexpected(options.subtracting(["--json"])) }
            return .status(json: options.contains("--json"))
        default:
            throw UsageError("unknown focus command '\(verb)': on, off or status", command: name)
        }
    }

    private static func unexpected(_ options: Set<String>) -> UsageError {
        UsageError("unexpected '\(options.sorted().joined(separator: " "))'", command: name)
    }
}
