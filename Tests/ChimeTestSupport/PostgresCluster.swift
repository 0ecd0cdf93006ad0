public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder, the server listening on a
/// Unix socket in that folder only (no TCP port to collide with another server), durability settings off
/// (the tests check Chime's behaviour, not the disk's).
///
/// As root (CI, containers) the server runs as the `postgres` user the Debian package creates, since
/// `initdb` refuses root. `shared` is one cluster for the whole test process, each test taking a
/// database of its own (`freshDatabase()`); a test that restarts or stops its server starts its own.
/// A cluster left behind by a killed test process is stopped by the next one that starts.
public final class PostgresCluster: Sendable {
    public let root: URL
    public var socketDirectory: URL { root.appendingPathComponent("socket") }
    private var dataDirectory: URL { root.appendingPathComponent("data") }
    /// An unusual port number: with TCP off it only names the socket file (`.s.PGSQL.<port>`).
    public static let port = 55_471
    private let databases = Atomic<Int>(0)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The cluster every test of this process shares, started on first use.
    public static func shared() async throws -> PostgresCluster {
        try await SharedCluster.instance.get()
    }

    /// Starts a new cluster; `stop()` it when done.
    public static func start() async throws -> PostgresCluster {
        let binaries = try binDirectory()
        await sweepAbandonedClusters(binaries: binaries)
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chime-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
        let cluster = PostgresCluster(root: root)
        try FileManager.default.createDirectory(at: cluster.socketDirectory, withIntermediateDirectories: true)
        try Data("\(getpid())".utf8).write(to: root.appendingPathComponent("owner"))
        if getuid() == 0 {
            // The folder (not only the data directory) must be the server's: it writes the socket there.
            _ = try await Subprocess.run("/bin/chown", ["-R", "postgres:postgres", root.path])
        }
        try await cluster.run(
            "\(binaries)/initdb", ["-D", cluster.dataDirectory.path, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"])
        try await cluster.startServer()
        return cluster
    }

    private init(root: URL) {
        self.root = root
    }

    /// The connection string of a new, empty database.
    public func freshDatabase() async throws -> String {
        let name = "chime_test_\(databases.add(1, ordering: .relaxed).newValue)"
        try await psql("CREATE DATABASE \(name)")
        return conninfo(database: name)
    }

    public func conninfo(database: String) -> String {
        "host=\(socketDirectory.path) port=\(Self.port) user=postgres dbname=\(database) connect_timeout=5"
    }

    /// Runs SQL as the superuser in the `postgres` database.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> String {
        let outcome = try await Subprocess.run(
            "/usr/bin/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", conninfo(database: database), "-c", sql])
        guard outcome.status == 0 else { throw Failure(description: "psql \(sql): \(outcome.standardError)") }
        return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server (fast shutdown: open connections are closed), keeping its data.
    public func stopServer() async throws {
        try await run("\(try Self.binDirectory())/pg_ctl", ["-D", dataDirectory.path, "-m", "fast", "-w", "stop"])
    }

    public func startServer() async throws {
        let options = "-p \(Self.port) -k \(socketDirectory.path) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try await run(
            "\(try Self.binDirectory())/pg_ctl",
            ["-D", dataDirectory.path, "-l", root.appendingPathComponent("server.log").path, "-w", "-t", "30", "-o", options, "start"])
    }

    /// Stops the server and removes its folder.
    public func stop() async {
        try? await stopServer()
        try? FileManager.default.removeItem(at: root)
    }

    /// Runs a PostgreSQL program, as the `postgres` user when this process is root.
    private func run(_ executable: String, _ arguments: [String]) async throws {
        let outcome =
            if getuid() == 0 {
                try await Subprocess.run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
            } else {
                try await Subprocess.run(executable, arguments)
            }
        guard outcome.status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")): \(outcome.standardError)\(outcome.standardOutput)")
        }
    }

    /// The newest installed server's programs (Debian keeps them off PATH).
    static func binDirectory() throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw Failure(description: "no PostgreSQL server under /usr/lib/postgresql: run script/bootstrap --test")
        }
        return "/usr/lib/postgresql/\(newest)/bin"
    }

    /// Stops the clusters of test processes that no longer run, and removes their folders.
    private static func sweepAbandonedClusters(binaries: String) async {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("chime-pg-") {
            let root = temporary.appendingPathComponent(name)
            guard let owner = try? String(contentsOf: root.appendingPathComponent("owner"), encoding: .utf8), let pid = Int32(owner),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            await PostgresCluster(root: root).stop()
        }
    }
}

/// Starts the shared cluster once, and stops it when the test process exits.
private actor SharedCluster {
    static let instance = SharedCluster()
    private var started: Task<PostgresCluster, any Error>?

    func get() async throws -> PostgresCluster {
        if let started { return try await started.value }
        let task = Task { try await PostgresCluster.start() }
        started = task
        let cluster = try await task.value
        SharedClusterRoot.set(cluster.root.path)
        atexit {
            // Synchronous on purpose: the process is exiting. `pg_ctl stop` as the cluster's owner.
            guard let root = SharedClusterRoot.get() else { return }
            let binaries = (try? PostgresCluster.binDirectory()) ?? "/usr/lib/postgresql/15/bin"
            let stop = "'\(binaries)/pg_ctl' -D '\(root)/data' -m immediate -w stop"
            _ = system("\(getuid() == 0 ? "runuser -u postgres -- " : "")\(stop) >/dev/null 2>&1; rm -rf '\(root)'")
        }
        return cluster
    }
}

/// The shared cluster's folder, for the exit handler (a C function pointer captures nothing).
private enum SharedClusterRoot {
    private static let root = Mutex<String?>(nil)
    static func set(_ path: String) { root.withLock { $0 = path } }
    static func get() -> String? { root.withLock { $0 } }
}
