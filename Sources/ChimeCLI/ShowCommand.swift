/// `chime show <id>`: one notification in full — its text, buttons, trigger, attachments — pending or
/// delivered, found by its identifier or the start of it when that is unique.
public struct ShowCommand: Equatable {
    public var identifier = ""
    /// `--app`; `nil` looks in every app.
    public var appIdentifier: String?
    public var json = false

    public static let name = "show"
    public static let abstract = "Show one notification in full."

    public static let helpText = """
        OVERVIEW: \(abstract)

        Looks among the pending notifications, then the delivered ones, for the identifier, or for the one
        identifier that starts with what is given (chime show 3f2a).

        USAGE: chime show <id> [--app <id>] [--json]

        OPTIONS:
          --app <id>   Only this app's (default: every app's).
          --json       Print JSON for scripts: the notification as chimed keeps it.
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> ShowCommand {
        var reader = ArgumentReader(arguments, command: name)
        var command = ShowCommand()
        var identifiers: [String] = []
        while let next = try reader.nextArgument() {
            guard let (option, inline) = next.option else {
                identifiers.append(next.positional ?? "")
                continue
            }
            switch option {
            case "--app": command.appIdentifier = try reader.nonEmptyValue(for: option, inline: inline)
            case "--json": command.json = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        guard identifiers.count == 1, let identifier = identifiers.first, !identifier.isEmpty else {
            throw UsageError("give one notification identifier", command: name)
        }
        command.identifier = identifier
        return command
    }
}
