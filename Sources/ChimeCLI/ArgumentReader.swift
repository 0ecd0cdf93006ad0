/// Walks a subcommand's arguments: `--option value`, `--option=value` and `--flag`.
struct ArgumentReader {
    private var remaining: [String]
    let command: String

    init(_ arguments: [String], command: String) {
        remaining = arguments
        self.command = command
    }

    /// The next option's name and its inline value (`--count=5`), or `nil` when all are read.
    mutating func nextOption() throws(UsageError) -> (name: String, inlineValue: String?)? {
        guard let argument = remaining.first else { return nil }
        remaining.removeFirst()
        guard argument.hasPrefix("-"), argument.count > 1 else {
            throw UsageError("unexpected argument '\(argument)'", command: command)
        }
        if let equals = argument.firstIndex(of: "=") {
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        return (argument, nil)
    }

    /// The value of `option`: its inline value, else the next argument.
    mutating func value(for option: String, inline: String?) throws(UsageError) -> String {
        if let inline { return inline }
        guard let value = remaining.first, !value.hasPrefix("--") else {
            throw UsageError("missing value for '\(option)'", command: command)
        }
        remaining.removeFirst()
        return value
    }
}
