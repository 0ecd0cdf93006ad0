/// `chime focus on|off|status`: Do Not Disturb for Chime's notifications. While it is on, notifications
/// go quietly to the list; critical alerts, and time-sensitive ones unless `--no-time-sensitive`, still
/// alert.
public enum FocusCommand: Equatable {
    case on(allowsTimeSensitive: Bool)
    case off
    case status(json: Bool)

    public static let name = "focus"
    public static let abstract = "Turn Do Not Disturb on or off, or show it."

    public static let helpText = """
        OVERVIEW: \(abstract)

        While a focus is on, notifications are delivered quietly to the list. Critical alerts always break
        through; time-sensitive ones do too unless the focus holds them back.

        USAGE: chime focus on [--no-time-sensitive] | off | status [--json]

        OPTIONS:
          --no-time-sensitive  Hold time-sensitive notifications back too.
          --json               Print JSON for scripts (status).
          -h, --help           Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> FocusCommand {
        guard let verb = arguments.first else { throw UsageError("say on, off or status", command: name) }
        let options = Set(arguments.dropFirst())
        switch verb {
        case "on":
            guard options.isSubset(of: ["--no-time-sensitive"]) else { throw unexpected(options.subtracting(["--no-time-sensitive"])) }
            return .on(allowsTimeSensitive: !options.contains("--no-time-sensitive"))
        case "off":
            guard options.isEmpty else { throw unexpected(options) }
            return .off
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
