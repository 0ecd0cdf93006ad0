import ChimeClient
import ChimeCore
import ChimeIPC
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

/// A private home for `chimed`: its own XDG_DATA_HOME and XDG_RUNTIME_DIR under a temporary folder,
/// removed when the home goes away (the approach of Tests/ChimeDaemonTests/Support/DaemonHarness.swift).
final class DaemonHome: Sendable {
    let root: URL
    let paths: DaemonPaths

    init() throws {
        root = URL(fileURLWithPath: "/tmp/chime-client-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
        paths = DaemonPaths(environment: environment(root))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// A data directory for an embedded engine, beside the daemon's.
    var embeddedDataDirectory: URL { root.appendingPathComponent("embedded") }

    /// Starts `chimed --presenter log --authorization allow --verbose` and waits until it listens.
    func start() async throws -> RunningDaemon {
        let process = try ChildProcess(
            Self.executable, ["--presenter", "log", "--authorization", "allow", "--verbose"], environment: environment(root), name: "chimed")
        _ = try await process.errors.take("listening", where: { $0.contains("chimed: info: chimed") && $0.contains("listening on") })
        return RunningDaemon(process: process, home: self)
    }

    /// The built `chimed`, next to the test bundle.
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("chimed").path
    }

    /// A connection as the CLI or the desktop makes it (no app).
    func connectAsUser() async throws -> DaemonClient {
        try await DaemonClient.connect(paths: paths)
    }
}

private func environment(_ root: URL) -> [String: String] {
    ["XDG_DATA_HOME": root.appendingPathComponent("data").path, "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path]
}

struct RunningDaemon {
    let process: ChildProcess
    let home: DaemonHome

    var log: LineLog { process.errors }

    /// SIGTERM, then the exit status.
    func terminate() async -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        return await process.exitStatus()
    }

    /// Waits for the log line saying the notification was presented.
    func presented(_ app: String, _ identifier: String, within seconds: Double = 10) async throws {
        _ = try await log.take("\(app)/\(identifier) presented", within: seconds) { $0.hasSuffix("chimed: info: presented \(app)/\(identifier)") }
    }
}

/// Polls `condition` until it holds or `seconds` pass: for state only reported when asked.
func eventually(_ what: String, within seconds: Double = 10, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(25))
    }
    throw Timeout(description: "timed out waiting for \(what)")
}

/// Values handed over by callbacks, taken in order by the test, each wait with a deadline.
final class Inbox<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let taken = Mutex(0)

    func put(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// How many values arrived in all, taken or not.
    var count: Int { values.withLock { $0.count } }

    /// The next value not yet taken, waiting for it at most `seconds`.
    func next(_ what: String, within seconds: Double = 10) async throws -> Value {
        var value: Value?
        try await eventually(what, within: seconds) {
            value = values.withLock { values in
                taken.withLock { taken in
                    guard taken < values.count else { return nil }
                    taken += 1
                    return values[taken - 1]
                }
            }
            return value != nil
        }
        return value!
    }
}
