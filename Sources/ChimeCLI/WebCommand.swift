/// `chime web`: a one-time link into the web notification center chimed serves on loopback, as Jupyter
/// prints one; `--open` opens it in the user's browser.
public struct WebCommand: Equatable {
    public var opens = false
    public var json = false

    public static let name = "web"
    public static let abstract = "Open the web notification center in a browser."

    public static let helpText = """
        OVERVIEW: \(abstract)

        Prints a link to the notification center chimed serves on its loopback address. The link works once,
        within ten minutes: the browser that opens it gets a session, and the page shows what arrived,
        live, with its buttons and reply boxes.

        USAGE: chime web [--open] [--json]

        OPTIONS:
          --open       Also open the link in the desktop's browser (xdg-open).
          --json       Print JSON for scripts: the link and when it expires.
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> WebCommand {
        var reader = ArgumentReader(arguments, command: name)
        var command = WebCommand()
        while let (option, _) = try reader.nextOption() {
            switch option {
            case "--open": command.opens = true
            case "--json": command.json = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        return command
    }
}
