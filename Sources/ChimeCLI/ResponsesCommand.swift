/// `chime responses`: the user's responses waiting for an app that was not running to receive them (or
/// did not acknowledge them), and dropping one the app should never get.
public enum ResponsesCommand: Equatable {
    case list(appIdentifier: String, json: Bool)
    case drop(appIdentifier: String, delivery: String)

    public static let name = "responses"
    public static let abstract = "List the responses waiting for an app, or drop one."

    public static let helpText = """
        OVERVIEW: \(abstract)

        A response to an app that is not running waits until the app connects (and launches it when it
        registered a launch command). Dropping one means the app never gets it.

        USAGE: chime responses [list] [--app <id>] [--json]
               chime responses drop <delivery> [--app <id>]

        <delivery> is the DELIVERY column of the list, or its start when that is unique.

        OPTIONS:
          --app <id>   The app (default: \(AddCommand.defaultApp)).
          --json       Print JSON for scripts (list).
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> ResponsesCommand {
        var reader = ArgumentReader(arguments, command: name)
        var app = AddCommand.defaultApp
        var json = false
        var words: [String] = []
        while let next = try reader.nextArgument() {
            guard let (option, inline) = next.option else {
                words.append(next.positional ?? "")
                continue
            }
            switch option {
            case "--app": app = try reader.nonEmptyValue(for: option, inline: inline)
            case "--json": json = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        switch words.first {
        case nil, "list":
            guard words.count <= 1 else { throw UsageError("unexpected argument '\(words[1])'", command: name) }
            return .list(appIdentifier: app, json: json)
        case "drop":
            guard words.count == 2, !json else { throw UsageError("drop takes one delivery identifier", command: name) }
            return .drop(appIdentifier: app, delivery: words[1])
        case let other?:
            throw UsageError("unknown responses command '\(other)': list or drop", command: name)
        }
    }
}
