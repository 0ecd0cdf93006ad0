import ChimeCore
import ChimeEngine
import ChimePostgres
import Foundation
import Synchronization

/// Server mode with a large backlog: `pending` dated requests of one tenant, due a month or more ahead,
/// spread over `recipients` recipients, and a `chimed --server` started on them as a process of its own
/// (so its memory is its own). Measured: spawn to the first `200` of `GET /v1/status` with the tenant's key,
/// the node's resident memory (`VmRSS`, and the peak `VmHWM`) after it has run `settleSeconds`, and the
/// latency of one recipient's first page of `GET /v1/recipients/{id}/pending`.
///
/// The baseline, in the same run: the same measurements of the same chimed on the same tenant before the
/// fill, with nothing pending. The fill writes the rows with `COPY` (the stores' encoding of real
/// requests, 100,000 rows a transaction) and is not what is measured; progress goes to standard error.
/// The benchmark needs an empty `pending` table and empties it again afterwards (`TRUNCATE`).
struct ServerScaleBenchmark {
    let conninfo: String
    let chimed: String
    var pending = 10_000_000
    var recipients = 100_000
    var settleSeconds = 10.0

    struct Node: Encodable {
        let pending: Int
        /// Spawn to the first `200` of `GET /v1/status` (the target: under 1 s).
        let startToStatusMilliseconds: Double
        /// Resident memory after `settleSeconds` (the target: at most 150 MB), and the peak.
        let residentMiB: Double
        let peakResidentMiB: Double
        /// The first page (limit 100) of one recipient's pending list, then 20 more of the same.
        let firstPageMilliseconds: Double
        let pageMilliseconds: LatencySummary
        let pageItems: Int
    }

    struct Result: Encodable {
        let workload = "server-scale"
        let pending: Int
        let recipients: Int
        let fillSeconds: Double
        let fillRowsPerSecond: Double
        /// The same chimed before the fill (nothing pending).
        let empty: Node
        let full: Node
    }

    func run() async throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: chimed) else {
            throw BenchmarkFailure("no chimed at \(chimed): swift build -c release --product chimed (or --chimed PATH)")
        }
        let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 2))
        guard try await database.read({ db in try db.query("SELECT EXISTS (SELECT 1 FROM pending)").first?[0] }) == .boolean(false) else {
            await database.close()
            throw BenchmarkFailure("server-scale needs a database with nothing pending (it empties the table afterwards): script/postgres stop; script/postgres start")
        }
        let tenant = "scale-\(UUID().uuidString.prefix(8).lowercased())"
        let directory = TenantDirectory(database: database)
        try await directory.createTenant(tenant, name: tenant)
        do {
            let (secret, _) = try await directory.issueKey(tenant: tenant, name: "benchmark", scopes: [.read])
            // Recipients straight into their table, like the requests: the fill is not what is measured.
            try await database.transaction { [recipients] db in
                try db.query(
                    "INSERT INTO recipient (tenant, recipient_id, time_zone, locale) SELECT $1, 'u' || g, 'UTC', 'en' FROM generate_series(0, $2) AS g",
                    [.text(tenant), .integer(Int64(recipients - 1))])
            }
            // No ANALYZE: a node must read profiles by key before autovacuum has seen the new recipients.
            let empty = try await measureNode(key: secret, pending: 0)
            let fillStarted = ContinuousClock.now
            try await fill(database, tenant: tenant)
            let fillSeconds = ServerAddsBenchmark.seconds(ContinuousClock.now - fillStarted)
            try await database.read { db in try db.execute("ANALYZE pending") }
            let full = try await measureNode(key: secret, pending: pending)
            try await cleanUp(database, tenant: tenant)
            await database.close()
            return Result(
                pending: pending, recipients: recipients, fillSeconds: (fillSeconds * 10).rounded() / 10,
                fillRowsPerSecond: (Double(pending) / fillSeconds).rounded(), empty: empty, full: full)
        } catch {
            try? await cleanUp(database, tenant: tenant)
            await database.close()
            throw error
        }
    }

    /// Writes `pending` requests in transactions of 100,000 rows; the next rows are encoded while the
    /// database takes the current ones.
    private func fill(_ database: PostgresDatabase, tenant: String) async throws {
        let chunk = 100_000
        let start = Date()
        let clock = ContinuousClock()
        let began = clock.now
        @Sendable func rows(_ first: Int) throws -> PendingRows {
            try PendingRows(
                tenant: tenant,
                (first..<min(first + chunk, pending)).map { index in
                    let interval = 30 * 86_400 + Double(index % 86_400)
                    let request = try NotificationRequest(
                        identifier: "n\(index)", content: NotificationContent(title: "Reminder \(index)", body: "Water the plants on the balcony"),
                        trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: false)))
                    return (
                        "u\(index % recipients)",
                        PendingRequest(appIdentifier: "com.example.app\(index % 10)", request: request, addedDate: start, nextFireDate: start.addingTimeInterval(interval))
                    )
                })
        }
        var next = Task { try rows(0) }
        for first in stride(from: 0, to: pending, by: chunk) {
            let current = try await next.value
            if first + chunk < pending { next = Task { [first] in try rows(first + chunk) } }
            try await database.transaction { db in try current.copy(into: "pending", on: db) }
            let done = min(first + chunk, pending)
            if done % 1_000_000 == 0 || done == pending {
                let elapsed = ServerAddsBenchmark.seconds(clock.now - began)
                FileHandle.standardError.write(Data("server-scale: filled \(done) of \(pending) in \(Int(elapsed)) s (\(Int(Double(done) / elapsed)) rows/s)\n".utf8))
            }
        }
    }

    /// Starts chimed, measures it, stops it.
    private func measureNode(key: String, pending: Int) async throws -> Node {
        let port = try Self.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chimed)
        process.arguments = ["--server", "--database", conninfo, "--http", "127.0.0.1:\(port)", "--node", "bench-scale"]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        let logText = Mutex("")
        let clock = ContinuousClock()
        let spawned = clock.now
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
        }
        // Keep draining its log, so it never blocks writing, and keep it for an error message.
        let handle = log.fileHandleForReading
        Thread.detachNewThread {
            while case let chunk = handle.availableData, !chunk.isEmpty { logText.withLock { $0 += String(decoding: chunk, as: UTF8.self) } }
        }

        // Connect as soon as it listens; ask until the status answers 200.
        var client: HTTPSocket?
        while true {
            guard process.isRunning else { throw BenchmarkFailure("chimed exited: \(logText.withLock { $0 })") }
            guard clock.now - spawned < .seconds(60) else { throw BenchmarkFailure("chimed did not answer within 60 s: \(logText.withLock { $0 })") }
            if client == nil { client = try? HTTPSocket(port: port, key: key) }
            if let connected = client {
                do {
                    if try connected.request("GET", "/v1/status").status == 200 { break }
                } catch {
                    client = nil
                }
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        let startup = milliseconds(clock.now - spawned)
        guard let client else { throw BenchmarkFailure("no connection") }

        try await Task.sleep(until: spawned + .milliseconds(Int(settleSeconds * 1_000)))
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        func kibibytes(_ field: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }

        // A recipient in the middle of the range: 100 items each when `pending` is 10,000,000.
        let path = "/v1/recipients/u\(recipients / 2 + 17)/pending?limit=100"
        var started = clock.now
        let (pageStatus, page) = try client.request("GET", path)
        let firstPage = milliseconds(clock.now - started)
        guard pageStatus == 200 else { throw BenchmarkFailure("GET \(path) answered \(pageStatus): \(String(decoding: page.prefix(300), as: UTF8.self))") }
        var pages: [Double] = []
        for _ in 0..<20 {
            started = clock.now
            _ = try client.request("GET", path)
            pages.append(milliseconds(clock.now - started))
        }
        let items = (try? JSONSerialization.jsonObject(with: Data(page)) as? [String: Any])?["items"] as? [Any]
        return Node(
            pending: pending, startToStatusMilliseconds: (startup * 10).rounded() / 10, residentMiB: (kibibytes("VmRSS") / 1024 * 10).rounded() / 10,
            peakResidentMiB: (kibibytes("VmHWM") / 1024 * 10).rounded() / 10, firstPageMilliseconds: (firstPage * 100).rounded() / 100,
            pageMilliseconds: LatencySummary(pages), pageItems: items?.count ?? -1)
    }

    /// The tenant and every pending row go (the benchmark started on an empty table).
    private func cleanUp(_ database: PostgresDatabase, tenant: String) async throws {
        FileHandle.standardError.write(Data("server-scale: emptying the pending table\n".utf8))
        try await database.transaction { db in
            try db.execute("TRUNCATE pending")
            try db.query("DELETE FROM tenant WHERE tenant = $1", [.text(tenant)])
        }
    }

    /// A loopback port nothing listens on now, for chimed to take.
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw BenchmarkFailure("no free loopback port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}
