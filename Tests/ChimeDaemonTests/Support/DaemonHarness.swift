import ChimeClient
import ChimeCore
import ChimeIPC
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

/// A private home for `chimed`: its own XDG_DATA_HOME and XDG_RUNTIME_DIR under a temporary folder,
/// removed when the home goes away. Daemons started in it share the store, the registry and the queue,
/// as a restart would.
final class DaemonHome: Sendable {
    let root: URL
    let paths: DaemonPaths

    init() throws {
        root = URL(fileURLWithPath: "/tmp/chimed-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
        paths = DaemonPaths(environment: ["XDG_DATA_HOME": root.appendingPathComponent("data").path, "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path])
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    var environment: [String: String] {
        ["XDG_DATA_HOME": root.appendingPathComponent("data").path, "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path]
    }

    /// Starts `chimed --presenter log --authorization allow --verbose` and waits until it listens; with a
    /// `bus`, starts `chimed --verbose` (the presenter it chooses) on that session bus.
    func start(_ extra: [String] = [], bus: PrivateBus? = nil) async throws -> RunningDaemon {
        let arguments = bus == nil ? ["--presenter", "log", "--authorization", "allow", "--verbose"] : ["--verbose"]
        let process = try ChildProcess(
            Self.executable, arguments + extra, environment: environment.merging(bus?.environment ?? [:]) { $1 }, name: "chimed")
        _ = try await process.errors.take("listening", where: { $0.contains("chimed: info: chimed") && $0.contains("listening on") })
        return RunningDaemon(process: process, home: self)
    }

    /// The built `chimed`, next to the test bundle.
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("chimed").path
    }

    /// A connection as the CLI makes it (no app), or as an app.
    func connect(app: String? = nil, subscribe: Bool = false, foreground: Bool = false) async throws -> DaemonClient {
        try await DaemonClient.connect(appIdentifier: app, subscribe: subscribe, foreground: foreground, paths: paths)
    }
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

    func killHard() async {
        kill(process.processIdentifier, SIGKILL)
        _ = await process.exitStatus()
    }

    /// Waits for the log line saying the notification was presented.
    func presented(_ app: String, _ identifier: String, within seconds: Double = 10) async throws {
        _ = try await log.take("\(app)/\(identifier) presented", within: seconds) { $0.hasSuffix("chimed: info: presented \(app)/\(identifier)") }
    }
}

/// A request that fires `seconds` from now.
func request(_ identifier: String, in seconds: TimeInterval = 3600, title: String = "Hello", category: String? = nil) throws -> NotificationRequest {
    var content = NotificationContent(title: LocalizableText(stringLiteral: title))
    if let category { content.categoryIdentifier = category }
    return try NotificationRequest(identifier: identifier, content: content, trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: seconds, repeats: false)))
}

/// Polls `condition` until it holds or `seconds` pass: for state the daemon reports only when asked.
func eventually(_ what: String, within seconds: Double = 10, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(25))
    }
    throw Timeout(description: "timed out waiting for \(what)")
}

/// The next event, within a deadline.
func nextEvent(_ client: DaemonClient, within seconds: Double = 10) async throws -> DaemonEvent {
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

/// A raw connection for bad input: writes bytes, reads reply lines on a thread of its own.
final class RawConnection: Sendable {
    let socket: UnixSocket
    let lines: LineLog

    init(_ path: String) throws {
        socket = try UnixSocket.connect(to: path)
        lines = LineLog(reading: socket.fileDescriptor, name: "socket")
    }

    func send(_ text: String) {
        socket.write(Data(text.utf8))
    }

    /// The next reply line, decoded as a head.
    func reply(_ what: String) async throws -> MessageHead {
        let line = try await lines.take(what) { _ in true }
        return try WireFormat.decoder().decode(MessageHead.self, from: Data(line.utf8))
    }

    deinit {
        socket.shutdown()
    }
}
