import ChimeCore
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
            try PostgresDeliveries.queueDeliveries([Self.fired(tenant, "n1", due: due, event: #"{"x":1}"#)], now: due, in: db)
        }
        return (database, tenant)
    }

    static func fired(_ tenant: String, _ notification: String, due: Date, event: String = "{}") -> PostgresDeliveries.Fired {
        .init(
            tenant: tenant, recipient: "ann", app: "chat", notification: notification, due: due, event: Array(event.utf8),
            apns: { APNsPush(content: NotificationContent(), identifier: notification, title: "Hi", subtitle: "", body: "", due: due, quietly: false) })
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
        #expect(first.attempts == 1 && first.address == "https://example.com/hook" && first.channel == "webhook" && first.headers.isEmpty && first.secrets == ["whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"])
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
        #expect(replayed.attempts == 1 && replayed.address == nil, "the device is off now, so the attempt will end it")
        #expect(try await ledger.finish(first, .accepted(status: 200), now: t0.addingTimeInterval(201)) == false, "attempt 1 again, but another claim")
    }

    /// Nodes claiming at once never get the same delivery.
    @Test func concurrentClaimsShareNothing() async throws {
        let t0 = Date(timeIntervalSince1970: 2_000_000_000)
        let (database, tenant) = try await Self.queued(due: t0)
        try await database.transaction { db in
            try PostgresDeliveries.queueDeliveries((2...200).map { Self.fired(tenant, "n\($0)", due: t0) }, now: t0, in: db)
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

    /// An APNs device gets the APNs payload and headers, with the tenant's key; APNs' `Unregistered` turns it
    /// off only when it was not registered again after APNs' timestamp.
    @Test func anAPNsDeviceGetsItsPushAndIsTurnedOffOnlyIfNotRegisteredSince() async throws {
        let t0 = Date(timeIntervalSince1970: 2_000_000_000)
        let (database, tenant) = try await Self.queued(due: t0)
        let devices = PostgresDevices(database: database, tenant: tenant)
        let token = String(repeating: "ab", count: 32)
        _ = try await devices.save(
            recipient: "ann", identifier: "phone", channel: .apns(token: token, topic: "com.example.chat", environment: .development), enabled: true,
            now: t0)
        let ledger = PostgresDeliveries(database: database)
        try await ledger.setAPNsKey(tenant: tenant, APNsKeyRecord(teamID: "TEAM000001", keyID: "KEY0000001", pem: "pem"))
        try await database.transaction { db in try PostgresDeliveries.queueDeliveries([Self.fired(tenant, "n2", due: t0)], now: t0, in: db) }
        let claimed = try await Self.claim(database, tenant, now: t0, lease: 60)
        let push = try #require(claimed.first { $0.channel == "apns" })
        #expect(claimed.count == 3, "n1 and n2 for the webhook, n2 for the phone")
        #expect(push.address == token && push.topic == "com.example.chat" && push.environment == "development")
        #expect(push.apnsKey == APNsKeyRecord(teamID: "TEAM000001", keyID: "KEY0000001", pem: "pem"))
        #expect(String(decoding: push.body, as: UTF8.self) == #"{"aps":{"alert":{"title":"Hi"}}}"#)
        #expect(APNsPush.headers(fromLines: push.headers)["apns-collapse-id"] == "n2")

        // Registered again (updated) after APNs' timestamp: it stays on.
        #expect(try await ledger.finish(push, .dead(status: 410, error: "gone", disablingDevice: "APNs: Unregistered", disabledSince: t0.addingTimeInterval(-10)), now: t0))
        #expect(try await devices.device(recipient: "ann", identifier: "phone")?.enabled == true)
        // Not registered since: off, since APNs' timestamp.
        try await database.transaction { db in try PostgresDeliveries.queueDeliveries([Self.fired(tenant, "n3", due: t0)], now: t0, in: db) }
        let again = try #require(try await Self.claim(database, tenant, now: t0, lease: 60).first { $0.channel == "apns" })
        #expect(try await ledger.finish(again, .dead(status: 410, error: "gone", disablingDevice: "APNs: Unregistered", disabledSince: t0.addingTimeInterval(5)), now: t0.addingTimeInterval(9)))
        let device = try await devices.device(recipient: "ann", identifier: "phone")
        #expect(device?.enabled == false && device?.disabledReason == "APNs: Unregistered" && device?.disabledDate == t0.addingTimeInterval(5))
    }
}
