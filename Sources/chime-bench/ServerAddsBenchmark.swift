import ChimeAPI
import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeServer
import ChimeServerMode
import Foundation

/// Server mode's batch endpoint: `requests` notifications for `recipients` recipients, POSTed to
/// `POST /v1/notifications` in bodies of `batch` over real HTTP on loopback, to a `ServerNode` in this
/// process served by `HTTPServer` as `chimed --server` serves it. Beside it, in the same run, PostgreSQL's
/// floors for the same rows (the same bytes, encoded beforehand) into a table of the same shape and
/// indexes: one `COPY … FROM STDIN` per batch, and `unnest` inserts of 1,000 rows, a transaction per batch.
/// The endpoint is measured one batch after another on one connection, and from two connections at once.
///
/// Where the time goes, per batch, from the same rows taken apart in-process: decoding the JSON body,
/// `TenantService.add` on the decoded batch (the rules, the recipients' zones, the answer, the write),
/// `PostgresTenantData.add` on rows built beforehand (the write alone), and the encodings inside those.
/// What HTTP costs alone: the same bodies POSTed to a route that does not exist, which the node answers
/// (404) after reading the body and checking the key, without decoding anything.
///
/// Every side starts on an emptied table (the tenant's rows deleted and vacuumed, the floor's truncated);
/// each runs `rounds` times and its fastest round counts.
struct ServerAddsBenchmark {
    let conninfo: String
    var requests = 100_000
    var batch = 10_000
    var recipients = 1_000
    var rounds = 3

    struct Result: Encodable {
        let workload = "server-adds"
        let requests: Int
        let batch: Int
        let recipients: Int
        let bodyBytesPerBatch: Int
        /// Through `POST /v1/notifications`, one batch after another on one keep-alive connection.
        let addsPerSecond: Double
        /// The same batches from two connections at once (half each): a batch decodes while another writes.
        let addsPerSecondTwoConnections: Double
        let copyFloorRowsPerSecond: Double
        let insertFloorRowsPerSecond: Double
        /// addsPerSecond / copyFloorRowsPerSecond (the issue's target: at least 0.5).
        let ratioToCopyFloor: Double
        let ratioToInsertFloor: Double
        let ratioTwoConnectionsToCopyFloor: Double
        /// Milliseconds per batch, fastest round of each.
        let perBatchMilliseconds: Breakdown
    }

    struct Breakdown: Encodable {
        /// The endpoint, as the client sees it.
        let http: Double
        /// The same body to a route that does not exist: the transport, reading the body, the key's check.
        let transport: Double
        /// The body decoded as the handler decodes it (`RecipientBatch.decode(json:)`: in pieces, one per
        /// core, each with WireFormat's `JSONDecoder`).
        let decodeJSON: Double
        /// The same body in one piece with WireFormat's `JSONDecoder`: the baseline for `decodeJSON`.
        let decodeJSONOnePiece: Double
        /// `TenantService.add` on the decoded batch: checks, the recipients' zones (one query), first fire
        /// dates, the answer's JSON, and `PostgresTenantData.add`.
        let service: Double
        /// `PostgresTenantData.add` on rows built beforehand: encoding the records and the SQL.
        let write: Double
        /// `StoreRecord.encode` of the batch's requests (inside `write`).
        let encodeRecords: Double
        /// The answer's JSON (inside `service`).
        let encodeAnswer: Double
        /// The floors, per batch.
        let copyFloor: Double
        let insertFloor: Double
    }

    func run() async throws -> Result {
        let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 2))
        let tenant = "adds-\(UUID().uuidString.prefix(8).lowercased())"
        let directory = TenantDirectory(database: database)
        try await directory.createTenant(tenant, name: tenant)
        let (secret, _) = try await directory.issueKey(tenant: tenant, name: "benchmark", scopes: [.publish, .read])
        do {
            let result = try await measure(database, tenant: tenant, secret: secret)
            try await cleanUp(database, tenant: tenant)
            await database.close()
            return result
        } catch {
            try? await cleanUp(database, tenant: tenant)
            await database.close()
            throw error
        }
    }

    private func measure(_ database: PostgresDatabase, tenant: String, secret: String) async throws -> Result {
        let zones = ["Asia/Seoul", "America/New_York", "Europe/Berlin", "Australia/Sydney", "UTC"].map { TimeZone(identifier: $0)! }
        let data = PostgresTenantData(database: database, tenant: tenant)
        for recipient in 0..<recipients {
            let profile = RecipientProfile(recipient: Recipient(identifier: "u\(recipient)", timeZone: zones[recipient % 5], locale: "en"))
            try await data.saveProfile(profile, now: Date())
        }
        try await database.transaction { db in
            try db.execute("DROP TABLE IF EXISTS bench_floor; CREATE TABLE bench_floor (LIKE pending INCLUDING ALL)")
        }
        FileHandle.standardError.write(Data("server-adds: tenant \(tenant), \(recipients) recipients\n".utf8))

        // The bodies, and the same requests as rows, prepared before anything is timed.
        let now = Date()
        let items = try (0..<requests).map { index in
            var content = NotificationContent(title: "Reminder \(index)", body: "Water the plants on the balcony")
            content.threadIdentifier = "garden"
            let trigger = try NotificationTrigger.calendar(CalendarTrigger(dateMatching: DateComponents(hour: index % 24, minute: index % 60), repeats: true))
            return RecipientRequest(
                recipient: "u\(index % recipients)", app: "com.example.app\(index % 10)",
                request: try NotificationRequest(identifier: "r\(index)", content: content, trigger: trigger))
        }
        let batches = stride(from: 0, to: items.count, by: batch).map { RecipientBatch(notifications: Array(items[$0..<min($0 + batch, items.count)])) }
        let bodies = try batches.map { Array(try WireFormat.encoder().encode($0)) }
        let rowBatches = batches.map { batch in
            batch.notifications.map { item in
                let rules = FireRules(timeZone: zones[Int(item.recipient.dropFirst())! % 5])
                let next = rules.firstFireDate(of: item.request, now: now)
                return (recipient: item.recipient, pending: PendingRequest(appIdentifier: item.app, request: item.request, addedDate: now, nextFireDate: next))
            }
        }
        let floorRows = try rowBatches.map { try PendingRows(tenant: "floor", $0) }

        // The node, served as chimed serves it.
        let nodeDatabase = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 8))
        let node = ServerNode(database: nodeDatabase, configuration: ServerNode.Configuration(name: "bench-adds"), log: QuietLog())
        var configuration = HTTPServer.Configuration()
        configuration.maximumBodySize = RecipientBatch.maximumBodySize
        let socket = try ListeningSocket.tcp(host: "127.0.0.1", port: 0)
        guard let port = socket.port else { throw BenchmarkFailure("the listening socket has no port") }
        node.start()
        let server = try HTTPServer(listening: socket, configuration: configuration, handler: node.handler, log: QuietLog())
        let service = TenantService(database: nodeDatabase)
        guard let key = try await service.directory.authenticate(secret) else { throw BenchmarkFailure("the benchmark's key does not authenticate") }
        let client = try HTTPSocket(port: port, key: secret)
        let second = try HTTPSocket(port: port, key: secret)

        var best = [String: Duration]()
        func keep(_ name: String, _ duration: Duration) { best[name] = min(best[name] ?? .seconds(1_000_000), duration) }
        let clock = ContinuousClock()
        for round in 0..<rounds {
            FileHandle.standardError.write(Data("server-adds: round \(round + 1) of \(rounds)\n".utf8))
            try await empty(database, tenant: tenant)
            keep("http", try await clock.measure { try await Self.post(bodies, on: client, to: "/v1/notifications", expecting: 201) })
            keep("transport", try await clock.measure { try await Self.post(bodies, on: client, to: "/v1/no-such-route", expecting: 404) })

            try await empty(database, tenant: tenant)
            keep(
                "twoConnections",
                try await clock.measure {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for (lane, connection) in [client, second].enumerated() {
                            let half = bodies.indices.filter { $0 % 2 == lane }.map { bodies[$0] }
                            group.addTask { try await Self.post(half, on: connection, to: "/v1/notifications", expecting: 201) }
                        }
                        try await group.waitForAll()
                    }
                })

            try await empty(database, tenant: tenant)
            var decoded: [RecipientBatch] = []
            keep(
                "decodeJSON",
                try clock.measure { decoded = try bodies.map { try RecipientBatch.decode(json: $0) } })
            keep(
                "decodeJSONOnePiece",
                try clock.measure { decoded = try bodies.map { try WireFormat.decoder().decode(RecipientBatch.self, from: Data($0)) } })
            keep(
                "service",
                try await clock.measure {
                    for (batch, body) in zip(decoded, bodies) {
                        _ = try await service.add(batch, key: key, idempotencyKey: nil, route: "POST /v1/notifications", body: body, now: Date())
                    }
                })

            try await empty(database, tenant: tenant)
            keep("write", try await clock.measure { for rows in rowBatches { _ = try await data.add(rows, answer: nil, now: now) } })
            keep("encodeRecords", try clock.measure { for rows in rowBatches { _ = try PendingRows(tenant: tenant, rows) } })
            keep(
                "encodeAnswer",
                try clock.measure {
                    for rows in rowBatches {
                        let added = rows.map { row in
                            RecipientAddedItem(
                                recipient: row.recipient, app: row.pending.appIdentifier, identifier: row.pending.request.identifier,
                                nextFireDate: row.pending.nextFireDate)
                        }
                        _ = try RecipientAddResult(added: added).wireJSON()
                    }
                })

            try await database.read { db in try db.execute("TRUNCATE bench_floor") }
            keep(
                "copyFloor",
                try await clock.measure {
                    for rows in floorRows { try await database.transaction { db in try rows.copy(into: "bench_floor", on: db) } }
                })
            try await database.read { db in try db.execute("TRUNCATE bench_floor") }
            keep(
                "insertFloor",
                try await clock.measure {
                    for rows in floorRows { try await database.transaction { db in try rows.insert(into: "bench_floor", on: db) } }
                })
        }
        await server.stop()
        await node.stop()
        await nodeDatabase.close()
        try await database.transaction { db in try db.execute("DROP TABLE bench_floor") }

        func rate(_ name: String) -> Double { (Double(requests) / Self.seconds(best[name]!)).rounded() }
        func perBatch(_ name: String) -> Double { (Self.seconds(best[name]!) * 1_000 / Double(bodies.count) * 100).rounded() / 100 }
        func ratio(_ side: String, _ floor: String) -> Double { (rate(side) / rate(floor) * 1_000).rounded() / 1_000 }
        return Result(
            requests: requests, batch: batch, recipients: recipients, bodyBytesPerBatch: bodies.map(\.count).max() ?? 0, addsPerSecond: rate("http"),
            addsPerSecondTwoConnections: rate("twoConnections"), copyFloorRowsPerSecond: rate("copyFloor"), insertFloorRowsPerSecond: rate("insertFloor"),
            ratioToCopyFloor: ratio("http", "copyFloor"), ratioToInsertFloor: ratio("http", "insertFloor"),
            ratioTwoConnectionsToCopyFloor: ratio("twoConnections", "copyFloor"),
            perBatchMilliseconds: Breakdown(
                http: perBatch("http"), transport: perBatch("transport"), decodeJSON: perBatch("decodeJSON"),
                decodeJSONOnePiece: perBatch("decodeJSONOnePiece"), service: perBatch("service"),
                write: perBatch("write"), encodeRecords: perBatch("encodeRecords"), encodeAnswer: perBatch("encodeAnswer"),
                copyFloor: perBatch("copyFloor"), insertFloor: perBatch("insertFloor")))
    }

    /// Deletes the tenant's pending rows and vacuums, so each side writes into a table in the same state.
    private func empty(_ database: PostgresDatabase, tenant: String) async throws {
        try await database.transaction { db in try db.query("DELETE FROM pending WHERE tenant = $1", [.text(tenant)]) }
        try await database.read { db in try db.execute("VACUUM ANALYZE pending") }
    }

    private func cleanUp(_ database: PostgresDatabase, tenant: String) async throws {
        try await database.transaction { db in
            try db.query("DELETE FROM pending WHERE tenant = $1", [.text(tenant)])
            try db.query("DELETE FROM tenant WHERE tenant = $1", [.text(tenant)])
            try db.execute("DROP TABLE IF EXISTS bench_floor")
        }
    }

    /// POSTs each body in turn on `connection`, each answer read before the next is sent.
    static func post(_ bodies: [[UInt8]], on connection: HTTPSocket, to path: String, expecting status: Int) async throws {
        for body in bodies {
            let (answered, answer) = try await offPool { try connection.request("POST", path, body: body) }
            guard answered == status else {
                throw BenchmarkFailure("POST \(path) answered \(answered): \(String(decoding: answer.prefix(300), as: UTF8.self))")
            }
        }
    }

    /// Runs blocking socket work on a thread of its own, off the cooperative pool the node needs.
    static func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
