import ChimeAPI

/// The `chime` command line, parsed: what to run, with typed options.
///
/// Parsing is a pure function from arguments to a value, so tests assert on the value and on the help text
/// without running anything.
public enum ChimeCommand: Equatable {
    /// Print help: for the top level (`nil`) or for one subcommand.
    case help(subcommand: String?)
    case version
    case next(NextCommand)
    case add(AddCommand)
    case list(ListCommand)
    case remove(RemoveCommand)
    case respond(RespondCommand)
    case categories(CategoriesCommand)
    case apps(AppsCommand)
    case focus(FocusCommand)
    case watch(WatchCommand)
    case show(ShowCommand)
    case responses(ResponsesCommand)
    case web(WebCommand)
    case completions(CompletionsCommand)
    case doctor(DoctorCommand)
    case server(ServerCommand)

    public static let abstract = "Chime: Apple's UserNotifications, on Linux."

    /// One version for chime, chimed and the API they speak.
    public static let versionNumber = WireFormat.version

    public static let helpText = """
        OVERVIEW: \(abstract)

        Every subcommand but next and server talks to chimed, the notification center daemon (start it with
        chimed); server talks to a server-mode node with a tenant's API key.

        USAGE: chime <subcommand> [options]

        SUBCOMMANDS:
          add         Schedule a notification.
          pending     List notifications waiting for their trigger.
          delivered   List notifications in the list.
          show        Show one notification in full.
          remove      Cancel pending notifications or remove delivered ones.
          respond     Act on a delivered notification as the user would.
          responses   List the responses waiting for an app, or drop one.
          categories  Register an app's categories from JSON, or list them.
          apps        List apps, allow or deny them, change their settings.
          focus       Turn Do Not Disturb on or off, or show it.
          watch       Follow deliveries and responses as they happen.
          web         Open the web notification center in a browser.
          completions Print a shell completion script (bash, zsh or fish).
          doctor      Check the daemon, the desktop's notification server and the store.
          next        List the upcoming fire dates of a trigger.
          server      Manage a server-mode node (chimed --server): recipients, their notifications, API keys.

        OPTIONS:
          -h, --help  Show help for chime or a subcommand (chime <subcommand> --help).
          --version   Show the version.

        """

    static let subcommands = [
        AddCommand.name, ListCommand.Kind.pending.rawValue, ListCommand.Kind.delivered.rawValue, ShowCommand.name, RemoveCommand.name,
        RespondCommand.name, ResponsesCommand.name, CategoriesCommand.name, AppsCommand.name, FocusCommand.name, WatchCommand.name, WebCommand.name, DoctorCommand.name, NextCommand.name,
        ServerCommand.name, CompletionsCommand.name,
    ]

    /// Parses the arguments that follow the executable's name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ChimeCommand {
        guard let first = arguments.first else { return .help(subcommand: nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            if let topic = rest.first, subcommands.contains(topic) { return .help(subcommand: topic) }
            return .help(subcommand: nil)
        case "--version":
            return .version
        default:
            guard subcommands.contains(first) else { throw UsageError("unknown subcommand '\(first)'") }
            // `--help` anywhere asks for help, except as a value (a title "--help" is unlikely enough).
            if rest.contains("-h") || rest.contains("--help") { return .help(subcommand: first) }
            if rest.contains("--version") { return .version }
            return try parse(subcommand: first, rest)
        }
    }

    private static func parse(subcommand: String, _ rest: [String]) throws(UsageError) -> ChimeCommand {
        switch subcommand {
        case NextCommand.name: .next(try NextCommand.parse(rest))
        case AddCommand.name: .add(try AddCommand.parse(rest))
        case ListCommand.Kind.pending.rawValue: .list(try ListCommand.parse(.pending, rest))
        case ListCommand.Kind.delivered.rawValue: .list(try ListCommand.parse(.delivered, rest))
        case RemoveCommand.name: .remove(try RemoveCommand.parse(rest))
        case RespondCommand.name: .respond(try RespondCommand.parse(rest))
        case CategoriesCommand.name: .categories(try CategoriesCommand.parse(rest))
        case AppsCommand.name: .apps(try AppsCommand.parse(rest))
        case FocusCommand.name: .focus(try FocusCommand.parse(rest))
        case WatchCommand.name: .watch(try WatchCommand.parse(rest))
        case ShowCommand.name: .show(try ShowCommand.parse(rest))
        case ResponsesCommand.name: .responses(try ResponsesCommand.parse(rest))
        case WebCommand.name: .web(try WebCommand.parse(rest))
        case CompletionsCommand.name: .completions(try CompletionsCommand.parse(rest))
        case ServerCommand.name: .server(try ServerCommand.parse(rest))
        default: .doctor(try DoctorCommand.parse(rest))
        }
    }

    public static func helpText(for subcommand: String?) -> String {
        switch subcommand {
        case NextCommand.name: NextCommand.helpText
        case AddCommand.name: AddCommand.helpText
        case ListCommand.Kind.pending.rawValue: ListCommand.helpText(.pending)
        case ListCommand.Kind.delivered.rawValue: ListCommand.helpText(.delivered)
        case RemoveCommand.name: RemoveCommand.helpText
        case RespondCommand.name: RespondCommand.helpText
        case CategoriesCommand.name: CategoriesCommand.helpText
        case AppsCommand.name: AppsCommand.helpText
        case FocusCommand.name: FocusCommand.helpText
        case WatchCommand.name: WatchCommand.helpText
        case ShowCommand.name: ShowCommand.helpText
        case ResponsesCommand.name: ResponsesCommand.helpText
        case WebCommand.name: WebCommand.helpText
        case CompletionsCommand.name: CompletionsCommand.helpText
        case DoctorCommand.name: DoctorCommand.helpText
        case ServerCommand.name: ServerCommand.helpText
        default: helpText
        }
    }
}
