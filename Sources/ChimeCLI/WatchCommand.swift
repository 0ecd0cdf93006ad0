/// `chime watch`: follows what happens to notifications as it happens — each delivery and each of the
/// user's responses, one line each — until interrupted, like `ntfy subscribe`.
public struct WatchCommand: Equatable {
    /// `--app`; `nil` follows every app.
    public var appIdentifier: String?
    /// One JSON object per line (`chime watch --json | while read -r line; do …; done`).
    public var json = false

    public static let name = "watch"
    public static let abstract = "Follow deliveries and responses as they happen."

    public static let helpText = """
        OVERVIEW: \(abstract)

        Prints a line for each notification delivered and each response of the user (a button, a reply,
        opening or dismissing it), as they happen, until interrupted (Ctrl-C). Follows chimed across its
        restarts. With --json, each line is one JSON object:
          {"event":"delivered","app":…,"identifier":…,"date":…,"title":…,"subtitle":…,"body":…,…}
          {"event":"responded","app":…,"identifier":…,"action":…,"text":…}

        USAGE: chime watch [--app <id>] [--json]

        OPTIONS:
          --app <id>   Only this app's (default: every app's).
          --json       Print one JSON object per line, for scripts.
          -h, --help   Show this help.

        EXAMPLE:
          chime watch --json | while read -r line; do echo "$line" | jq -r .title; done

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> WatchCommand {
        var reader = ArgumentReader(arguments, command: name)
        var command = WatchCommand()
        while let (option, inline) = try reader.nextOption() {
            switch option {
            case "--app": command.appIdentifier = try reader.nonEmptyValue(for: option, inline: inline)
            case "--json": command.json = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        return command
    }
}
