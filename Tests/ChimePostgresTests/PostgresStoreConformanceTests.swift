import ChimeEngine
import ChimePostgres
import ChimeTestSupport
import ChimeTesting
import Testing

/// The SQLite store's conformance checks, on PostgreSQL: every check on a tenant of its own in one shared
/// database, while the other checks write theirs.
@Suite("PostgreSQL store: conformance")
struct PostgresStoreConformanceTests {
    @Test(arguments: StoreConformance.checks)
    func conforms(check: StoreConformance.Check) async throws {
        try await check.run(on: PostgresTestDatabase.freshStore())
    }
}
