import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode records fires ahead of their instants; the delivered list, like a stream, shows each only
/// once its instant has come.
@Suite("PostgreSQL store: fires recorded ahead")
struct PostgresDeliveredAheadTests {
    typealias F = PostgresStoreFixtures
    static let app = "com.example.ahead"

    @Test func aFireRecordedAheadIsListedOnceItsInstantHasCome() async throws {
        let store = try await PostgresTestDatabase.freshStore("ahead")
        try await store.saveApp(AppRecord(appIdentifier: Self.app, settings: .granted([.alert]), requestedOptions: [.alert]))
        let now = Date().timeIntervalSince(F.t0)
        let past = try F.pending("past", app: Self.app, at: 10)
        let soon = try F.pending("soon", app: Self.app, at: now + 1)
        let later = try F.pending("later", app: Self.app, at: now + 3_600)
        try await store.addPending([past, soon, later])
        #expect(try await store.recordFires([past, soon, later].map(F.fire)).count == 3)

        func listed() async throws -> [String] {
            try await store.deliveredPage(appIdentifier: nil, after: nil, limit: 10).map(\.notification.request.identifier)
        }
        #expect(try await !listed().contains("later"))
        #expect(try await store.deliveredTotal(appIdentifier: nil) < 3)
        // The fire a second ahead shows once its instant has come; the one an hour ahead still does not.
        try await eventually("the fire a second ahead is listed") { try await listed() == ["soon", "past"] }
        #expect(try await store.deliveredTotal(appIdentifier: nil) == 2)
        #expect(try await store.deliveredTotal(appIdentifier: Self.app) == 2)
        #expect(try await store.deliveredTotal(appIdentifier: "com.example.other") == 0)
    }
}
