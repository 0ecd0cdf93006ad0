import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeStoreCoding
import Foundation

/// Adds to the PostgreSQL store in batches of 10,000 (what a backend's batch request costs), beside
/// PostgreSQL's floor for the same rows: the same bytes, already encoded, written by bare `unnest`
/// inserts of 1,000 rows into a table of the same shape and indexes, one transaction per 10,000. The
/// store's figure includes encoding the requests and reading the apps' records for the admission rule.
///
/// Each side runs `rounds` times on a new tenant (the floor on an emptied table); the fastest counts.
struct PostgresAddsBenchmark {
    let conninfo: String
    var requests = 100_000
    var batch = 10_000
    var rounds = 3

    struct Result: Encodable {
        let workload = "postgres-adds"
        let requests: Int
        let batch: Int
        let storeAddsPerSecond: Double
        let floorRowsPerSecond: Double
        /// Store rate divided by the floor's.
        let ratioToFloor: Double
    }

    func run() async throws -> Result {
        let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 2))
        defer { Task { await database.close() } }
        try await database.transaction { db in
            try db.execute("DROP TABLE IF EXISTS bench_floor; CREATE TABLE bench_floor (LIKE pending INCLUDING ALL)")
        }
        let start = Date(timeIntervalSinceNow: 86_400)
        let pending = try (0..<requests).map { index in
            var content = NotificationContent(title: "Reminder \(index)", body: "Water the plants on the balcony")
            content.threadIdentifier = "garden"
            let trigger = try NotificationTrigger.calendar(CalendarTrigger(dateMatching: DateComponents(hour: index % 24, minute: index % 60), repeats: true))
            return PendingRequest(
                appIdentifier: "com.example.app\(index % 10)",
                request: try NotificationRequest(identifier: "r\(index)", content: content, trigger: trigger),
                addedDate: start, nextFireDate: start.addingTimeInterval(Double(index)))
        }
        let encoded = try pending.map { try StoreRecord.encode($0.request, form: PostgresNotificationStore.recordForm) }

        var storeBest = Duration.seconds(1_000_000)
        var floorBest = Duration.seconds(1_000_000)
        for round in 0..<rounds {
            let store = PostgresNotificationStore(database: database, tenant: "bench-\(UUID().uuidString.prefix(8))-\(round)")
            let storeTime = try await ContinuousClock().measure {
                for first in stride(from: 0, to: pending.count, by: batch) {
                    try await store.addPending(Array(pending[first..<min(first + batch, pending.count)]))
                }
            }
            storeBest = min(storeBest, storeTime)

            try await database.transaction { db in try db.execute("TRUNCATE bench_floor") }
            let tenant = "floor-\(round)"
            let floorTime = try await ContinuousClock().measure {
                for first in stride(from: 0, to: pending.count, by: batch) {
                    let slice = first..<min(first + batch, pending.count)
                    try await database.transaction { db in
                        for chunk in stride(from: slice.lowerBound, to: slice.upperBound, by: 1_000) {
                            let rows = chunk..<min(chunk + 1_000, slice.upperBound)
                            try db.query(
                                """
                                INSERT INTO bench_floor (tenant, recipient, app_id, request_id, added, next_fire, floating_calendar, request)
                                SELECT $1, '', * FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[], $6::bool[], $7::bytea[])
                                """,
                                [
                                    .text(tenant), .texts(rows.map { pending[$0].appIdentifier }), .texts(rows.map { pending[$0].request.identifier }),
                                    .array(.double, rows.map { .date(pending[$0].addedDate) }), .array(.double, rows.map { .date(pending[$0].nextFireDate) }),
                                    .array(.boolean, rows.map { _ in .boolean(true) }), .array(.bytes, rows.map { .bytes(encoded[$0]) }),
                                ])
                        }
                    }
                }
            }
            floorBest = min(floorBest, floorTime)
        }
        try await database.transaction { db in try db.execute("DROP TABLE bench_floor") }
        let storeRate = Double(requests) / seconds(storeBest)
        let floorRate = Double(requests) / seconds(floorBest)
        return Result(
            requests: requests, batch: batch, storeAddsPerSecond: storeRate.rounded(), floorRowsPerSecond: floorRate.rounded(),
            ratioToFloor: (storeRate / floorRate * 1000).rounded() / 1000)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
