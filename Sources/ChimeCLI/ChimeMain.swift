public import Foundation

/// Runs one `chime` invocation: parse, execute, and say what to print and which status to exit with.
///
/// Kept apart from `main.swift` so tests can run the whole command line in process with a fixed clock
/// and zone.
public enum ChimeMain {
    public struct Result: Equatable {
        public var exitCode: ExitCode
        public var standardOutput = ""
        public var standardError = ""
    }

    public static func run(_ arguments: [String], now: Date, currentTimeZone: TimeZone) -> Result {
        do {
            switch try ChimeCommand.parse(arguments) {
            case .help(let subcommand):
                return Result(exitCode: .success, standardOutput: ChimeCommand.helpText(for: subcommand))
            case .version:
                return Result(exitCode: .success, standardOutput: "chime \(ChimeCommand.versionNumber)\n")
            case .next(let command):
                return Result(exitCode: .success, standardOutput: try command.run(now: now, currentTimeZone: currentTimeZone))
            }
        } catch {
            let usage = error.command.map { "See 'chime \($0) --help'." } ?? "See 'chime --help'."
            return Result(exitCode: .usage, standardError: "chime: error: \(error.message)\n\(usage)\n")
        }
    }
}
