/// The `chime` command line, parsed: what to run, with typed options.
///
/// Parsing is a pure function from arguments to a value, so tests assert on the value and on the help text
/// without running anything.
public enum ChimeCommand: Equatable {
    /// Print help: for the top level (`nil`) or for one subcommand.
    case help(subcommand: String?)
    case version
    case next(NextCommand)

    public static let abstract = "Chime: Apple's UserNotifications, on Linux."

    public static let versionNumber = "0.1.0"

    public static let helpText = """
        OVERVIEW: \(abstract)

        USAGE: chime <subcommand> [options]

        SUBCOMMANDS:
          next        List the upcoming fire dates of a trigger.

        OPTIONS:
          -h, --help  Show help for chime or a subcommand (chime <subcommand> --help).
          --version   Show the version.

        """

    /// Parses the arguments that follow the executable's name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ChimeCommand {
        guard let first = arguments.first else { return .help(subcommand: nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            if let topic = rest.first, topic == NextCommand.name { return .help(subcommand: topic) }
            return .help(subcommand: nil)
        case "--version":
            return .version
        case NextCommand.name:
            if rest.contains("-h") || rest.contains("--help") { return .help(subcommand: NextCommand.name) }
            return .next(try NextCommand.parse(rest))
        default:
            throw UsageError("unknown subcommand '\(first)'")
        }
    }

    public static func helpText(for subcommand: String?) -> String {
        subcommand == NextCommand.name ? NextCommand.helpText : helpText
    }
}
