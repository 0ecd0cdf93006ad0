/// One step of a database's schema history: a version, a name, and the SQL or code that gets there.
///
/// ``SQLiteDatabase`` applies the migrations whose version is above the database's schema version
/// (`PRAGMA user_version`), in ascending order, each in its own transaction that also records its
/// version. A migration that fails rolls back alone: the database stays at the previous version and
/// opening throws. Applied migrations never run again, so opening is idempotent. A database whose
/// version is above every known migration was written by newer code and is refused (`.schemaTooNew`).
///
/// ```swift
/// let migrations = [
///     SQLiteMigration(version: 1, name: "requests", sql: """
///         CREATE TABLE request(id TEXT PRIMARY KEY, content BLOB NOT NULL);
///         """),
///     SQLiteMigration(version: 2, name: "fire date index") { db throws(SQLiteError) in
///         try db.execute("CREATE INDEX request_fire ON request(fire_date)")
///     },
/// ]
/// let database = try await SQLiteDatabase(path: path, migrations: migrations)
/// ```
///
/// Versions are positive and strictly ascending; released migrations are never edited, only followed
/// by new ones. `PRAGMA foreign_keys` cannot change inside a transaction, so a migration that rebuilds a
/// table referenced by foreign keys must keep the references valid at every statement.
public struct SQLiteMigration: Sendable {
    /// The schema version the database has once this migration is applied.
    public let version: Int
    /// A short name for errors and logs.
    public let name: String
    let apply: @Sendable (SQLiteConnection) throws(SQLiteError) -> Void

    /// A migration that runs a SQL script.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { db throws(SQLiteError) in try db.execute(sql) }
    }

    /// A migration that runs code, on the writer's connection, inside the migration's transaction.
    ///
    /// The closure must not begin, commit or roll back transactions (savepoints are fine).
    public init(version: Int, name: String, _ apply: @escaping @Sendable (SQLiteConnection) throws(SQLiteError) -> Void) {
        precondition(version > 0, "migration versions start at 1")
        self.version = version
        self.name = name
        self.apply = apply
    }
}

extension [SQLiteMigration] {
    /// Traps unless the versions ascend strictly: a misordered list is a programming error.
    func checkOrder() {
        for (earlier, later) in zip(self, dropFirst()) {
            precondition(earlier.version < later.version, "migration versions must ascend: \(earlier.version) then \(later.version)")
        }
    }
}
