import ChimeEngine
import Foundation

/// A SQLite database file opened for durable, concurrent use: the thread-safety boundary of ChimeSQLite.
///
/// ```swift
/// let database = try await SQLiteDatabase(path: path, migrations: [
///     SQLiteMigration(version: 1, name: "items", sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
/// ])
/// let id = try await database.write { db in
///     try db.execute("INSERT INTO item(name) VALUES (?)", arguments: [.text("Stand-up")])
///     return db.lastInsertRowID
/// }
/// let names = try await database.read { db in try db.query("SELECT name FROM item") }
/// ```
///
/// **Threading.** The database owns three connections, each confined to its own serial dispatch queue: a
/// writer, a reader, and a checkpointer that copies the write-ahead log into the file so that no commit
/// waits for it. Closures passed to ``read(_:)`` and ``write(_:)`` run on those queues, never on
/// Swift's cooperative thread pool, because every SQLite call blocks; the caller suspends meanwhile.
/// The ``SQLiteConnection`` a closure receives is valid only during the call: a closure must not keep it,
/// nor await anything (closures are synchronous), nor begin, commit or roll back transactions (such
/// statements fail with `.authorization`; savepoints are allowed). Reads run in parallel with writes and
/// see only committed data (write-ahead logging).
///
/// **Durability.** ``write(_:)`` returns only after the `COMMIT` containing the change succeeded, with
/// `synchronous=FULL`: a write that returned survives `kill -9` and power loss. Concurrent writes share
/// transactions (group commit, see ``write(_:)``), so the cost of the `fsync` is shared too.
///
/// **Opening** refuses, without modifying the file: a file that is not a SQLite database
/// (`.notADatabase`), a database that fails `PRAGMA quick_check` (`.corrupt`; skipped for files above
/// ``Configuration/integrityCheckSizeLimit``), and a database whose schema version is newer than the
/// migrations given (`.schemaTooNew`). Then it switches to
/// write-ahead logging and applies the missing migrations (see ``SQLiteMigration``).
///
/// **Lifetime.** The connections close on ``close()``, or when the database object goes away and the
/// work already queued on them has finished. Other processes may open the same file; they wait for each other's write locks
/// up to ``Configuration/busyTimeout``.
public final class SQLiteDatabase: Sendable {
    /// Tunables of an opened database.
    public struct Configuration: Sendable {
        /// How long a statement waits for another process's lock before failing with `.busy`.
        public var busyTimeout: Duration
        /// Whether opening runs `PRAGMA quick_check`, which reads the whole file: refusing a damaged
        /// database before writing to it costs time proportional to its size.
        public var checksIntegrityOnOpen: Bool
        /// The largest file, in bytes, that opening checks (with `checksIntegrityOnOpen`); a larger one
        /// opens without the check, in a time that does not grow with its size, and can be checked later
        /// with ``SQLiteDatabase/checkIntegrity()``. `nil` checks files of any size.
        public var integrityCheckSizeLimit: Int?

        public init(busyTimeout: Duration = .seconds(5), checksIntegrityOnOpen: Bool = true, integrityCheckSizeLimit: Int? = nil) {
            self.busyTimeout = busyTimeout
            self.checksIntegrityOnOpen = checksIntegrityOnOpen
            self.integrityCheckSizeLimit = integrityCheckSizeLimit
        }
    }

    /// The path of the database file.
    public let path: String
    /// The file was there but empty (0 bytes, and no write-ahead log with content beside it), and was taken
    /// as a new database: worth telling the user, as it may be what is left of a lost one.
    public let foundEmptyFile: Bool
    private let writer: GroupCommitWriter
    private let reader: SerialConnection
    private let checkpointer: Checkpointer

    /// Opens (or creates) the database at `path` and brings its schema up to the last of `migrations`.
    ///
    /// - Parameters:
    ///   - path: a file path; its directory must exist.
    ///   - migrations: the schema history, versions strictly ascending (a misordered list traps).
    /// - Throws: ``SQLiteError``: `.notADatabase`, `.corrupt` or `.schemaTooNew` for a file that was
    ///   refused and left untouched; a migration's error, prefixed with its version and name, after
    ///   the migrations before it were applied; `.cantOpen`, `.busy` and the like.
    public init(
        path: String, migrations: [SQLiteMigration] = [], configuration: Configuration = Configuration()
    ) async throws(SQLiteError) {
        migrations.checkOrder()
        let foundEmpty = Self.isEmptyWithoutLog(path)
        let writerConnection = try await SerialConnection.open(label: "chime.sqlite.writer") { () throws(SQLiteError) in
            try Self.openWriter(path: path, migrations: migrations, configuration: configuration)
        }
        // The reader opens after the writer has checked the file and switched it to WAL.
        self.reader = try await SerialConnection.open(label: "chime.sqlite.reader") { () throws(SQLiteError) in
            try Self.openReader(path: path, configuration: configuration)
        }
        let checkpointer = Checkpointer(connection: try await SerialConnection.open(label: "chime.sqlite.checkpointer") { () throws(SQLiteError) in
            try Self.openCheckpointer(path: path, configuration: configuration)
        })
        await withCheckedContinuation { continuation in
            writerConnection.async { db in
                db?.checkpoint(with: checkpointer)
                continuation.resume()
            }
        }
        self.checkpointer = checkpointer
        self.writer = GroupCommitWriter(connection: writerConnection)
        self.path = path
        self.foundEmptyFile = foundEmpty
    }

    /// Runs `body` in a read-only transaction on the reader connection and returns its result.
    ///
    /// `body` sees one consistent snapshot of committed data, including every write that has returned.
    /// Reads run one at a time, in parallel with writes. Writing statements fail with `.readOnly`.
    ///
    /// - Throws: what `body` throws, or a ``SQLiteError``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await reader.run { db in
            try db.execute("BEGIN DEFERRED")
            do {
                let value = try db.withTransactionControlDenied { try body(db) }
                try db.execute("COMMIT")
                return value
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Runs `body` in a write transaction and returns its result once the transaction has committed.
    ///
    /// Writes are applied one at a time, in the order they were submitted. Writes submitted while
    /// another transaction is committing are grouped into the next transaction, each in its own
    /// savepoint (group commit): one `fsync` makes the whole group durable.
    ///
    /// - If `body` returns, this call returns its value after the `COMMIT` that contains the change
    ///   succeeded: the change is durable.
    /// - If `body` throws, its changes (and only its) are rolled back and this call throws that error.
    /// - If the transaction cannot begin or commit, this call throws that ``SQLiteError`` and nothing of
    ///   `body` is kept.
    /// - If SQLite rolls back the whole transaction because another write of the group hit a fatal error
    ///   (disk full, I/O error, `ON CONFLICT ROLLBACK`), `body` runs again in a new transaction. A write
    ///   closure must therefore act only on the database and its return value.
    ///
    /// Cancelling the calling task does not cancel a submitted write; the call still waits for and
    /// reports its outcome.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writer.submit(Submission(body) { continuation.resume(with: $0) })
        }
    }

    /// Submits a write now and returns at once; await ``SubmittedWrite/value`` for its outcome.
    ///
    /// Same transaction and durability rules as ``write(_:)``. Use it to fix the order of several
    /// writes from synchronous code: writes are applied in the order of the `submitWrite` calls.
    ///
    /// ```swift
    /// let first = database.submitWrite { db in try db.execute("DELETE FROM item WHERE id = ?", arguments: [7]) }
    /// let second = database.submitWrite { db in try db.execute("INSERT INTO item(id, name) VALUES (?, ?)", arguments: [7, "New"]) }
    /// try await first.value
    /// try await second.value
    /// ```
    public func submitWrite<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) -> SubmittedWrite<T> {
        let outcome = Outcome<T>()
        writer.submit(Submission(body) { outcome.fulfil($0) })
        return SubmittedWrite(outcome: outcome)
    }

    /// Closes the database's connections once the reads and writes submitted before have finished.
    ///
    /// Later reads and writes throw ``SQLiteError`` `.misuse`. Closing is optional (the connections
    /// also close when the database goes away) but makes the moment certain: once it returns, no handle
    /// to the file is open, and unless another connection still has the file open, SQLite has
    /// checkpointed the write-ahead log into it and removed the log. Calling it again does nothing.
    public func close() async {
        await writer.close()
        await reader.close()
        await checkpointer.close()
    }

    /// Runs `PRAGMA quick_check` over the whole file, on the reader connection, beside the writes.
    ///
    /// For a database opened without the check (its file was larger than
    /// ``Configuration/integrityCheckSizeLimit``): a maintenance task can run it when the time it takes
    /// (proportional to the file's size) does not matter.
    ///
    /// - Throws: ``SQLiteError`` `.corrupt` when the check finds damage.
    public func checkIntegrity() async throws {
        try await reader.run { db in try Self.checkIntegrity(db) }
    }

    /// The number of write transactions committed since the database was opened (migrations aside).
    ///
    /// With group commit this is usually far below the number of writes; tests and benchmarks use it
    /// to show batching.
    public var committedTransactionCount: Int { writer.committedTransactionCount }

    /// The number of writes submitted and not yet taken into a transaction: tests use it to know that a
    /// write made elsewhere is queued.
    var waitingWriteCount: Int { writer.waitingCount }
}

extension SQLiteDatabase {
    /// The outcome of a write submitted with ``SQLiteDatabase/submitWrite(_:)``.
    public struct SubmittedWrite<Value: Sendable>: Sendable {
        let outcome: Outcome<Value>

        /// The write's result, once its transaction committed; or the error that stopped it.
        ///
        /// Can be awaited any number of times, from any task; cancellation does not end the wait.
        public var value: Value {
            get async throws { try await outcome.value }
        }
    }
}

// MARK: - Opening

extension SQLiteDatabase {
    /// The first 16 bytes of every SQLite database file (<https://www.sqlite.org/fileformat.html>).
    private static let magic = Array("SQLite format 3\0".utf8)
    /// The size of the database header.
    private static let headerSize = 100

    private static func openWriter(
        path: String, migrations: [SQLiteMigration], configuration: Configuration
    ) throws(SQLiteError) -> SQLiteConnection {
        try checkHeader(path: path)
        // SQLite would create a missing file readable by everyone (0644 less the umask); created here first
        // with 0600, the file and its -wal and -shm (which SQLite gives the file's mode) stay private.
        do {
            try PrivateFiles.makeFile(URL(fileURLWithPath: path))
        } catch {
            throw SQLiteError(.cantOpen, error.description)
        }
        let db = try SQLiteConnection(path: path, flags: [.readWrite, .create])
        db.setBusyTimeout(configuration.busyTimeout)

        // Nothing up to here writes to the file: it is refused untouched unless it proves to be a sound
        // database of a schema version this code knows.
        if configuration.checksIntegrityOnOpen, configuration.integrityCheckSizeLimit.map({ fileSize(path) <= $0 }) ?? true {
            try checkIntegrity(db)
        }
        let version = try schemaVersion(db)
        let newestKnown = migrations.last?.version ?? 0
        guard version <= newestKnown else {
            throw SQLiteError(
                .schemaTooNew,
                "the database's schema version \(version) is newer than the newest this program knows (\(newestKnown)); it was left untouched")
        }

        // Write-ahead logging: readers never block the writer nor see uncommitted data, and a commit
        // appends to the log instead of rewriting pages in place.
        guard try db.query("PRAGMA journal_mode = WAL") == [[.text("wal")]] else {
            throw SQLiteError(.cantOpen, "could not switch the database to write-ahead logging")
        }
        // synchronous=FULL: every COMMIT fsyncs the log before it returns, so a write that was
        // acknowledged survives kill -9 and power loss (NORMAL, WAL's usual setting, can lose the last
        // commits on power loss). Group commit shares each fsync among all the writes of a transaction.
        try db.execute("PRAGMA synchronous = FULL")
        try db.execute("PRAGMA foreign_keys = ON")
        try migrate(db, migrations: migrations, from: version)
        return db
    }

    /// The checkpointer's connection: it only copies the log into the file, syncing both as the writer
    /// would (`synchronous=FULL`).
    private static func openCheckpointer(path: String, configuration: Configuration) throws(SQLiteError) -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, flags: [.readWrite])
        db.setBusyTimeout(configuration.busyTimeout)
        try db.execute("PRAGMA synchronous = FULL")
        return db
    }

    private static func openReader(path: String, configuration: Configuration) throws(SQLiteError) -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, flags: [.readWrite])
        db.setBusyTimeout(configuration.busyTimeout)
        // Read-write only so that it can use the WAL index; query_only makes every write fail.
        try db.execute("PRAGMA query_only = ON")
        return db
    }

    /// Refuses a non-empty file that does not start with SQLite's header, before SQLite opens it.
    ///
    /// A missing or empty file is a new database to SQLite; an unreadable one is left to SQLite to report.
    private static func checkHeader(path: String) throws(SQLiteError) {
        guard let file = FileHandle(forReadingAtPath: path) else { return }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: headerSize), !header.isEmpty else { return }
        guard header.count == headerSize, header.starts(with: magic) else {
            throw SQLiteError(.notADatabase, "the file is not a SQLite database; it was left untouched")
        }
    }

    /// Whether `path` is an existing file of 0 bytes with no write-ahead log beside it that holds
    /// anything: SQLite takes such a file as a new, empty database, which its owner should be told about
    /// (it may be what remains of a store that was lost).
    private static func isEmptyWithoutLog(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) && fileSize(path) == 0 && fileSize(path + "-wal") == 0
    }

    /// The size of the file at `path` in bytes; 0 if it does not exist.
    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Refuses a database that fails `PRAGMA quick_check` (<https://www.sqlite.org/pragma.html#pragma_quick_check>).
    private static func checkIntegrity(_ db: SQLiteConnection) throws(SQLiteError) {
        let rows: [[SQLiteValue]]
        do throws(SQLiteError) {
            rows = try db.query("PRAGMA quick_check")
        } catch {
            throw refusal(error)
        }
        guard rows == [[.text("ok")]] else {
            // quick_check reports pages, tables and indexes, never row contents.
            let findings = rows.prefix(5).map { row in
                if case .text(let finding) = row.first { finding } else { "?" }
            }
            throw SQLiteError(
                .corrupt, "the database failed its integrity check; it was left untouched",
                sqliteMessage: findings.joined(separator: "; "), sql: "PRAGMA quick_check")
        }
    }

    /// The database's schema version, `PRAGMA user_version`.
    private static func schemaVersion(_ db: SQLiteConnection) throws(SQLiteError) -> Int {
        do throws(SQLiteError) {
            guard case .integer(let version) = try db.query("PRAGMA user_version").first?.first else {
                throw SQLiteError(.internal, "PRAGMA user_version returned no integer")
            }
            return Int(version)
        } catch {
            throw refusal(error)
        }
    }

    /// A clearer error for a file SQLite found to be no database or a damaged one.
    private static func refusal(_ error: SQLiteError) -> SQLiteError {
        switch error.code {
        case .notADatabase:
            SQLiteError(error.extendedCode, "the file is not a SQLite database; it was left untouched", sqliteMessage: error.sqliteMessage)
        case .corrupt:
            SQLiteError(error.extendedCode, "the database file is corrupt; it was left untouched", sqliteMessage: error.sqliteMessage)
        default:
            error
        }
    }

    /// Applies the migrations above `version`, each in its own transaction.
    private static func migrate(_ db: SQLiteConnection, migrations: [SQLiteMigration], from version: Int) throws(SQLiteError) {
        for migration in migrations where migration.version > version {
            do throws(SQLiteError) {
                try db.execute("BEGIN IMMEDIATE")
                // Another process may have applied it while this one waited for the write lock.
                if try schemaVersion(db) < migration.version {
                    try db.withTransactionControlDenied { () throws(SQLiteError) in try migration.apply(db) }
                    // PRAGMA takes no parameters; the version is an integer, not text.
                    try db.execute("PRAGMA user_version = \(migration.version)")
                }
                try db.execute("COMMIT")
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                throw error.prefixed("migration \(migration.version) \"\(migration.name)\" failed")
            }
        }
    }
}
