import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeStoreCoding
import ChimeTestSupport
import Foundation
import Testing

/// Two tenants in one database: whatever one tenant's store is asked, it answers from and changes only
/// that tenant's rows, even when asked about the other's apps and identifiers by name.
@Suite("PostgreSQL store: tenants")
struct PostgresTenancyTests {
    typealias F = PostgresStoreFixtures
    static let app = "com.example.shared-name"

    @Test func aTenantNeitherSeesNorChangesAnothersRows() async throws {
        let acme = try await PostgresTestDatabase.freshStore("acme")
        let other = try await PostgresTestDatabase.freshStore("other")

        // Acme: an app, requests (dated, undated), a delivered notification with a badge, a missed fire.
        try await acme.saveApp(AppRecord(appIdentifier: Self.app, settings: .granted([.alert]), requestedOptions: [.alert]))
        let due = try F.pending("due", app: Self.app, at: 10, badge: 4)
        try await acme.addPending([due, try F.pending("later", app: Self.app, at: 60), try F.pending("undated", app: Self.app, at: nil)])
        var fire = try F.fire(due)
        fire.missed = MissedFire(requestIdentifier: "due", firstMissedDate: F.t0, lastMissedDate: F.t0, count: 1, outcome: .deliveredLate, detectedDate: F.t0)
        #expect(try await acme.recordFires([fire]).count == 1)

        // The other tenant, asked about the same names, finds nothing.
        #expect(try await other.app(Self.app) == nil)
        #expect(try await other.allApps().isEmpty)
        #expect(try await other.pendingRequests(appIdentifier: Self.app).isEmpty)
        #expect(try await other.pendingRequests([RequestKey(appIdentifier: Self.app, requestIdentifier: "later")]).isEmpty)
        #expect(try await other.pendingTotal(appIdentifier: nil) == 0)
        #expect(try await other.pendingPage(appIdentifier: nil, after: nil, limit: 10).isEmpty)
        #expect(try await other.pendingFires(after: nil, through: F.t0.addingTimeInterval(3600), limit: 10).isEmpty)
        #expect(try await other.deliveredNotifications(appIdentifier: Self.app).isEmpty)
        #expect(try await other.deliveredNotification(appIdentifier: Self.app, identifier: "due") == nil)
        #expect(try await other.deliveredTotal(appIdentifier: nil) == 0)
        #expect(try await other.deliveredPage(appIdentifier: nil, after: nil, limit: 10).isEmpty)
        #expect(try await other.deliveredCount(appIdentifier: Self.app, threadIdentifier: "") == 0)
        #expect(try await other.missedFires(appIdentifier: Self.app).isEmpty)

        // ...and changes nothing of Acme's, whatever it is told to do with those names.
        let later = try F.pending("later", app: Self.app, at: 60)
        #expect(try await other.recordFires([try F.fire(later)]).isEmpty, "a fire of another tenant's request is not applied")
        #expect(try await other.removePending(appIdentifier: Self.app, identifiers: nil).isEmpty)
        #expect(try await other.removePending(appIdentifier: Self.app, identifiers: ["later", "undated"]).isEmpty)
        #expect(try await other.removeDelivered(appIdentifier: Self.app, identifiers: nil).isEmpty)
        try await other.updateNextFireDates([later.key: F.t0])
        try await other.shiftPending([later.key], by: 3600)
        try await other.clearMissedFires(appIdentifier: Self.app)
        let impostor = try DeliveredNotification(
            request: NotificationRequest(identifier: "due", content: NotificationContent(title: "changed by another tenant"), trigger: nil), date: F.t0)
        try await other.updateDelivered(appIdentifier: Self.app, impostor)
        try await other.updateApp(Self.app) { $0.settings = .denied([.alert]) }

        #expect(try await acme.app(Self.app)?.settings.authorizationStatus == .authorized)
        #expect(try await acme.app(Self.app)?.badgeCount == 4)
        #expect(try await other.app(Self.app)?.settings.authorizationStatus == .denied, "the other tenant has its own record now")
        #expect(try await acme.pendingRequests(appIdentifier: Self.app).map(\.request.identifier) == ["later", "undated"])
        #expect(try await acme.pendingRequests(appIdentifier: Self.app).first?.nextFireDate == F.t0.addingTimeInterval(60))
        #expect(try await acme.deliveredNotification(appIdentifier: Self.app, identifier: "due")?.request.content.title == "Title due")
        #expect(try await acme.missedFires(appIdentifier: Self.app).count == 1)
    }

    @Test func recordsAreKeptInTheBytesOfTheStoresSharedCodec() async throws {
        let store = try await PostgresTestDatabase.freshStore("codec")
        let pending = try F.pending("tea", at: 5)
        try await store.addPending([pending])
        let tenant = store.tenant
        let rows = try await PostgresTestDatabase.database().read { db in
            try db.query("SELECT request FROM pending WHERE tenant = $1", [.text(tenant)])
        }
        let bytes = try #require(rows.first?.first?.bytes)
        #expect(bytes == (try StoreRecord.encode(pending.request, form: .wide)), "the PostgreSQL store keeps records in the wide form, which every version reads")
        #expect(StoreRecord.isBinary(bytes))
    }
}
