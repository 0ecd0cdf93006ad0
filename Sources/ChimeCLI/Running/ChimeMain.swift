import ChimeClient
public import ChimeIPC
import ChimeCore
public import Foundation

/// Runs one `chime` invocation: parse, execute, and say what to print and which status to exit with.
///
/// Kept apart from `main.swift` so tests can run the whole command line in process with a fixed clock,
/// zone and daemon.
public enum ChimeMain {
    public struct Result: Equatable {
        public var exitCode: ExitCode
        public var standardOutput = ""
        public var standardError = ""
    }

    /// - Parameter paths: Where chimed's socket and token are (by default from the XDG variables).
    public static func run(_ arguments: [String], now: Date, currentTimeZone: TimeZone, paths: DaemonPaths = DaemonPaths()) async -> Result {
        let command: ChimeCommand
        do {
            command = try ChimeCommand.parse(arguments)
        } catch {
            let usage = error.command.map { "See 'chime \($0) --help'." } ?? "See 'chime --help'."
            return Result(exitCode: .usage, standardError: "chime: error: \(error.message)\n\(usage)\n")
        }
        switch command {
        case .help(let subcommand):
            return Result(exitCode: .success, standardOutput: ChimeCommand.helpText(for: subcommand))
        case .version:
            return Result(exitCode: .success, standardOutput: "chime \(ChimeCommand.versionNumber)\n")
        case .next(let next):
            do {
                return Result(exitCode: .success, standardOutput: try next.run(now: now, currentTimeZone: currentTimeZone))
            } catch {
                return Result(exitCode: .usage, standardError: "chime: error: \(error.message)\nSee 'chime next --help'.\n")
            }
        case .doctor(let doctor):
            let report = await doctor.run(paths: paths)
            return Result(exitCode: report.healthy ? .success : .failure, standardOutput: report.output)
        default:
            return await runWithDaemon(command, now: now, zone: currentTimeZone, paths: paths)
        }
    }

    private static func runWithDaemon(_ command: ChimeCommand, now: Date, zone: TimeZone, paths: DaemonPaths) async -> Result {
        let client: DaemonClient
        do {
            client = try await DaemonClient.connect(paths: paths)
        } catch {
            return Result(
                exitCode: .failure,
                standardError: "chime: error: chimed, the notification center, is not running (\(paths.socketFile.path)). Start it with 'chimed'.\n")
        }
        defer { client.close() }
        do {
            let output = try await CenterRunner(client: client, now: now, zone: zone).run(command)
            return Result(exitCode: .success, standardOutput: output)
        } catch let error as ChimeError {
            return Result(exitCode: .failure, standardError: "chime: error: \(error.message)\(error.field.map { " (\($0))" } ?? "")\n")
        } catch let error as UsageError {
            return Result(exitCode: .usage, standardError: "chime: error: \(error.message)\nSee 'chime \(error.command ?? "") --help'.\n")
        } catch {
            return Result(exitCode: .failure, standardError: "chime: error: \(error)\n")
        }
    }
}
