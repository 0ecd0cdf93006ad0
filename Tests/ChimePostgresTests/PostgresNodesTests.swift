import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeTestSupport
import ChimeTesting
import Foundation
import Testing

/// Several chimed nodes on one database, as separate connection pools: what one records, the other
/// cannot record again; and they migrate a new database once between them.
@Suite("PostgreSQL store: several nodes")
struct PostgresNodesTests {
    typealias F = PostgresStoreFixtures

    @Test func twoNodesRecordingTheSameFiresApplyEachExactlyOnce() async throws {
        let conninfo = try await PostgresTestDatabase.conninfo()
        let first = try await PostgresNotificationStore.open(conninfo: conninfo)
        let second = try await PostgresNotificationStore.open(conninfo: conninfo)
        defer { Task { await first.close(); await second.close() } }
        let tenant = "nodes-\(UUID().uuidString)"
        let nodes = [PostgresNotificationStore(database: first, tenant: tenant), PostgresNotificationStore(database: second, tenant: tenant)]

        let requests = try (0..<300).map { try F.pending("r\($0)", app: "com.example.app\($0 % 3)", at: Double($0 % 7), badge: $0) }
        try await nodes[0].addPending(requests)
        let fires = try requests.map(F.fire)

        // Both nodes record every fire, in batches of 25, in different orders, at the same time.
        let recorded = try await withThrowingTaskGroup(of: [RequestKey].self) { group in
            for (index, node) in nodes.enumerated() {
                var generator = SeededGenerator(seed: UInt64(index + 1))
                let order = fires.shuffled(using: &generator)
                group.addTask {
                    var applied: [RequestKey] = []
                    for start in stride(from: 0, to: order.count, by: 25) {
                        applied += try await node.recordFires(Array(order[start..<min(start + 25, order.count)])).map(\.key)
                    }
                    return applied
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let counts = Dictionary(recorded.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.count == 300, "every fire was applied by one node or the other")
        #expect(counts.values.allSatisfy { $0 == 1 }, "no fire was applied twice")
        #expect(try await nodes[1].pendingTotal(appIdentifier: nil) == 0)
        #expect(try await nodes[1].deliveredTotal(appIdentifier: nil) == 300)
    }

    @Test func nodesStartingTogetherMigrateANewDatabaseOnce() async throws {
        let cluster = try await PostgresCluster.shared()
        let conninfo = try await cluster.freshDatabase()
        let databases = try await withThrowingTaskGroup(of: PostgresDatabase.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresNotificationStore.open(conninfo: conninfo) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for database in databases { await database.close() }
        let versions = try await cluster.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM chime_schema", database: Self.name(of: conninfo))
        #expect(versions == (1...PostgresNotificationStore.schemaVersion).map(String.init).joined(separator: ","))
    }

    @Test func aDatabaseOfANewerSchemaIsRefusedUntouched() async throws {
        let cluster = try await PostgresCluster.shared()
        let conninfo = try await cluster.freshDatabase()
        try await PostgresNotificationStore.open(conninfo: conninfo).close()
        let database = Self.name(of: conninfo)
        try await cluster.psql("INSERT INTO chime_schema (version, name) VALUES (999, 'from the future')", database: database)
        let error = await #expect(throws: PostgresError.self) { try await PostgresNotificationStore.open(conninfo: conninfo) }
        #expect(error?.kind == .schemaTooNew)
        #expect(error?.description.contains("999") == true, "\(String(describing: error))")
        #expect(try await cluster.psql("SELECT count(*) FROM chime_schema", database: database) == "\(PostgresNotificationStore.schemaVersion + 1)")
    }

    static func name(of conninfo: String) -> String {
        conninfo.split(separator: " ").first { $0.hasPrefix("dbname=") }.map { String($0.dropFirst("dbname=".count)) } ?? ""
    }
}
