/// `chime remove`: cancel pending notifications, or take delivered ones out of the list.
public struct RemoveCommand: Equatable {
    public static let name = "remove"
    public static let abstract = "Cancel pending notifications or remove delivered ones."

    public var appIdentifier = AddCommand.defaultApp
    /// The identifiers; `nil` with `--all`.
    public var identifiers: [String]?
    /// `--delivered`: from the delivered list instead of the pending requests.
    public var delivered = false
    public var json = false

    public static let helpText = """
        OVERVIEW: \(abstract)

        USAGE: chime remove [--app <id>] [--delivered] [--json] (<identifier>... | --all)

        An identifier may be given by its start when that is unique (chime remove 3f2a).

        OPTIONS:
          --app <id>     The app (default: \(AddCommand.defaultApp)).
          --delivered    Remove delivered notifications (and take them off the screen) instead of pending ones.
          --all          Every one of the app's.
          --json         Print JSON for scripts: the app, the list and how many were removed.
          -h, --help     Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> RemoveCommand {
        var command = RemoveCommand()
        var identifiers: [String] = []
        var all = false
        var reader = ArgumentReader(arguments, command: name)
        while let next = try reader.nextArgument() {
            guard let (option, inline) = next.option else {
                identifiers.append(next.positional ?? "")
                continue
            }
            switch option {
            case "--app": command.appIdentifier = try reader.nonEmptyValue(for: option, inline: inline)
            case "--delivered": command.delivered = true
            case "--all": all = true
            case "--json": command.json = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        switch (all, identifiers.isEmpty) {
        case (true, true): command.identifiers = nil
        case (false, false): command.identifiers = identifiers
        case (true, false): throw UsageError("give identifiers or --all, not both", command: name)
        case (false, true): throw UsageError("give the identifiers to remove, or --all", command: name)
        }
        return command
    }
}
