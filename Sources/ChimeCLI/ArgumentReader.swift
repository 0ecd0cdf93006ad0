/// Walks a subcommand's arguments: `--option value`, `--option=value`, `--flag`, and the short forms a
/// command has (`-a value` for `--app value`).
struct ArgumentReader {
    private var remaining: [String]
    private var afterSeparator = false
    let command: String
    /// Short options and the long ones they stand for.
    let shortOptions: [String: String]

    init(_ arguments: [String], command: String, shortOptions: [String: String] = [:]) {
        remaining = arguments
        self.command = command
        self.shortOptions = shortOptions
    }

    /// The next option's name and its inline value (`--count=5`), or `nil` when all are read.
    mutating func nextOption() throws(UsageError) -> (name: String, inlineValue: String?)? {
        guard let next = try nextArgument() else { return nil }
        if let positional = next.positional { throw UsageError("unexpected argument '\(positional)'", command: command) }
        return next.option
    }

    /// The next argument: an option (with its inline value), or a positional argument. After `--`,
    /// everything is positional (`chime add -- "-5 degrees"`).
    mutating func nextArgument() throws(UsageError) -> (option: (name: String, inlineValue: String?)?, positional: String?)? {
        guard let argument = remaining.first else { return nil }
        remaining.removeFirst()
        if afterSeparator || !argument.hasPrefix("-") || argument == "-" { return (nil, argument) }
        if argument == "--" {
            afterSeparator = true
            return try nextArgument()
        }
        if let long = shortOptions[argument] { return ((long, nil), nil) }
        if let equals = argument.firstIndex(of: "=") {
            return ((String(argument[..<equals]), String(argument[argument.index(after: equals)...])), nil)
        }
        return ((argument, nil), nil)
    }

    /// The value of `option`, which must not be empty (an app, an identifier, a file).
    mutating func nonEmptyValue(for option: String, inline: String?) throws(UsageError) -> String {
        let value = try value(for: option, inline: inline)
        guard !value.isEmpty else { throw UsageError("\(option) must not be empty", command: command) }
        return value
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
