import ChimeClient
public import ChimeAPI
import ChimeCore
public import Foundation
import Synchronization

/// Runs one `chime` invocation: parse, execute, and say what to print and which status to exit with.
///
/// Kept apart from `main.swift` so tests can run the whole command line in process with a fixed clock,
/// zone and daemon.
public enum ChimeMain {
    public struct Result: Equatable, Sendable {
        public var exitCode: ExitCode
        public var standardOutput = ""
        public var standardError = ""
    }

    /// - Parameters:
    ///   - paths: Where chimed's socket and token are (by default from the XDG variables).
    ///   - write: Where long output (lists) goes as it is produced; without it, it is collected into
    ///     `standardOutput`.
    ///   - note: Where the command says at once what it waits for (standard error by default).
    ///   - style: What standard output takes: colour, and the width tables are cut to.
    ///   - languages: The user's languages, most preferred first (`UserLanguages.preferred`), for the
    ///     messages; English without one of Chime's tables. Help texts are English.
    ///   - environment: Where `chime server` finds the node and the API key when no option names them.
    public static func run(
        _ arguments: [String], now: Date, currentTimeZone: TimeZone, paths: DaemonPaths = DaemonPaths(), write: (@Sendable (String) -> Void)? = nil,
        note: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) },
        style: TerminalStyle = .plain, languages: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Result {
        await CLIText.$current.withValue(CLIText.catalog(languages: languages)) {
            await run(arguments, now: now, zone: currentTimeZone, paths: paths, write: write, note: note, style: style, environment: environment)
        }
    }

    private static func run(
        _ arguments: [String], now: Date, zone currentTimeZone: TimeZone, paths: DaemonPaths, write: (@Sendable (String) -> Void)?,
        note: @escaping @Sendable (String) -> Void, style: TerminalStyle, environment: [String: String]
    ) async -> Result {
        let command: ChimeCommand
        do {
            command = try ChimeCommand.parse(arguments)
        } catch {
            return Result(exitCode: .usage, standardError: usageError(error.messageWithSuggestion, command: error.command))
        }
        switch command {
        case .help(let subcommand):
            return Result(exitCode: .success, standardOutput: ChimeCommand.helpText(for: subcommand))
        case .version:
            return Result(exitCode: .success, standardOutput: "chime \(ChimeCommand.versionNumber)\n")
        case .completions(let shell):
            return Result(exitCode: .success, standardOutput: shell.script)
        case .next(let next):
            do {
                return Result(exitCode: .success, standardOutput: try next.run(now: now, currentTimeZone: currentTimeZone))
            } catch {
                return Result(exitCode: .usage, standardError: usageError(error.message, command: NextCommand.name))
            }
        case .doctor(let doctor):
            var report = await doctor.run(paths: paths)
            report.colour = style.colour
            return Result(exitCode: report.healthy ? .success : .failure, standardOutput: report.output)
        case .server(let server):
            let collected = Mutex("")
            let result = await runWithServer(
                server, now: now, zone: currentTimeZone, environment: environment, write: write ?? { text in collected.withLock { $0 += text } }, style: style)
            return Result(exitCode: result.exitCode, standardOutput: collected.withLock { $0 } + result.standardOutput, standardError: result.standardError)
        default:
            let collected = Mutex("")
            let result = await runWithDaemon(
                command, now: now, zone: currentTimeZone, paths: paths, write: write ?? { text in collected.withLock { $0 += text } }, note: note,
                style: style)
            return Result(exitCode: result.exitCode, standardOutput: collected.withLock { $0 } + result.standardOutput, standardError: result.standardError)
        }
    }

    private static func runWithDaemon(
        _ command: ChimeCommand, now: Date, zone: TimeZone, paths: DaemonPaths, write: @escaping @Sendable (String) -> Void,
        note: @escaping @Sendable (String) -> Void, style: TerminalStyle
    ) async -> Result {
        let client: DaemonClient
        do {
            client = try await DaemonClient.connect(paths: paths)
        } catch let error as APIError where error.apiCode == .notConnected {
            return Result(exitCode: .failure, standardError: localized("error", localized("error.notRunning", paths.socketFile.path)) + "\n")
        } catch {
            return Result(exitCode: .failure, standardError: localized("error", Output.shown(message(for: error))) + "\n")
        }
        defer { client.close() }
        do {
            let output = try await CenterRunner(client: client, paths: paths, now: now, zone: zone, style: style, write: write, note: note).run(command)
            return Result(exitCode: .success, standardOutput: output)
        } catch let outcome as CommandOutcome {
            return Result(exitCode: outcome.exitCode, standardOutput: outcome.output)
        } catch let error as UsageError {
            return Result(exitCode: .usage, standardError: usageError(error.messageWithSuggestion, command: error.command))
        } catch {
            // Messages can quote what an app sent (an identifier, a name).
            return Result(exitCode: .failure, standardError: localized("error", Output.shown(message(for: error))) + "\n")
        }
    }

    private static func runWithServer(
        _ command: ServerCommand, now: Date, zone: TimeZone, environment: [String: String], write: @escaping @Sendable (String) -> Void,
        style: TerminalStyle
    ) async -> Result {
        do {
            let (url, key) = try ServerCredentials.resolve(command, environment: environment)
            let runner = ServerRunner(client: ServerClient(url: url, key: key), json: command.json, now: now, zone: zone, style: style, write: write)
            return Result(exitCode: .success, standardOutput: try await runner.run(command.action))
        } catch let error as UsageError {
            return Result(exitCode: .usage, standardError: usageError(error.messageWithSuggestion, command: error.command))
        } catch let error as APIError where error.apiCode == .unauthenticated {
            return Result(exitCode: .failure, standardError: localized("error", localized("server.unauthenticated")) + "\n")
        } catch let error as APIError where error.apiCode == .notConnected {
            return Result(exitCode: .failure, standardError: localized("error", localized("server.notConnected", Output.shown(error.message))) + "\n")
        } catch {
            return Result(exitCode: .failure, standardError: localized("error", Output.shown(message(for: error))) + "\n")
        }
    }

    /// A usage error and the help to read: that of `command`, or `chime`'s own.
    private static func usageError(_ message: String, command: String?) -> String {
        let help = ["chime", command].compactMap(\.self).joined(separator: " ")
        return localized("error", message) + "\n" + localized("error.seeHelp", help) + "\n"
    }

    /// Writes to standard output at once (a list prints as its pages arrive). Defined here, not in
    /// `main.swift`, whose closures would be bound to the main actor.
    public static let writeToStandardOutput: @Sendable (String) -> Void = { text in
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// What a person reads for an error from chimed or on the way to it.
    static func message(for error: any Error) -> String {
        if let error = error as? ChimeError { return error.message + (error.field.flatMap(option(for:)).map { " (\($0))" } ?? "") }
        guard let error = error as? APIError else { return "\(error)" }
        switch error.apiCode {
        case .payloadTooLarge?:
            let limit = error.limit.map { " (at most \(Output.bytes($0)))" } ?? ""
            return "this is more than chimed takes in one request\(limit); split it into smaller pieces"
        case .unauthenticated?:
            return "chimed refused the token in the runtime folder; it may have restarted just now (try again) or belong to another setup"
        case .untrustedRuntimeDirectory?:
            return error.message + "; remove it or set XDG_RUNTIME_DIR to a folder of your own"
        case .notConnected?:
            return "lost the connection to chimed: \(error.message)"
        default:
            return error.message + (error.field.flatMap(option(for:)).map { " (\($0))" } ?? "")
        }
    }

    /// The option a person typed for a field an error names; `nil` for fields with no option of their own,
    /// which are not worth naming to them.
    static func option(for field: String) -> String? {
        let options = [
            "title": "--title", "subtitle": "--subtitle", "body": "--body", "identifier": "--id", "badge": "--badge", "sound": "--sound",
            "threadIdentifier": "--thread", "categoryIdentifier": "--category", "interruptionLevel": "--level", "attach": "--attach",
            "userText": "--text", "action": "--action", "app": "--app", "timeInterval": "--in", "trigger": "the trigger",
        ]
        return options[field]
    }
}
