import ChimeTestSupport
import ChimeTesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One example app running as a process on a pseudo-terminal, with its own data folder: the test reads
/// the screen and types, as the user would.
final class ExampleRun: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The build's products directory: the test runner sits beside the executables.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    let screen: TerminalScreen
    private let pty: PseudoTerminal
    private let name: String
    private let process: Subprocess
    /// Everything read off the screen so far.
    private let seen = Mutex("")

    /// Starts `name` with `arguments` in `data` (its `XDG_DATA_HOME`), plain text (`NO_COLOR`), in Seoul,
    /// with `environment` added (a private system bus).
    init(_ name: String, _ arguments: [String] = [], data: DataFolder, environment: [String: String] = [:]) throws {
        pty = try PseudoTerminal()
        screen = TerminalScreen(reading: pty.controller.fileDescriptor, joinsCarriageReturns: true)
        self.name = name
        let terminal = pty.terminal.fileDescriptor
        process = try Subprocess(
            Self.productsDirectory.appendingPathComponent(name).path, arguments, environment: data.environment.merging(environment) { $1 },
            standardInput: terminal,
            standardOutput: terminal, standardError: terminal)
    }

    deinit {
        process.send(SIGTERM)
    }

    /// Waits until the screen shows `text`, and returns what appeared since the last look, through it.
    @discardableResult
    func expect(_ text: String, within seconds: Int = 20) async throws -> String {
        let shown = try await screen.next(through: text, within: seconds)
        seen.withLock { $0 += shown }
        return shown
    }

    /// Everything the screen showed up to the last `expect`.
    var transcript: String { seen.withLock { $0 } }

    /// The user types `line` and presses Enter.
    func type(_ line: String) {
        pty.controller.write(Data((line + "\n").utf8))
    }

    /// The user presses Ctrl-D on an empty line: the input ends.
    func endInput() {
        pty.controller.write(Data("\u{4}".utf8))
    }

    /// Waits for the process to exit and returns its status.
    func exit(within seconds: Int = 20) async throws -> Int32 {
        guard let termination = await process.exit(within: Double(seconds)) else {
            process.send(SIGTERM)
            throw Failure(description: "\(name) did not exit; the screen showed \(transcript.debugDescription)")
        }
        return termination.status
    }

    /// Runs `name` without a terminal (input empty, output captured) to the end.
    static func capture(_ name: String, _ arguments: [String], data: DataFolder) async throws -> (status: Int32, output: String, error: String) {
        let outcome = try await Subprocess.run(productsDirectory.appendingPathComponent(name).path, arguments, environment: data.environment)
        return (outcome.status, outcome.standardOutput, outcome.standardError)
    }
}

/// A temporary `XDG_DATA_HOME` for the runs of one test, removed afterwards.
final class DataFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-examples-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = url.path
        environment["NO_COLOR"] = "1"
        environment["TZ"] = "Asia/Seoul"
        environment.removeValue(forKey: "CHIME_APP_ID")
        // In this terminal, even when a chimed runs on the machine (AlarmWithChimedTests covers that case).
        environment["CHIME_MODE"] = "embedded"
        // Never the machine's system bus (GeoClue); a test that needs one passes its own.
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "disabled:"
        return environment
    }

    /// A file of an example's own (`ScheduledAlarm.json` of `com.example.alarm`).
    func file(_ name: String, app: String) -> URL {
        url.appendingPathComponent(app).appendingPathComponent(name)
    }
}
