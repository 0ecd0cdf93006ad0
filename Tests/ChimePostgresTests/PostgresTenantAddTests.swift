import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeStoreCoding
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

/// Server mode's batch add (`PostgresTenantData.add`) replaces a recipient's request with the same app and
/// identifier, whether that request was there before the add began or was added by another transaction
/// while it ran.
@Suite("PostgreSQL: a tenant's batch add")
struct PostgresTenantAddTests {
    typealias F = PostgresStoreFixtures
    static let app = "com.example.server"

    static func freshTenant(_ label: String) async throws -> String {
        let tenant = try await PostgresTestDatabase.freshStore(label).tenant
        try await TenantDirectory(database: try await PostgresTestDatabase.database()).createTenant(tenant, name: label)
        return tenant
    }

    @Test func anAddReplacesTheRequestsWithTheSameKeysAndKeepsTheOthers() async throws {
        let database = try await PostgresTestDatabase.database()
        let tenant = try await Self.freshTenant("batch")
        let data = PostgresTenantData(database: database, tenant: tenant)
        _ = try await data.add(
            [("ana", try F.pending("tea", at: 60)), ("ana", try F.pending("walk", at: 120)), ("bo", try F.pending("tea", at: 60))], answer: nil, now: F.t0)
        let replacement = try F.pending("tea", at: 300, title: "Tea, later")
        _ = try await data.add([("ana", replacement)], answer: nil, now: F.t0)

        let ana = PostgresNotificationStore(database: database, tenant: tenant, recipient: "ana")
        let bo = PostgresNotificationStore(database: database, tenant: tenant, recipient: "bo")
        let anas = try await ana.pendingRequests(appIdentifier: Self.app)
        #expect(anas.map(\.request.identifier) == ["walk", "tea"], "one request per key, in fire order")
        #expect(anas.last?.request.content.title == "Tea, later")
        #expect(anas.last?.nextFireDate == F.t0.addingTimeInterval(300))
        #expect(try await bo.pendingRequests(appIdentifier: Self.app).map(\.request.content.title) == ["Title tea"], "another recipient's request with the same identifier is its own")
    }

    /// The add deletes the old rows, then copies the new ones in. A row for one of its keys that another
    /// transaction inserted after the delete makes the copy wait for that transaction and then fail on the
    /// key; the add still succeeds, replacing that row.
    @Test func anAddReplacesARowAnotherTransactionInsertedWhileItRan() async throws {
        let database = try await PostgresTestDatabase.database()
        let tenant = try await Self.freshTenant("race")
        let data = PostgresTenantData(database: database, tenant: tenant)
        let first = try F.pending("tea", at: 60)
        let firstRecord = try StoreRecord.encode(first.request, form: .wide)

        let (inserted, insertedSignal) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let holder = Task {
            try await database.transaction { db in
                try db.query(
                    """
                    INSERT INTO pending (tenant, recipient, app_id, request_id, added, next_fire, floating_calendar, request)
                    VALUES ($1, 'ana', $2, 'tea', $3, $4, false, $5)
                    """,
                    [.text(tenant), .text(Self.app), .date(F.t0), .date(first.nextFireDate), .bytes(firstRecord)])
                insertedSignal.yield()
                release.wait()  // on the database's own thread for this connection
            }
        }
        for await _ in inserted { break }
        let second = try F.pending("tea", at: 300, title: "The add's own")
        let adding = Task { try await data.add([("ana", second)], answer: nil, now: F.t0) }

        // Commit the other transaction only once the add's copy waits for it.
        var waited = false
        for _ in 0..<500 where !waited {
            let rows = try await database.read { db in
                try db.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'COPY pending%'")
            }
            waited = !rows.isEmpty
            if !waited { try await Task.sleep(for: .milliseconds(10)) }
        }
        release.signal()
        try await holder.value
        #expect(waited, "the add's copy waited for the other transaction's row")
        #expect(try await adding.value == .written)

        let requests = try await PostgresNotificationStore(database: database, tenant: tenant, recipient: "ana").pendingRequests(appIdentifier: Self.app)
        #expect(requests.map(\.request.content.title) == ["The add's own"])
        #expect(requests.first?.nextFireDate == F.t0.addingTimeInterval(300))
    }

    /// Batches of new keys, of keys already there, and of both, in a random order: after each, the pending
    /// rows are exactly what a dictionary of the batches says — every key once, with its latest title —
    /// whichever way the add guessed the batch would go.
    @Test func runsOfNewAndReplacingBatchesLeaveExactlyTheLatestOfEachKey() async throws {
        let database = try await PostgresTestDatabase.database()
        let tenant = try await Self.freshTenant("runs")
        let data = PostgresTenantData(database: database, tenant: tenant)
        var generator = SystemRandomNumberGenerator()
        var expected: [String: String] = [:]  // "recipient/identifier" → title
        var nextNew = 0
        for round in 0..<40 {
            // Mostly new keys, mostly old ones, or half and half, in runs of a few rounds.
            let share = [0.0, 1.0, 0.5][(round / 4) % 3]
            var rows: [(recipient: String, pending: PendingRequest)] = []
            var used = Set<String>()
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                let key: String
                if !expected.isEmpty, Double.random(in: 0..<1, using: &generator) < share {
                    key = expected.keys.randomElement(using: &generator)!
                } else {
                    key = "r\(nextNew % 7)/n\(nextNew)"
                    nextNew += 1
                }
                guard used.insert(key).inserted else { continue }
                let parts = key.split(separator: "/").map(String.init)
                let title = "round \(round)"
                rows.append((parts[0], try F.pending(parts[1], at: Double(round), title: title)))
                expected[key] = title
            }
            _ = try await data.add(rows, answer: nil, now: F.t0)
            let stored = try await database.read { db in
                try db.query("SELECT recipient, request_id, request FROM pending WHERE tenant = $1", [.text(tenant)])
            }
            var actual: [String: String] = [:]
            for row in stored {
                let request = try StoreRecord.decode(NotificationRequest.self, from: try #require(row[2].bytes))
                let key = "\(try #require(row[0].text))/\(try #require(row[1].text))"
                #expect(actual.updateValue(request.content.title.literal ?? "", forKey: key) == nil, "\(key) stored twice")
            }
            #expect(actual == expected, "round \(round)")
        }
    }
}
