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
        let past = try F.pending("past", app: Self.app, at: 10)
        let ahead = try F.pending("ahead", app: Self.app, at: Date().timeIntervalSince(F.t0) + 2)
        try await store.addPending([past, ahead])
        #expect(try await store.recordFires([try F.fire(past), try F.fire(ahead)]).count == 2)

        func listed() async throws -> [String] {
            try await store.deliveredPage(appIdentifier: nil, after: nil, limit: 10).map(\.notification.request.identifier)
        }
        #expect(try await listed() == ["past"])
        #expect(try await store.deliveredTotal(appIdentifier: nil) == 1)
        #expect(try await store.deliveredTotal(appIdentifier: Self.app) == 1)

        try await Task.sleep(for: .seconds(2.2))
        #expect(try await listed() == ["ahead", "past"])
        #expect(try await store.deliveredTotal(appIdentifier: nil) == 2)
        #expect(try await store.deliveredTotal(appIdentifier: "com.example.other") == 0)
    }
}
