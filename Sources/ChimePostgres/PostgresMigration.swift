/// One step of the database's schema history: a version, a name, and the SQL that gets there.
///
/// `PostgresDatabase` applies the migrations above the database's version (kept in `chime_schema`), in
/// ascending order, each in its own transaction that also records its version, while holding an advisory
/// lock: several nodes starting at once against one database migrate it once, the others wait and find it
/// done. A database whose version is above every known migration was written by newer code and is refused
/// (`.schemaTooNew`) untouched. Released migrations are never edited, only followed by new ones.
public struct PostgresMigration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        precondition(version > 0, "migration versions start at 1")
        self.version = version
        self.name = name
        self.sql = sql
    }
}

extension PostgresConnection {
    /// The key of the advisory lock migrations hold (an arbitrary constant: "chime" in ASCII).
    static let migrationLock: Int64 = 0x63_68_69_6D_65

    /// Brings the database to the newest migration's version; see `PostgresMigration`.
    func migrate(_ migrations: [PostgresMigration]) throws(PostgresError) {
        for (earlier, later) in zip(migrations, migrations.dropFirst()) {
            precondition(earlier.version < later.version, "migration versions must ascend: \(earlier.version) then \(later.version)")
        }
        let newest = migrations.last?.version ?? 0
        // Under the lock too: two sessions creating the same table at once can both fail.
        try execute("BEGIN")
        do throws(PostgresError) {
            try query("SELECT pg_advisory_xact_lock($1)", [.integer(Self.migrationLock)])
            try execute(
                """
                CREATE TABLE IF NOT EXISTS chime_schema (
                    version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())
                """)
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        for migration in migrations {
            try execute("BEGIN")
            do throws(PostgresError) {
                try query("SELECT pg_advisory_xact_lock($1)", [.integer(Self.migrationLock)])
                let current = try query("SELECT coalesce(max(version), 0)::int8 FROM chime_schema").first?.first?.integer ?? 0
                if current > newest {
                    throw PostgresError(
                        .schemaTooNew, "the database's schema is version \(current), newer than this Chime knows (\(newest)); nothing was changed")
                }
                if migration.version > current {
                    try execute(migration.sql)
                    try query("INSERT INTO chime_schema (version, name) VALUES ($1, $2)", [.integer(Int64(migration.version)), .text(migration.name)])
                }
                try execute("COMMIT")
            } catch {
                try? execute("ROLLBACK")
                if error.kind == .server {
                    throw PostgresError(.server, "migration \(migration.version) \"\(migration.name)\" failed: \(error.message)", sqlState: error.sqlState, sql: error.sql)
                }
                throw error
            }
        }
    }
}
