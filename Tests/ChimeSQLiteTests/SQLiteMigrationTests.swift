import ChimeSQLite
import Foundation
import Testing

/// Schema migrations, kept in `PRAGMA user_version`, applied across real reopenings of one file.
@Suite("SQLite migrations")
struct SQLiteMigrationTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("migrations.sqlite")
    }

    /// Migrations 1…`count`; each one records its version in `log`, so the log shows what ran, and when.
    static func migrations(_ count: Int) -> [SQLiteMigration] {
        var migrations = [SQLiteMigration(version: 1, name: "log", sql: """
            CREATE TABLE log(version INTEGER NOT NULL);
            INSERT INTO log(version) VALUES (1);
            """)]
        for version in 2...max(2, count) where version <= count {
            migrations.append(SQLiteMigration(version: version, name: "step \(version)") { db throws(SQLiteError) in
                try db.execute("INSERT INTO log(version) VALUES (?)", arguments: [.integer(Int64(version))])
            })
        }
        return migrations
    }

    func log(_ database: SQLiteDatabase) async throws -> [[SQLiteValue]] {
        try await database.read { db in try db.query("SELECT version FROM log ORDER BY rowid") }
    }

    func schemaVersion(_ database: SQLiteDatabase) async throws -> [[SQLiteValue]] {
        try await database.read { db in try db.query("PRAGMA user_version") }
    }

    @Test func migrationsRunInOrderOnceEach() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations(3))
        #expect(try await log(database) == [[1], [2], [3]])
        #expect(try await schemaVersion(database) == [[3]])
    }

    @Test func reopeningAppliesOnlyWhatIsNew() async throws {
        let first = try await SQLiteDatabase(path: path, migrations: Self.migrations(2))
        await first.close()

        let same = try await SQLiteDatabase(path: path, migrations: Self.migrations(2))
        #expect(try await log(same) == [[1], [2]])
        await same.close()

        let newer = try await SQLiteDatabase(path: path, migrations: Self.migrations(4))
        #expect(try await log(newer) == [[1], [2], [3], [4]])
        #expect(try await schemaVersion(newer) == [[4]])
    }

    @Test func aFailingMigrationRollsBackAloneAndStopsOpening() async throws {
        let failing = Self.migrations(2) + [
            SQLiteMigration(version: 3, name: "broken", sql: """
                CREATE TABLE half(id INTEGER);
                INSERT INTO log(version) VALUES (3);
                INSERT INTO nowhere VALUES (1);
                """),
            SQLiteMigration(version: 4, name: "never") { db throws(SQLiteError) in
                try db.execute("INSERT INTO log(version) VALUES (4)")
            },
        ]
        let error = await #expect(throws: SQLiteError.self) {
            _ = try await SQLiteDatabase(path: path, migrations: failing)
        }
        #expect(error?.message.hasPrefix("migration 3 \"broken\" failed: ") == true)
        #expect(error?.sql == "INSERT INTO nowhere VALUES (1);")

        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations(2))
        #expect(try await log(database) == [[1], [2]])
        #expect(try await schemaVersion(database) == [[2]])
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM sqlite_schema WHERE name = 'half'") } == [[0]])
    }

    @Test func aMigrationCanFailWithItsOwnError() async throws {
        let migrations = Self.migrations(1) + [
            SQLiteMigration(version: 2, name: "checks data") { _ throws(SQLiteError) in
                throw SQLiteError(.constraint, "a legacy row cannot be converted")
            },
        ]
        let error = await #expect(throws: SQLiteError.self) {
            _ = try await SQLiteDatabase(path: path, migrations: migrations)
        }
        #expect(error?.code == .constraint)
        #expect(error?.message == "migration 2 \"checks data\" failed: a legacy row cannot be converted")
    }

    @Test func aNewerSchemaIsRefusedAndTheFileIsUnchanged() async throws {
        let newer = try await SQLiteDatabase(path: path, migrations: Self.migrations(3))
        await newer.close()
        let before = try directory.bytes("migrations.sqlite")

        let error = await #expect(throws: SQLiteError.self) {
            _ = try await SQLiteDatabase(path: path, migrations: Self.migrations(2))
        }
        #expect(error?.code == .schemaTooNew)
        #expect(error?.description == """
            SQLiteError.schemaTooNew: the database's schema version 3 is newer than the newest this program \
            knows (2); it was left untouched
            """)
        #expect(try directory.bytes("migrations.sqlite") == before)

        let again = try await SQLiteDatabase(path: path, migrations: Self.migrations(3))
        #expect(try await log(again) == [[1], [2], [3]])
    }

    @Test func migrationsTouchedConcurrentlyBySeveralOpenersRunOnce() async throws {
        let path = path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let database = try await SQLiteDatabase(path: path, migrations: Self.migrations(3))
                    await database.close()
                }
            }
            try await group.waitForAll()
        }
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations(3))
        #expect(try await log(database) == [[1], [2], [3]])
    }
}
