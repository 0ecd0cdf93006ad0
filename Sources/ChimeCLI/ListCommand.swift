/// `chime pending` and `chime delivered`: what is scheduled, and what is in the notification list.
public struct ListCommand: Equatable {
    public enum Kind: String, Equatable, Sendable {
        case pending
        case delivered
    }

    public var kind: Kind
    /// `--app`; `nil` lists every app's.
    public var appIdentifier: String?
    public var json = false

    public static func helpText(_ kind: Kind) -> String {
        let what = kind == .pending ? "notifications waiting for their trigger, soonest first" : "notifications in the list, newest first"
        return """
            OVERVIEW: List \(what).

            USAGE: chime \(kind.rawValue) [--app <id>] [--json]

            OPTIONS:
              --app <id>   Only this app's (default: every app's).
              --json       Print JSON for scripts.
              -h, --help   Show this help.

            """
    }

    static func parse(_ kind: Kind, _ arguments: [String]) throws(UsageError) -> ListCommand {
        var reader = ArgumentReader(arguments, command: kind.rawValue)
        var command = ListCommand(kind: kind)
        while let (option, inline) = try reader.nextOption() {
            switch option {
            case "--app": command.appIdentifier = try reader.nonEmptyValue(for: option, inline: inline)
            case "--json": command.json = true
            default: throw UsageError("unknown option '\(option)'", command: kind.rawValue)
            }
        }
        return command
    }
}
