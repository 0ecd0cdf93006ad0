import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// The server restarting under a running store: calls made meanwhile wait and succeed; a server that
/// stays away gives a typed error, not a hang; nothing acknowledged is lost.
@Suite("PostgreSQL store: server restarts")
struct PostgresRestartTests {
    typealias F = PostgresStoreFixtures

    @Test func aRestartCostsCallersAPauseAndAnOutageATypedError() async throws {
        // A cluster of its own: the shared one must stay up for the other tests.
        let cluster = try await PostgresCluster.start()
        do {
            let conninfo = try await cluster.freshDatabase()
            let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 2, retryFor: .seconds(20)))
            let store = PostgresNotificationStore(database: database, tenant: "restart")
            try await store.addPending([try F.pending("before", at: 10)])

            // Down, then a write made while it is down, then up again: the write waits and lands.
            try await cluster.stopServer()
            let write = Task { try await store.addPending([try F.pending("during", at: 20)]) }
            try await Task.sleep(for: .milliseconds(700))
            try await cluster.startServer()
            try await write.value
            #expect(try await store.pendingRequests(appIdentifier: "com.example.server").map(\.request.identifier) == ["before", "during"])
            await database.close()

            // A pool that gives up after a second, against a server that stays down: a connection error.
            let impatient = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 1, retryFor: .seconds(1)))
            let store2 = PostgresNotificationStore(database: impatient, tenant: "restart")
            try await cluster.stopServer()
            let started = ContinuousClock.now
            let error = await #expect(throws: PostgresError.self) { try await store2.addPending([try F.pending("lost", at: 30)]) }
            #expect(error?.kind == .connection, "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(10), "it gave up instead of hanging")
            try await cluster.startServer()
            #expect(try await store2.pendingRequests(appIdentifier: "com.example.server").map(\.request.identifier) == ["before", "during"])
            await impatient.close()
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
