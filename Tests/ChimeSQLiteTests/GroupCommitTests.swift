import ChimeSQLite
import Dispatch
import Foundation
import Testing

/// Concurrent writes share transactions, each keeps its own outcome, and none is acknowledged before
/// the commit that holds it.
@Suite("Group commit")
struct GroupCommitTests {
    struct Refused: Error, Equatable {
        let id: Int
    }

    static let migrations = [
        SQLiteMigration(version: 1, name: "events", sql: "CREATE TABLE event(id INTEGER PRIMARY KEY, note TEXT NOT NULL)"),
    ]

    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("group-commit.sqlite")
    }

    /// Waits for `gate` to open and leaves it open: a write closure may run more than once.
    static func pass(_ gate: DispatchSemaphore) {
        gate.wait()
        gate.signal()
    }

    func ids(_ database: SQLiteDatabase) async throws -> [[SQLiteValue]] {
        try await database.read { db in try db.query("SELECT id FROM event ORDER BY id") }
    }

    @Test func twoHundredConcurrentWritesAllLandInFarFewerTransactions() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...200 {
                group.addTask {
                    try await database.write { db in
                        try db.execute("INSERT INTO event(id, note) VALUES (?, ?)", arguments: [.integer(Int64(id)), "written"])
                    }
                    // Acknowledged means committed: the reader connection already sees the row.
                    let seen = try await database.read { db in
                        try db.query("SELECT count(*) FROM event WHERE id = ?", arguments: [.integer(Int64(id))])
                    }
                    #expect(seen == [[1]])
                }
            }
            try await group.waitForAll()
        }
        #expect(try await ids(database) == (1...200).map { [.integer(Int64($0))] })
        let transactions = database.committedTransactionCount
        print("group commit: 200 concurrent writes in \(transactions) transactions")
        #expect(transactions < 200)
    }

    @Test func aFailingWriteInABatchLosesNoOtherWrite() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        // The first write holds the writer until every other write has been submitted, so those all
        // wait together and form at most two batches (some may join the first).
        let release = DispatchSemaphore(value: 0)
        let first = database.submitWrite { db in
            Self.pass(release)
            try db.execute("INSERT INTO event(id, note) VALUES (0, 'first')")
        }
        let writes = (1...20).map { id in
            database.submitWrite { db in
                try db.execute("INSERT INTO event(id, note) VALUES (?, 'half')", arguments: [.integer(Int64(id))])
                if id.isMultiple(of: 7) { throw Refused(id: id) }
                try db.execute("UPDATE event SET note = 'whole' WHERE id = ?", arguments: [.integer(Int64(id))])
                return id
            }
        }
        release.signal()

        try await first.value
        for (offset, write) in writes.enumerated() {
            let id = offset + 1
            if id.isMultiple(of: 7) {
                await #expect(throws: Refused(id: id)) { try await write.value }
            } else {
                #expect(try await write.value == id)
            }
        }
        let notes = try await database.read { db in try db.query("SELECT id, note FROM event ORDER BY id") }
        let expected: [[SQLiteValue]] = [[0, "first"]] + (1...20).filter { !$0.isMultiple(of: 7) }.map { [.integer(Int64($0)), "whole"] }
        #expect(notes == expected)
        #expect(database.committedTransactionCount <= 2)
    }

    @Test func aConstraintViolationInABatchRollsBackOnlyThatWrite() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        let release = DispatchSemaphore(value: 0)
        let gate = database.submitWrite { _ in Self.pass(release) }
        let ada = database.submitWrite { db in try db.execute("INSERT INTO event(id, note) VALUES (1, 'Ada')") }
        let duplicate = database.submitWrite { db in try db.execute("INSERT INTO event(id, note) VALUES (1, 'again')") }
        let grace = database.submitWrite { db in try db.execute("INSERT INTO event(id, note) VALUES (2, 'Grace')") }
        release.signal()

        try await gate.value
        try await ada.value
        let error = await #expect(throws: SQLiteError.self) { try await duplicate.value }
        #expect(error?.extendedCode == .constraintPrimaryKey)
        try await grace.value
        #expect(try await database.read { db in try db.query("SELECT note FROM event ORDER BY id") } == [["Ada"], ["Grace"]])
    }

    @Test func writesApplyInTheOrderTheyWereSubmitted() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        let writes = (1...50).map { step in
            database.submitWrite { db in
                try db.execute("""
                    INSERT INTO event(id, note) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET note = note || ',' || excluded.note
                    """, arguments: [.text(String(step))])
            }
        }
        for write in writes { try await write.value }
        let note = try await database.read { db in try db.query("SELECT note FROM event") }
        #expect(note == [[.text((1...50).map(String.init).joined(separator: ","))]])
    }

    @Test func aWriteThatMakesSQLiteRollBackTheWholeTransactionCostsTheOthersNothing() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations + [
            // ON CONFLICT ROLLBACK makes SQLite end the whole transaction, not just the statement.
            SQLiteMigration(version: 2, name: "strict", sql: "CREATE TABLE strict(id INTEGER PRIMARY KEY ON CONFLICT ROLLBACK)"),
        ])
        let release = DispatchSemaphore(value: 0)
        let gate = database.submitWrite { _ in Self.pass(release) }
        let before = database.submitWrite { db in try db.execute("INSERT INTO event(id, note) VALUES (1, 'before')") }
        let conflict = database.submitWrite { db in
            try db.execute("INSERT INTO strict(id) VALUES (1)")
            try db.execute("INSERT INTO strict(id) VALUES (1)")
        }
        let after = database.submitWrite { db in try db.execute("INSERT INTO event(id, note) VALUES (2, 'after')") }
        release.signal()

        try await gate.value
        try await before.value
        let error = await #expect(throws: SQLiteError.self) { try await conflict.value }
        #expect(error?.code == .constraint)
        try await after.value
        #expect(try await database.read { db in try db.query("SELECT note FROM event ORDER BY id") } == [["before"], ["after"]])
        #expect(try await database.read { db in try db.query("SELECT count(*) FROM strict") } == [[0]])
    }

    @Test func aSubmittedWriteCanBeAwaitedMoreThanOnce() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        let write = database.submitWrite { db in
            try db.execute("INSERT INTO event(id, note) VALUES (7, 'seven')")
            return db.lastInsertRowID
        }
        async let first = write.value
        async let second = write.value
        #expect(try await [first, second] == [7, 7])
        #expect(try await write.value == 7)
    }
}
