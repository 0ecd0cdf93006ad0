public import ChimePostgres
import Foundation
import Synchronization

/// The database the PostgreSQL tests share, in the test process's throwaway cluster, and a new tenant for
/// each store: tests run side by side in one database, each seeing only its own tenant's rows, which is
/// itself a check of the store's tenant scoping.
public enum PostgresTestDatabase {
    private static let shared = SharedDatabase()
    private static let tenants = Atomic<Int>(0)

    public static func database() async throws -> PostgresDatabase {
        try await shared.get()
    }

    /// A store of a tenant no other test uses.
    public static func freshStore(_ label: String = "tenant") async throws -> PostgresNotificationStore {
        PostgresNotificationStore(database: try await database(), tenant: "\(label)-\(tenants.add(1, ordering: .relaxed).newValue)")
    }

    /// The connection string of the shared database.
    public static func conninfo() async throws -> String {
        try await shared.conninfo()
    }
}

private actor SharedDatabase {
    private var opened: Task<(String, PostgresDatabase), any Error>?

    private func open() -> Task<(String, PostgresDatabase), any Error> {
        if let opened { return opened }
        let task = Task {
            let conninfo = try await PostgresCluster.shared().freshDatabase()
            return (conninfo, try await PostgresNotificationStore.open(conninfo: conninfo))
        }
        opened = task
        return task
    }

    func get() async throws -> PostgresDatabase { try await open().value.1 }
    func conninfo() async throws -> String { try await open().value.0 }
}
