import ChimeCore
import ChimeEngine
import ChimeAPI
import ChimePostgres
import ChimeServer
import ChimeServerMode
import Foundation

/// Server mode's lateness: `requests` one-shot notifications for 1,000 recipients in five zones, due
/// evenly over `seconds`, fired by `nodes` server-mode nodes in this process (each with its own
/// connections, as separate processes would have) on one database, added before the first is due.
///
/// Lateness as a backend sees it: a stream (`GET /v1/events` over loopback HTTP, served by the first node)
/// notes when each delivery arrives, minus its scheduled instant. Nodes record fires up to 100 ms ahead,
/// dated at their instant, so the date a delivery carries (its `date` minus `scheduledDate`, also given
/// as `recordedLatenessMilliseconds`) says only how often a claim came too late to be ahead.
///
/// Beside it, in the same run, the floor: a bare claim-and-delete loop on PostgreSQL over the same number
/// of rows (`DELETE … WHERE ctid IN (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1000) RETURNING due`, sleeping
/// until the next due date), on one connection.
///
/// While the nodes fire: the CPU time of the PostgreSQL server's processes (from `/proc`, so the cluster
/// must run on this machine) beside the nodes' own, and `pg_stat_activity` sampled every 50 ms for
/// sessions waiting on a lock (claims use `SKIP LOCKED`, so nodes should never wait for each other).
struct ServerBurstBenchmark {
    let conninfo: String
    var requests = 100_000
    var seconds = 20.0
    var nodes = 1

    struct Result: Encodable {
        let workload = "server-burst"
        let requests: Int
        let seconds: Double
        let nodes: Int
        let delivered: Int
        let duplicates: Int
        /// From each delivery's scheduled instant to its arrival on the stream.
        let latenessMilliseconds: [String: Double]
        /// Deliveries the stream carried.
        let streamed: Int
        /// Each delivery's recorded date minus its scheduled one (0 when recorded ahead).
        let recordedLatenessMilliseconds: [String: Double]
        let floorLatenessMilliseconds: [String: Double]
        /// Whether every add was written before the first notification was due.
        let addedBeforeFirstDue: Bool
        /// CPU seconds of this process (the nodes) per 1,000 fires.
        let nodeCPUSecondsPerThousandFires: Double
        /// CPU seconds of the PostgreSQL server's processes per 1,000 fires, over the same time.
        let postgresCPUSecondsPerThousandFires: Double
        let lockWaits: PostgresClusterProbe.LockWaits
    }

    func run() async throws -> Result {
        let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 2))
        guard try await database.read({ db in try db.query("SELECT count(*) FROM pending WHERE next_fire IS NOT NULL").first?[0].integer }) == 0 else {
            throw BenchmarkFailure("server-burst needs a database without dated pending requests (script/postgres stop; script/postgres start)")
        }
        let floor = try await floorLateness(database)

        let tenant = "burst-\(UUID().uuidString.prefix(8).lowercased())"
        try await TenantDirectory(database: database).createTenant(tenant, name: tenant)
        let zones = ["Asia/Seoul", "America/New_York", "Europe/Berlin", "Australia/Sydney", "UTC"]
        let data = PostgresTenantData(database: database, tenant: tenant)
        for recipient in 0..<1_000 {
            try await data.saveProfile(RecipientProfile(recipient: Recipient(identifier: "r\(recipient)", timeZone: TimeZone(identifier: zones[recipient % 5])!, locale: "en")), now: Date())
        }
        let (secret, _) = try await TenantDirectory(database: database).issueKey(tenant: tenant, name: "stream", scopes: [.read])
        var started: [(ServerNode, PostgresDatabase)] = []
        for index in 0..<nodes {
            let nodeDatabase = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 4))
            let node = ServerNode(database: nodeDatabase, configuration: ServerNode.Configuration(name: "bench\(index)"), log: QuietLog())
            node.start()
            started.append((node, nodeDatabase))
        }
        let socket = try ListeningSocket.tcp(host: "127.0.0.1", port: 0)
        guard let port = socket.port else { throw BenchmarkFailure("the listening socket has no port") }
        let server = try HTTPServer(listening: socket, configuration: HTTPServer.Configuration(), handler: started[0].0.handler, log: QuietLog())
        let stream = try StreamLatenessProbe(port: port, key: secret)
        let probe = try await PostgresClusterProbe(database)
        let lockWaits = PostgresClusterProbe.sampleLockWaits(conninfo: conninfo)
        let cpuBefore = Self.cpuSeconds()
        let postgresCPUBefore = probe.cpuSeconds()
        // Room for the adds (a few seconds) before the first is due: a request added after its instant
        // would be late whatever the nodes did.
        let first = Date().addingTimeInterval(10)
        for start in stride(from: 0, to: requests, by: 10_000) {
            let rows = try (start..<min(start + 10_000, requests)).map { index -> (recipient: String, pending: PendingRequest) in
                let due = first.addingTimeInterval(seconds * Double((index * 7_919) % requests) / Double(requests))
                let request = try NotificationRequest(identifier: "n\(index)", content: NotificationContent(title: "Order \(index) shipped"), trigger: nil)
                return ("r\(index % 1_000)", PendingRequest(appIdentifier: "com.example.shop", request: request, addedDate: Date(), nextFireDate: due))
            }
            _ = try await data.add(rows, answer: nil, now: Date())
        }
        let addedBeforeFirstDue = Date() < first
        while try await database.read({ db in try db.query("SELECT count(*) FROM pending WHERE tenant = $1", [.text(tenant)]).first?[0].integer }) != 0 {
            try await Task.sleep(for: .milliseconds(200))
        }
        let cpu = Self.cpuSeconds() - cpuBefore
        let postgresCPU = probe.cpuSeconds() - postgresCPUBefore
        // The last deliveries' instants have come; let the stream carry them.
        try await Task.sleep(for: .seconds(1))
        stream.stop()
        await server.stop()
        lockWaits.cancel()
        let waits = try await lockWaits.value
        for (node, nodeDatabase) in started {
            await node.stop()
            await nodeDatabase.close()
        }
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT ((convert_from(body, 'UTF8')::json->'notification'->>'date')::float8
                        - (convert_from(body, 'UTF8')::json->'notification'->>'scheduledDate')::float8) * 1000,
                       convert_from(body, 'UTF8')::json->'notification'->'request'->>'identifier'
                FROM event WHERE tenant = $1
                """, [.text(tenant)])
        }
        let lateness = rows.compactMap { $0[0].double }
        let identifiers = rows.compactMap { $0[1].text }
        await database.close()
        return Result(
            requests: requests, seconds: seconds, nodes: nodes, delivered: Set(identifiers).count, duplicates: identifiers.count - Set(identifiers).count,
            latenessMilliseconds: Self.summary(stream.lateness), streamed: stream.lateness.count, recordedLatenessMilliseconds: Self.summary(lateness),
            floorLatenessMilliseconds: Self.summary(floor), addedBeforeFirstDue: addedBeforeFirstDue,
            nodeCPUSecondsPerThousandFires: cpu / Double(max(1, identifiers.count)) * 1_000,
            postgresCPUSecondsPerThousandFires: postgresCPU / Double(max(1, identifiers.count)) * 1_000, lockWaits: waits)
    }

    /// The bare claim-and-delete loop's lateness, in milliseconds.
    func floorLateness(_ database: PostgresDatabase) async throws -> [Double] {
        try await database.transaction { db in
            try db.execute("DROP TABLE IF EXISTS bench_due; CREATE TABLE bench_due (id bigint PRIMARY KEY, due double precision NOT NULL); CREATE INDEX ON bench_due (due)")
        }
        let first = Date().addingTimeInterval(2).timeIntervalSinceReferenceDate
        let dues = (0..<requests).map { first + seconds * Double(($0 * 7_919) % requests) / Double(requests) }
        try await database.transaction { db in
            try db.query("INSERT INTO bench_due SELECT * FROM unnest($1::int8[], $2::float8[])", [.array(.integer, (0..<requests).map { .integer(Int64($0)) }), .array(.double, dues.map { .double($0) })])
        }
        var lateness: [Double] = []
        while lateness.count < requests {
            let now = Date().timeIntervalSinceReferenceDate
            let fired = try await database.transaction { db in
                try db.query(
                    "DELETE FROM bench_due WHERE id IN (SELECT id FROM bench_due WHERE due <= $1 ORDER BY due LIMIT 1000 FOR UPDATE SKIP LOCKED) RETURNING due",
                    [.double(now)]).compactMap { $0[0].double }
            }
            let done = Date().timeIntervalSinceReferenceDate
            lateness += fired.map { (done - $0) * 1_000 }
            if fired.count == 1_000 { continue }
            let next = try await database.read { db in try db.query("SELECT min(due) FROM bench_due").first?[0].double }
            guard let next else { break }
            let wait = next - Date().timeIntervalSinceReferenceDate
            if wait > 0 { try await Task.sleep(for: .microseconds(Int64(min(wait, 1) * 1_000_000))) }
        }
        try await database.transaction { db in try db.execute("DROP TABLE bench_due") }
        return lateness
    }

    static func summary(_ values: [Double]) -> [String: Double] {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return [:] }
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return ["p50": percentile(0.5), "p99": percentile(0.99), "max": sorted.last!]
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }
}

/// A log that says nothing, for nodes under measurement.
struct QuietLog: EngineLog {
    func warning(_ message: String) {}
    func info(_ message: String) {}
    func debug(_ message: String) {}
}
