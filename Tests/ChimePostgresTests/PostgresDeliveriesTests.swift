@testable import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// The ledger of deliveries beyond the machine: a claim is a lease, a node that dies mid-attempt loses the
/// delivery to the next claim after its lease, and its late outcome changes nothing.
@Suite("PostgreSQL: the delivery ledger", .serialized)
struct PostgresDeliveriesTests {
    /// A tenant with recipient `ann`, a webhook device, and one queued delivery due at `due`.
    static func queued(due: Date) async throws -> (PostgresDatabase, String) {
        let database = try await PostgresTestDatabase.database()
        let tenant = "ledger-\(UUID().uuidString.prefix(8).lowercased())"
        let directory = TenantDirectory(database: database)
        try await directory.createTenant(tenant, name: tenant)
        try await PostgresTenantData(database: database, tenant: tenant).saveProfile(
            RecipientProfile(recipient: Recipient(identifier: "ann", timeZone: TimeZone(identifier: "UTC")!, locale: "en")), now: due)
        _ = try await PostgresDevices(database: database, tenant: tenant).save(
            recipient: "ann", identifier: "hook", channel: .webhook(url: "https://example.com/hook"), enabled: true, generatedSecret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0", now: due)
        try await database.transaction { db in
            try PostgresDeliveries.queueWebhooks(
                [.init(tenant: tenant, recipient: "ann", app: "chat", notification: "n1", due: due, event: Array(#"{"x":1}"#.utf8))], now: due, in: db)
        }
        return (database, tenant)
    }

    /// Only this tenant's claimed deliveries (the shared test database holds other tests' rows).
    static func claim(_ database: PostgresDatabase, _ tenant: String, now: Date, lease: TimeInterval) async throws -> [ClaimedDelivery] {
        try await PostgresDeliveries(database: database).claim(now: now, limit: 1000, lease: lease).filter { $0.tenant == tenant }
    }

    @Test func aClaimIsALeaseAndALateOutcomeFromTheFirstHolderIsDropped() async throws {
        let t0 = Date(timeIntervalSince1970: 2_000_000_000)
        let (database, tenant) = try await Self.queued(due: t0)
        let ledger = PostgresDeliveries(database: database)
        #expect(try await Self.claim(database, tenant, now: t0.addingTimeInterval(-1), lease: 60).isEmpty, "not before it is due")

        let first = try #require(try await Self.claim(database, tenant, now: t0, lease: 60).first)
        #expect(first.attempts == 1 && first.url == "https://example.com/hook" && first.secrets == ["whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"])
        let body = String(decoding: first.body, as: UTF8.self)
        #expect(body == #"{"type":"notification.delivered","timestamp":"2033-05-18T03:33:20.000Z","data":{"x":1}}"#, "\(body)")
        #expect(try await Self.claim(database, tenant, now: t0.addingTimeInterval(30), lease: 60).isEmpty, "held by its lease")

        // The first holder died: after the lease the delivery is claimed again, as attempt 2.
        let second = try #require(try await Self.claim(database, tenant, now: t0.addingTimeInterval(61), lease: 60).first)
        #expect(second.id == first.id && second.attempts == 2)
        #expect(try await ledger.finish(first, .accepted(status: 200), now: t0.addingTimeInterval(62)) == false, "the first holder's claim is gone")
        #expect(try await ledger.finish(second, .retry(at: t0.addingTimeInterval(100), status: 503, error: "busy"), now: t0.addingTimeInterval(62)))
        let listed = try #require(try await ledger.list(tenant: tenant, recipient: "ann", before: nil, limit: 10).first)
        #expect(listed.state == "retrying" && listed.attempts == 2 && listed.lastStatus == 503 && listed.lastError == "busy")
        #expect(listed.nextAttempt == t0.addingTimeInterval(100))

        let third = try #require(try await Self.claim(database, tenant, now: t0.addingTimeInterval(100), lease: 60).first)
        #expect(try await ledger.finish(third, .dead(status: 410, error: "gone", disablingDevice: "410 Gone"), now: t0.addingTimeInterval(101)))
        let device = try await PostgresDevices(database: database, tenant: tenant).device(recipient: "ann", identifier: "hook")
        #expect(device?.enabled == false && device?.disabledReason == "410 Gone")
        #expect(try await Self.claim(database, tenant, now: t0.addingTimeInterval(10_000), lease: 60).isEmpty, "dead stays dead")

        // Replay starts it over; another tenant cannot.
        #expect(try await ledger.replay(tenant: "someone-else", id: third.id, now: t0.addingTimeInterval(200)) == false)
        #expect(try await ledger.replay(tenant: tenant, id: third.id, now: t0.addingTimeInterval(200)))
        let replayed = try #require(try await Self.claim(database, tenant, now: t0.addingTimeInterval(200), lease: 60).first)
        #expect(replayed.attempts == 1 && replayed.url == nil, "the device is off now, so the attempt will end it")
        #expect(try await ledger.finish(first, .accepted(status: 200), now: t0.addingTimeInterval(201)) == false, "attempt 1 again, but another claim")
    }

    /// Nodes claiming at once never get the same delivery.
    @Test func concurrentClaimsShareNothing() async throws {
        let t0 = Date(timeIntervalSince1970: 2_000_000_000)
        let (database, tenant) = try await Self.queued(due: t0)
        try await database.transaction { db in
            try PostgresDeliveries.queueWebhooks(
                (2...200).map { .init(tenant: tenant, recipient: "ann", app: "chat", notification: "n\($0)", due: t0, event: Array("{}".utf8)) }, now: t0, in: db)
        }
        let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var mine: [Int64] = []
                    while true {
                        let batch = try await PostgresDeliveries(database: database).claim(now: t0, limit: 7, lease: 60).filter { $0.tenant == tenant }
                        if batch.isEmpty { return mine }
                        mine += batch.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0 += $1 }
        }
        #expect(claims.count == 200 && Set(claims).count == 200)
    }
}
