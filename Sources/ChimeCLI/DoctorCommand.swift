/// `chime doctor`: checks what notifications need — chimed, its store, the D-Bus session and the
/// desktop's notification server with its capabilities — and says what to do about what is missing.
public struct DoctorCommand: Equatable {
    public static let name = "doctor"
    public static let abstract = "Check the daemon, the desktop's notification server and the store."

    public var json = false

    public static let helpText = """
        OVERVIEW: \(abstract)

        Exits 0 when notifications can be delivered (chimed runs), 1 otherwise.

        USAGE: chime doctor [--json]

        OPTIONS:
          --json       Print JSON for scripts.
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> DoctorCommand {
        var reader = ArgumentReader(arguments, command: name)
        var command = DoctorCommand()
        while let (option, _) = try reader.nextOption() {
            guard option == "--json" else { throw UsageError("unknown option '\(option)'", command: name) }
            command.json = true
        }
        return command
    }
}
