import ChimeSQLite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files that are not sound SQLite databases are refused with a typed error and left byte for byte as
/// they were.
@Suite("Refusing damaged files")
struct SQLiteOpenRefusalTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let migrations = [
        SQLiteMigration(version: 1, name: "items", sql: """
            CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE INDEX item_title ON item(title);
            """),
    ]

    /// Writes `file` as a real database of about 100 pages (4 KiB each), closed and checkpointed.
    func makeDatabase(_ file: String) async throws -> Data {
        let database = try await SQLiteDatabase(path: directory.path(file), migrations: Self.migrations)
        try await database.write { db in
            let insert = try db.prepare("INSERT INTO item(title) VALUES (?)")
            for index in 0..<2_000 {
                try insert.run([.text("Reminder number \(index) with some padding text")])
            }
        }
        await database.close()
        return try directory.bytes(file)
    }

    /// Opens `file`, expecting a refusal with `code`, and checks that the file did not change.
    func expectRefusal(_ file: String, _ code: SQLiteError.Code, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SQLiteError? {
        let before = try directory.bytes(file)
        let error = await #expect(throws: SQLiteError.self, sourceLocation: sourceLocation) {
            _ = try await SQLiteDatabase(path: directory.path(file), migrations: Self.migrations)
        }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(try directory.bytes(file) == before, "the refused file was modified", sourceLocation: sourceLocation)
        return error
    }

    @Test func aTextFileIsRefusedUntouched() async throws {
        let text = String(repeating: "Dear diary, today I set an alarm for 7:30.\n", count: 20)
        try directory.write(Data(text.utf8), to: "diary.txt")
        let error = try await expectRefusal("diary.txt", .notADatabase)
        #expect(error?.description == "SQLiteError.notADatabase: the file is not a SQLite database; it was left untouched")
        #expect(!FileManager.default.fileExists(atPath: directory.path("diary.txt-wal")))
    }

    @Test func aFileShorterThanTheHeaderIsRefusedUntouched() async throws {
        try directory.write(Data("SQLite format 3\0".utf8), to: "short.sqlite")
        _ = try await expectRefusal("short.sqlite", .notADatabase)
    }

    @Test func randomBytesAreRefusedUntouched() async throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try directory.write(Data(bytes), to: "random.bin")
        _ = try await expectRefusal("random.bin", .notADatabase)
    }

    @Test func aTruncatedDatabaseIsRefusedUntouched() async throws {
        let whole = try await makeDatabase("truncated.sqlite")
        try directory.write(whole.prefix(whole.count / 2), to: "truncated.sqlite")
        let error = try await expectRefusal("truncated.sqlite", .corrupt)
        #expect(error?.message.hasSuffix("it was left untouched") == true)
    }

    @Test func aDatabaseWithADamagedPageIsRefusedUntouched() async throws {
        var bytes = try await makeDatabase("damaged.sqlite")
        // Page 3 is a b-tree page of the table or its index; overwrite its header.
        let pageSize = 4096
        bytes.replaceSubrange(2 * pageSize..<(2 * pageSize + 64), with: [UInt8](repeating: 0xAB, count: 64))
        try directory.write(bytes, to: "damaged.sqlite")
        let error = try await expectRefusal("damaged.sqlite", .corrupt)
        #expect(error?.message.contains("corrupt") == true || error?.message.contains("integrity") == true)
    }

    @Test func aDamagedFileAboveTheCheckLimitOpensAndFailsTheExplicitCheck() async throws {
        var bytes = try await makeDatabase("large.sqlite")
        let pageSize = 4096
        bytes.replaceSubrange(2 * pageSize..<(2 * pageSize + 64), with: [UInt8](repeating: 0xAB, count: 64))
        try directory.write(bytes, to: "large.sqlite")
        let above = SQLiteDatabase.Configuration(integrityCheckSizeLimit: bytes.count - 1)
        let database = try await SQLiteDatabase(path: directory.path("large.sqlite"), migrations: Self.migrations, configuration: above)
        let error = await #expect(throws: SQLiteError.self) { try await database.checkIntegrity() }
        #expect(error?.code == .corrupt)
        await database.close()

        try directory.write(bytes, to: "within.sqlite")
        let within = SQLiteDatabase.Configuration(integrityCheckSizeLimit: bytes.count)
        await #expect(throws: SQLiteError.self) {
            _ = try await SQLiteDatabase(path: directory.path("within.sqlite"), migrations: Self.migrations, configuration: within)
        }
    }

    @Test func aSoundDatabasePassesTheExplicitCheck() async throws {
        _ = try await makeDatabase("sound.sqlite")
        let database = try await SQLiteDatabase(path: directory.path("sound.sqlite"), migrations: Self.migrations)
        try await database.checkIntegrity()
        await database.close()
    }

    @Test func anEmptyFileBecomesANewDatabaseAndSaysSo() async throws {
        try directory.write(Data(), to: "empty.sqlite")
        let database = try await SQLiteDatabase(path: directory.path("empty.sqlite"), migrations: Self.migrations)
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM item") } == [[0]])
        #expect(database.foundEmptyFile)
        await database.close()
        let reopened = try await SQLiteDatabase(path: directory.path("empty.sqlite"), migrations: Self.migrations)
        #expect(!reopened.foundEmptyFile, "once it holds a database it is not empty")
        let created = try await SQLiteDatabase(path: directory.path("new.sqlite"), migrations: Self.migrations)
        #expect(!created.foundEmptyFile, "a file that was not there was not found empty")
    }

    @Test func aNewDatabaseAndItsLogAreReadableOnlyByTheirOwner() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let database = try await SQLiteDatabase(path: directory.path("private.sqlite"), migrations: Self.migrations)
        try await database.write { db in try db.execute("INSERT INTO item(title) VALUES ('secret')") }
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("private.sqlite" + suffix))
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "private.sqlite\(suffix)")
        }
        await database.close()
    }

    @Test func aMissingDirectoryCannotBeOpened() async throws {
        let error = await #expect(throws: SQLiteError.self) {
            _ = try await SQLiteDatabase(path: directory.path("no/such/dir.sqlite"))
        }
        #expect(error?.code == .cantOpen)
    }
}
