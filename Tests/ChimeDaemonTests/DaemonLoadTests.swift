import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// chimed under what ordinary use and hostile local processes do to it: long lists, large bodies, more
/// connections than it has file descriptors, a client that never reads, a foreground app that stops.
@Suite("chimed under load", .serialized)
struct DaemonLoadTests {
    static let app = "com.example.load"

    /// Adds `count` requests due in a day, in batches.
    static func addMany(_ count: Int, to client: DaemonClient, app: String = app) async throws {
        var index = 0
        while index < count {
            let batch = try (index..<min(count, index + 500)).map { try request(String(format: "n%05d", $0), in: 86_400 + Double($0)) }
            try await client.add(batch, app: app)
            index += batch.count
        }
    }

    @Test func fiveThousandPendingListInPagesToTheCommandLineAndToApps() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let user = try await home.connectAsUser()
        #expect(try await user.requestAuthorization(options: [.alert], app: Self.app))
        try await Self.addMany(5000, to: user)
        let expected = (0..<5000).map { String(format: "n%05d", $0) }

        // The command line, as a user runs it.
        let json = try ChildProcess(
            DaemonHome.chimeExecutable, ["pending", "--app", Self.app, "--json"], environment: home.environment, name: "chime pending --json")
        #expect(await json.exitStatus() == 0)
        let listed = try JSONSerialization.jsonObject(with: Data(try await json.output.allLines().joined(separator: "\n").utf8)) as? [[String: Any]]
        let identifiers = listed?.compactMap { $0["identifier"] as? String } ?? []
        #expect(identifiers.count == 5000 && identifiers == expected, "every request once, in fire order")
        let table = try ChildProcess(DaemonHome.chimeExecutable, ["pending"], environment: home.environment, name: "chime pending")
        #expect(await table.exitStatus() == 0)
        let lines = try await table.output.allLines()
        #expect(lines.count == 5001, "a header and one line per request")
        #expect(lines.first?.hasPrefix("APP") == true)

        // An app's client reads them a page at a time.
        let app = try await home.connect(app: Self.app)
        let read = try await app.pendingRequests().map(\.request.identifier)
        #expect(read.count == 5000 && read == expected, "every request once, in fire order")

        // No answer holds more than a page: a page larger than 1,000 is refused, and the default is 200.
        let raw = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        raw.request("GET", "/v1/pending?limit=1001", token: try home.token)
        #expect(try raw.answer().status == 400)
        raw.request("GET", "/v1/pending", token: try home.token)
        let page = try WireFormat.decoder().decode(Page<PendingItem>.self, from: Data(try raw.answer().body))
        #expect(page.items.count == Page<PendingItem>.defaultLimit && page.total == 5000 && page.next != nil)
        #expect(await daemon.terminate() == 0)
    }

    @Test func aTwoMegabyteRequestIsRefusedWithTheLimitAndAClearMessage() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        // A categories file of 2 MB: 8,000 categories with long identifiers.
        let categories = (0..<8000).map { #"{"identifier":"category-\#($0)-\#(String(repeating: "x", count: 220))","actions":[]}"# }
        let file = home.root.appendingPathComponent("categories.json")
        try Data(("[" + categories.joined(separator: ",") + "]").utf8).write(to: file)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0 > 2_000_000)

        let chime = try ChildProcess(
            DaemonHome.chimeExecutable, ["categories", "set", "--app", Self.app, file.path], environment: home.environment, name: "chime categories set")
        #expect(await chime.exitStatus() == 1)
        let message = try await chime.errors.allLines().joined(separator: "\n")
        #expect(message.contains("more than chimed takes in one request") && message.contains("1 MiB"), "\(message)")

        let user = try await home.connectAsUser()
        #expect(try await user.categories(app: Self.app).isEmpty, "nothing was registered")
        #expect(await daemon.terminate() == 0)
    }

    /// A hostile local process: opens `count` connections to the socket as fast as the kernel takes them
    /// (when the listen queue is full, it tries again a moment later, for up to 10 s), prints how many it
    /// holds, and holds them until its input closes.
    static let flood = """
        import resource, socket, sys, time
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
        held = []
        deadline = time.monotonic() + 10
        while len(held) < int(sys.argv[2]) and time.monotonic() < deadline:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setblocking(False)
            if s.connect_ex(sys.argv[1]) == 0:
                held.append(s)
            else:
                s.close()
                time.sleep(0.001)
        print(len(held), flush=True)
        sys.stdin.read()
        """

    @Test func twoThousandConnectionsUnderAThousandFileDescriptorsLeaveItServing() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--idle-timeout", "2"], fileLimit: 1024)
        let flood = try ChildProcess("/usr/bin/python3", ["-c", Self.flood, home.paths.socketFile.path, "2000"], name: "flood")
        let held = Int(try await flood.output.take("the connections held") { Int($0) != nil }) ?? 0
        #expect(held > 1024, "the flood holds more connections than the daemon has descriptors")

        // While the flood holds its connections, a client is served once idle ones time out.
        let client = try await DaemonClient.connect(paths: home.paths)
        #expect(try await client.status().version == WireFormat.version)
        #expect(daemon.isRunning)

        flood.closeInput()
        #expect(await flood.exitStatus() == 0)
        // After the flood, the daemon serves at once, and again and again.
        for _ in 0..<20 { #expect(try await client.status().processIdentifier == daemon.process.processIdentifier) }
        let other = try await home.connect(app: Self.app)
        #expect(try await other.requestAuthorization(options: [.alert]))
        #expect(await daemon.terminate() == 0)
    }

    @Test func aClientThatPipelinesAndNeverReadsStallsNobody() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let token = try home.token
        let memoryBefore = daemon.residentMemory

        // 20,000 requests written in one go, never read.
        let hog = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        let pipelined = "GET /v1/apps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n"
        let writer = Thread {
            for _ in 0..<20 { hog.send(String(repeating: pipelined, count: 1000)) }
        }
        writer.start()

        let client = try await home.connect(app: Self.app)
        _ = try await client.requestAuthorization(options: [.alert])
        var latencies: [Duration] = []
        for index in 0..<200 {
            let started = ContinuousClock.now
            try await client.add([try request("steady-\(index)")])
            latencies.append(ContinuousClock.now - started)
        }
        latencies.sort()
        // Liveness with a wide margin (the old daemon made such clients wait 5 s, then time out).
        #expect(latencies[198] < .seconds(1), "p99 \(latencies[198])")
        #expect(try await client.pendingRequests().count == 200)
        #expect(daemon.residentMemory - memoryBefore < 100, "the daemon holds a client's unread answers: \(daemon.residentMemory) MiB")
        _ = hog
        #expect(await daemon.terminate() == 0)
    }

    @Test func aStoppedForegroundAppDelaysOnlyItsOwnNotifications() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--presentation-timeout", "2"])
        let user = try await home.connectAsUser()
        for app in ["com.example.stopped", "com.example.other"] { _ = try await user.requestAuthorization(options: [.alert], app: app) }

        // A real process holds the stopped app's event stream in the foreground, then stops (SIGSTOP).
        let curl = try Tool.path("curl", package: "curl")
        let stopped = try ChildProcess(
            curl,
            [
                "-sN", "--unix-socket", home.paths.socketFile.path, "-H", "Authorization: Bearer \(try home.token)",
                "http://localhost/v1/apps/com.example.stopped/events?foreground=true",
            ], name: "stopped app")
        try await eventually("the stopped app connected") { try await user.apps().contains { $0.entry.identifier == "com.example.stopped" && $0.connected } }
        kill(stopped.processIdentifier, SIGSTOP)
        defer { kill(stopped.processIdentifier, SIGKILL) }

        // Ten of its notifications and one of another app, all due in 1 s.
        try await user.add((0..<10).map { try request("stopped-\($0)", in: 1) }, app: "com.example.stopped")
        let due = Date().addingTimeInterval(1)
        try await user.add([try request("on-time", in: 1)], app: "com.example.other")
        try await daemon.presented("com.example.other", "on-time")
        let late = Date().timeIntervalSince(due)
        #expect(late < 3, "the other app's notification came \(late) s after its due date")

        // The stopped app's own: the first two wait for its answer, then it counts as in the background.
        for index in 0..<10 { try await daemon.presented("com.example.stopped", "stopped-\(index)", within: 20) }
        #expect(Date().timeIntervalSince(due) < 12, "a stopped app cost more than two timeouts")
        #expect(await daemon.terminate() == 0)
    }
}
