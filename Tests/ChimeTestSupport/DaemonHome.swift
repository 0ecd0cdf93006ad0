public import ChimeClient
public import ChimeAPI
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private home for `chimed`: its own XDG_DATA_HOME and XDG_RUNTIME_DIR under a temporary folder,
/// removed when the home goes away. Daemons started in it share the store, the registry and the queue,
/// as a restart would.
public final class DaemonHome: Sendable {
    public let root: URL
    public let paths: DaemonPaths

    public init() throws {
        root = URL(fileURLWithPath: "/tmp/chimed-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
        paths = DaemonPaths(environment: Self.environment(root))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The XDG variables that point `chimed`, `chime` and apps at this home.
    public var environment: [String: String] { Self.environment(root) }

    /// A data directory for an embedded engine, beside the daemon's.
    public var embeddedDataDirectory: URL { root.appendingPathComponent("embedded") }

    private static func environment(_ root: URL) -> [String: String] {
        ["XDG_DATA_HOME": root.appendingPathComponent("data").path, "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path]
    }

    /// Starts `chimed --presenter log --authorization allow --verbose` and waits until it listens; with a
    /// session `bus`, starts `chimed --verbose` (the presenter it chooses) on that bus; a system `bus` is
    /// where it finds GeoClue.
    ///
    /// - Parameter fileLimit: Starts it as `ulimit -n fileLimit` would (soft and hard limit on open files).
    public func start(
        _ extra: [String] = [], bus: PrivateBus? = nil, fileLimit: Int? = nil, environment variables: [String: String] = [:]
    ) async throws -> RunningDaemon {
        let arguments = (bus?.kind != .session ? ["--presenter", "log", "--authorization", "allow", "--verbose"] : ["--verbose"]) + extra
        let environment = environment.merging(bus?.environment ?? [:]) { $1 }.merging(variables) { $1 }
        let process: ChildProcess
        if let fileLimit {
            process = try ChildProcess(
                "/bin/sh", ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", Self.executable] + arguments, environment: environment, name: "chimed")
        } else {
            process = try ChildProcess(Self.executable, arguments, environment: environment, name: "chimed")
        }
        _ = try await process.errors.take("listening", where: { $0.contains("chimed: info: chimed") && $0.contains("listening on") })
        return RunningDaemon(process: process, home: self)
    }

    /// The built `chimed`, next to the test bundle.
    public static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("chimed").path
    }

    /// The built `chime`, next to the test bundle.
    public static var chimeExecutable: String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("chime").path
    }

    /// A connection as an app makes it.
    public func connect(app: String? = nil, subscribe: Bool = false, foreground: Bool = false) async throws -> DaemonClient {
        try await DaemonClient.connect(appIdentifier: app, subscribe: subscribe, foreground: foreground, paths: paths)
    }

    /// A connection as the CLI or the desktop makes it (no app).
    public func connectAsUser() async throws -> DaemonClient {
        try await DaemonClient.connect(paths: paths)
    }

    /// The token the running daemon wrote.
    public var token: String {
        get throws { try String(contentsOf: paths.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The loopback port the running daemon serves, from its `http` file.
    public var httpPort: UInt16? {
        let address = try? String(contentsOf: paths.httpAddressFile, encoding: .utf8)
        return address.flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":").last ?? "") }
    }
}

/// A `chimed` started in a `DaemonHome`.
public struct RunningDaemon: Sendable {
    public let process: ChildProcess
    public let home: DaemonHome

    public var log: LineLog { process.errors }

    /// SIGTERM, then the exit status. A daemon that did not stop cleanly has the end of its log printed,
    /// so the failing test's output says why.
    public func terminate() async -> Int32 {
        process.signal(SIGTERM)
        let status = await process.exitStatus()
        if status != 0 {
            // A crash's cause is at the top of its backtrace, above the thread dumps and the image list.
            let lines = (try? await log.allLines(within: 5)) ?? log.lines
            let crash = lines.firstIndex { $0.contains("Program crashed") || $0.contains("Fatal error") }
            let shown = crash.map { lines[max(0, $0 - 10)..<min(lines.count, $0 + 60)] } ?? lines.suffix(20)
            FileHandle.standardError.write(Data("chimed exited with status \(status) after SIGTERM; its log:\n\(shown.joined(separator: "\n"))\n".utf8))
        }
        return status
    }

    /// The daemon's resident memory now, in MiB.
    public var residentMemory: Double {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }

    /// Whether the process still runs (and is not a zombie).
    public var isRunning: Bool {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        return status.contains("State:") && !status.contains("State:\tZ")
    }

    public func killHard() async {
        process.signal(SIGKILL)
        _ = await process.exitStatus()
    }

    /// Waits for the log line saying the notification was presented (the log presenter writes it).
    public func presented(_ app: String, _ identifier: String, within seconds: Double = 10) async throws {
        _ = try await log.take("\(app)/\(identifier) presented", within: seconds) { $0.contains("chimed: info: presented \(app)/\(identifier) — ") }
    }
}

/// The next event a client receives, within a deadline.
public func nextEvent(_ client: DaemonClient, within seconds: Double = 10) async throws -> DaemonEvent {
    try await withThrowingTaskGroup(of: DaemonEvent?.self) { group in
        group.addTask {
            for await event in client.events { return event }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw Timeout(description: "no event within \(seconds) s")
        }
        defer { group.cancelAll() }
        guard let event = try await group.next() ?? nil else { throw Timeout(description: "the event stream ended") }
        return event
    }
}
