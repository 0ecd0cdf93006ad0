import ChimeEngine
import ChimeTesting
import Testing

@Suite("In-memory store conformance")
struct InMemoryStoreConformanceTests {
    @Test(arguments: StoreConformance.checks)
    func conforms(check: StoreConformance.Check) async throws {
        try await check.run(on: InMemoryNotificationStore())
    }
}
