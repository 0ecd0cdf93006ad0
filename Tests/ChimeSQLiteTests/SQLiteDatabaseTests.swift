import ChimeSQLite
import Foundation
import Testing

/// Reads, writes, transactions and settings of a database opened on a real file.
@Suite("SQLite database")
struct SQLiteDatabaseTests {
    struct Oops: Error {}

    static let migrations = [
        SQLiteMigration(version: 1, name: "people", sql: """
            CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE pet(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL REFERENCES person(id), name TEXT NOT NULL);
            """),
    ]

    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("database.sqlite")
    }

    func open() async throws -> SQLiteDatabase {
        try await SQLiteDatabase(path: path, migrations: Self.migrations)
    }

    @Test func aWriteReturnsItsValueOnceReadsCanSeeIt() async throws {
        let database = try await open()
        let id = try await database.write { db in
            try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"])
            return db.lastInsertRowID
        }
        let names = try await database.read { db in
            try db.query("SELECT name FROM person WHERE id = ?", arguments: [.integer(id)])
        }
        #expect(names == [["Ada"]])
        #expect(database.committedTransactionCount == 1)
    }

    @Test func aWriteThatThrowsLeavesNothing() async throws {
        let database = try await open()
        await #expect(throws: Oops.self) {
            try await database.write { db in
                try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"])
                try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Grace"])
                throw Oops()
            }
        }
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM person") } == [[0]])
    }

    @Test func aWriteThatViolatesAConstraintLeavesNothing() async throws {
        let database = try await open()
        let error = await #expect(throws: SQLiteError.self) {
            try await database.write { db in
                try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"])
                try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"])
            }
        }
        #expect(error?.extendedCode == .constraintUnique)
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM person") } == [[0]])
    }

    @Test func foreignKeysAreEnforced() async throws {
        let database = try await open()
        let error = await #expect(throws: SQLiteError.self) {
            try await database.write { db in
                try db.execute("INSERT INTO pet(owner, name) VALUES (?, ?)", arguments: [42, "Rex"])
            }
        }
        #expect(error?.extendedCode == .constraintForeignKey)
    }

    @Test func writeAheadLoggingAndFullSynchronousAreInEffect() async throws {
        let database = try await open()
        let writer = try await database.write { db in
            try db.query("PRAGMA journal_mode").first! + db.query("PRAGMA synchronous").first! + db.query("PRAGMA foreign_keys").first!
        }
        // synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
        #expect(writer == ["wal", 2, 1])
        let reader = try await database.read { db in try db.query("PRAGMA journal_mode") }
        #expect(reader == [["wal"]])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func dataWrittenIsThereAfterClosingAndReopening() async throws {
        let first = try await open()
        try await first.write { db in
            try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada 🔔"])
        }
        await first.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closing checkpoints the log into the file")

        let second = try await open()
        #expect(try await second.read { db in try db.query("SELECT name FROM person") } == [["Ada 🔔"]])
    }

    @Test func aGrowingLogIsCopiedIntoTheFileWhileTheDatabaseIsOpen() async throws {
        let database = try await open()
        // About 1,500 pages of names, in commits of 100 rows: past the checkpoint threshold.
        for batch in 0..<15 {
            try await database.write { db in
                let insert = try db.prepare("INSERT INTO person(name) VALUES (?)")
                for index in 0..<100 { try insert.run([.text("\(batch)-\(index) " + String(repeating: "x", count: 3_900))]) }
            }
        }
        // The checkpointer copies the log into the file on its own queue, without a commit waiting for it.
        let deadline = ContinuousClock.now + .seconds(10)
        var fileSize = 0
        while ContinuousClock.now < deadline {
            fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            if fileSize >= 1_000 * 4_096 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(fileSize >= 1_000 * 4_096, "the log was copied into the database file")
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM person") } == [[1_500]])
        await database.close()
    }

    @Test func aClosedDatabaseRefusesReadsAndWrites() async throws {
        let database = try await open()
        await database.close()
        let write = await #expect(throws: SQLiteError.self) {
            try await database.write { db in try db.execute("DELETE FROM person") }
        }
        #expect(write?.code == .misuse)
        let read = await #expect(throws: SQLiteError.self) {
            try await database.read { db in try db.query("SELECT 1") }
        }
        #expect(read?.code == .misuse)
        await database.close()
    }

    @Test func readsCannotWrite() async throws {
        let database = try await open()
        let error = await #expect(throws: SQLiteError.self) {
            try await database.read { db in try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"]) }
        }
        #expect(error?.code == .readOnly)
    }

    @Test(arguments: ["COMMIT", "ROLLBACK", "BEGIN", "END"])
    func closuresCannotEndTheirTransaction(statement: String) async throws {
        let database = try await open()
        let error = await #expect(throws: SQLiteError.self) {
            try await database.write { db in
                try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"])
                try db.execute(statement)
            }
        }
        #expect(error?.code == .authorization)
        await #expect(throws: SQLiteError.self) {
            try await database.read { db in try db.execute(statement) }
        }
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM person") } == [[0]])
    }

    @Test func savepointsInsideAWriteAreAllowed() async throws {
        let database = try await open()
        try await database.write { db in
            try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Ada"])
            try db.execute("SAVEPOINT inner")
            try db.execute("INSERT INTO person(name) VALUES (?)", arguments: ["Grace"])
            try db.execute("ROLLBACK TO inner")
            try db.execute("RELEASE inner")
        }
        #expect(try await database.read { db in try db.query("SELECT name FROM person") } == [["Ada"]])
    }

    @Test func aReadSeesOneSnapshot() async throws {
        let database = try await open()
        try await database.write { db in try db.execute("INSERT INTO person(name) VALUES ('Ada')") }
        let path = path
        let counts = try await database.read { db in
            let before = try db.query("SELECT count(*) FROM person")
            // A second connection commits in the middle of the read.
            let other = try SQLiteConnection(path: path, flags: [.readWrite])
            try other.execute("INSERT INTO person(name) VALUES ('Grace')")
            return before + (try db.query("SELECT count(*) FROM person"))
        }
        #expect(counts == [[1], [1]])
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM person") } == [[2]])
    }
}
