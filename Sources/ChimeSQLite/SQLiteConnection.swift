internal import CSQLite

/// One open SQLite database connection (`sqlite3*`).
///
/// A connection runs SQL synchronously on the calling thread and blocks it for disk I/O and lock waits.
/// Use it directly only where blocking is fine (a command-line tool, a test); everything else goes
/// through ``SQLiteDatabase``, which owns its connections and runs them on its own serial queues.
///
/// ```swift
/// let db = try SQLiteConnection(path: path, flags: [.readWrite, .create])
/// try db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// try db.execute("INSERT INTO items(name) VALUES (?)", arguments: [.text("Stand-up")])
/// let rows = try db.query("SELECT id, name FROM items WHERE id = ?", arguments: [.integer(db.lastInsertRowID)])
/// ```
///
/// **Lifetime and threading.** The connection closes when the last reference to it (its own, or one
/// held by a statement it prepared) goes away; a handle that SQLite allocated for a failed open is closed
/// before the initialiser throws. A connection is not `Sendable`: it is opened with
/// `SQLITE_OPEN_NOMUTEX`, so SQLite does no locking of its own, and it must be used by one thread at a
/// time. Statements it prepares follow the same rule.
///
/// Text is never spliced into SQL: values travel as bound parameters (``SQLiteValue``), by index.
public final class SQLiteConnection {
    /// Flags for `sqlite3_open_v2` (<https://www.sqlite.org/c3ref/open.html>).
    public struct OpenFlags: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Open for reading only.
        public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// Open for reading and writing.
        public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// Create the file if it does not exist (with `.readWrite`).
        public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// Refuse a path whose last component is a symbolic link.
        public static let noFollow = OpenFlags(rawValue: SQLITE_OPEN_NOFOLLOW)
    }

    /// The `sqlite3*` this connection owns. Never handed out beyond the module.
    let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String
    /// The checkpointer that the log hook calls, kept alive until the connection has closed.
    private var checkpointer: Checkpointer?

    /// Opens the database file at `path`.
    ///
    /// The connection always runs in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`: one thread at a
    /// time, no locking inside SQLite) and with extended result codes (`SQLITE_OPEN_EXRESCODE`), whatever
    /// `flags` says. Opening is lazy in SQLite: a file that is not a database is only reported by the
    /// first statement that reads it.
    ///
    /// - Throws: ``SQLiteError`` with `.cantOpen` (no such file without `.create`, missing directory,
    ///   no permission) and the like.
    public init(path: String, flags: OpenFlags) throws(SQLiteError) {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags.rawValue | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard result == SQLITE_OK, let handle else {
            let error = SQLiteError(
                SQLiteError.Code(rawValue: result), "could not open the database file",
                sqliteMessage: handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result)))
            // SQLite allocates a handle even when opening fails; it must still be closed.
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
    }

    deinit {
        // `_v2` defers the close until statements that are still alive are finalized, instead of failing.
        sqlite3_close_v2(handle)
    }

    /// Runs a script: every statement in `sql`, in order, without parameters.
    ///
    /// Stops at the first failing statement; statements before it keep their effect (wrap the script in
    /// a transaction to make it all-or-nothing).
    ///
    /// - Throws: ``SQLiteError`` whose `sql` is the statement that failed.
    public func execute(_ sql: String) throws(SQLiteError) {
        var failure: SQLiteError?
        sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let result = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                guard result == SQLITE_OK else {
                    failure = error(result, "could not prepare a statement", sql: Self.firstStatement(at: current))
                    return
                }
                let text = Self.text(from: current, to: tail)
                next = tail
                // A comment or whitespace alone prepares to no statement.
                guard let statement else { continue }
                defer { sqlite3_finalize(statement) }
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                guard step == SQLITE_DONE else {
                    failure = error(step, "could not execute a statement", sql: text)
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    /// Runs one statement with `arguments` bound to its parameters (`?`, `?NNN`) in order.
    ///
    /// - Throws: ``SQLiteError``; `.misuse` when `sql` holds more than one statement or the number of
    ///   arguments differs from the number of parameters.
    public func execute(_ sql: String, arguments: [SQLiteValue]) throws(SQLiteError) {
        try prepare(sql).run(arguments)
    }

    /// Runs one query with `arguments` bound to its parameters, and returns every row.
    public func query(_ sql: String, arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try prepare(sql).rows(arguments)
    }

    /// Compiles one SQL statement for repeated use.
    ///
    /// - Throws: ``SQLiteError``; `.misuse` when `sql` holds more than one statement or none.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        var trailing = false
        let result = sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let result = sqlite3_prepare_v2(handle, start, -1, &statement, &tail)
            if result == SQLITE_OK, let tail, tail.pointee != 0 {
                // Whatever follows must prepare to nothing (whitespace, comments, semicolons).
                var extra: OpaquePointer?
                var rest: UnsafePointer<CChar>? = tail
                while let current = rest, current.pointee != 0, extra == nil {
                    guard sqlite3_prepare_v2(handle, current, -1, &extra, &rest) == SQLITE_OK else {
                        trailing = true
                        break
                    }
                }
                if extra != nil {
                    trailing = true
                    sqlite3_finalize(extra)
                }
            }
            return result
        }
        guard result == SQLITE_OK else { throw error(result, "could not prepare a statement", sql: sql) }
        guard let statement else {
            throw SQLiteError(.misuse, "expected one SQL statement, found none", sql: sql)
        }
        guard !trailing else {
            sqlite3_finalize(statement)
            throw SQLiteError(.misuse, "expected one SQL statement, found several", sql: sql)
        }
        return SQLiteStatement(connection: self, handle: statement, sql: sql)
    }

    /// The rowid of the most recent successful `INSERT` on this connection (0 if none).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the most recent `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How long a statement waits for another connection's lock before failing with `.busy`.
    public func setBusyTimeout(_ timeout: Duration) {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// Hands checkpoints to `checkpointer` instead of running them inside the commits that grow the
    /// write-ahead log past `Checkpointer.threshold` pages (this replaces SQLite's automatic checkpoint).
    func checkpoint(with checkpointer: Checkpointer) {
        self.checkpointer = checkpointer
        sqlite3_wal_hook(handle, walCommitted, Unmanaged.passUnretained(checkpointer).toOpaque())
    }

    /// Runs `body` while statements that begin, commit or roll back a transaction are refused (`.authorization`).
    ///
    /// ``SQLiteDatabase`` runs callers' closures this way, so a closure cannot end the transaction it runs
    /// in. Savepoints stay allowed.
    func withTransactionControlDenied<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        sqlite3_set_authorizer(handle, denyTransactionControl, nil)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        return try body()
    }

    /// The error for `result`, with SQLite's current message for this connection.
    func error(_ result: Int32, _ message: String, sql: String?) -> SQLiteError {
        SQLiteError(SQLiteError.Code(rawValue: result), message, sqliteMessage: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// The first statement of the script at `start`, found without compiling it: the shortest prefix
    /// ending in `;` that `sqlite3_complete` (which knows SQL's quotes and comments) calls complete.
    private static func firstStatement(at start: UnsafePointer<CChar>) -> String {
        let script = String(cString: start)
        for end in script.indices where script[end] == ";" {
            let prefix = String(script[...end])
            if sqlite3_complete(prefix) != 0 { return text(from: prefix) }
        }
        return text(from: script)
    }

    /// The statement text between `start` and `end`, trimmed.
    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        let count = end.map { start.distance(to: $0) } ?? 0
        return text(from: String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self))
    }

    /// `text` without leading and trailing whitespace.
    private static func text(from text: String) -> String {
        var text = Substring(text)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

/// The authorizer of ``SQLiteConnection/withTransactionControlDenied(_:)``: denies `BEGIN`, `COMMIT`,
/// `END` and `ROLLBACK` (not `ROLLBACK TO`, which is a savepoint operation).
private func denyTransactionControl(
    _: UnsafeMutableRawPointer?, _ action: Int32, _: UnsafePointer<CChar>?, _: UnsafePointer<CChar>?,
    _: UnsafePointer<CChar>?, _: UnsafePointer<CChar>?
) -> Int32 {
    action == SQLITE_TRANSACTION ? SQLITE_DENY : SQLITE_OK
}
