internal import CSQLite

/// A compiled SQL statement (`sqlite3_stmt*`), made by ``SQLiteConnection/prepare(_:)``.
///
/// Values are bound to parameters by index only, so text never becomes SQL. Parameters are numbered
/// from 1 as in SQL (`?1`, or the n-th `?`); result columns from 0.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO items(name, icon) VALUES (?, ?)")
/// for (name, icon) in items {
///     try insert.run([.text(name), .blob(icon)])
/// }
/// let select = try db.prepare("SELECT id, name FROM items WHERE name LIKE ?")
/// try select.bind([.text("Stand%")])
/// while try select.step() {
///     let id = select.column(0), name = select.column(1)
/// }
/// ```
///
/// **Lifetime and threading.** The statement keeps its connection open and is finalized when the last
/// reference to it goes away. Like its connection it is not `Sendable`: use it on the thread (or serial
/// queue) that uses the connection.
public final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let handle: OpaquePointer
    /// The statement's SQL text, placeholders included, never bound values.
    public let sql: String

    init(connection: SQLiteConnection, handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of parameters (the largest parameter index).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The number of columns in each result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of result column `index` (0-based), as SQLite reports it.
    public func columnName(_ index: Int) -> String {
        precondition((0..<columnCount).contains(index), "column index out of range")
        return String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    /// Resets the statement and binds `arguments` to parameters 1…n, in order.
    ///
    /// - Throws: ``SQLiteError`` with `.misuse` if the count differs from ``parameterCount`` (SQLite
    ///   would silently bind `NULL` to missing ones), or SQLite's error (`.tooBig`…).
    public func bind(_ arguments: [SQLiteValue]) throws(SQLiteError) {
        guard arguments.count == parameterCount else {
            throw SQLiteError(.misuse, "expected \(parameterCount) arguments, got \(arguments.count)", sql: sql)
        }
        reset()
        for (offset, value) in arguments.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds `value` to parameter `index` (1-based).
    public func bind(_ value: SQLiteValue, at index: Int) throws(SQLiteError) {
        try binding(at: index) { handle, position in
            switch value {
            case .null:
                return sqlite3_bind_null(handle, position)
            case .integer(let integer):
                return sqlite3_bind_int64(handle, position, integer)
            case .real(let real):
                return sqlite3_bind_double(handle, position, real)
            case .text(var text):
                // An explicit byte length keeps embedded NULs; a NULL pointer would bind NULL, not "".
                return text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        guard let start = chars.baseAddress, !chars.isEmpty else {
                            return sqlite3_bind_text64(handle, position, "", 0, Self.transient, UInt8(SQLITE_UTF8))
                        }
                        return sqlite3_bind_text64(handle, position, start, UInt64(chars.count), Self.transient, UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let bytes):
                return bytes.withUnsafeBytes { Self.bindBlob($0, handle, position) }
            }
        }
    }

    /// Binds the bytes as a blob to parameter `index` (1-based): a blob that lives in a larger buffer,
    /// bound without copying it into an array first. SQLite copies the bytes before the call returns.
    public func bind(blob bytes: UnsafeRawBufferPointer, at index: Int) throws(SQLiteError) {
        try binding(at: index) { handle, position in Self.bindBlob(bytes, handle, position) }
    }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns, so no pointer outlives it.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Checks the parameter index, runs `bind` with the handle and the position, and turns its result
    /// into an error.
    private func binding(at index: Int, _ bind: (OpaquePointer, Int32) -> Int32) throws(SQLiteError) {
        guard index >= 1, index <= parameterCount else {
            throw SQLiteError(.range, "parameter index \(index) out of range 1...\(parameterCount)", sql: sql)
        }
        let result = bind(handle, Int32(index))
        guard result == SQLITE_OK else {
            throw connection.error(result, "could not bind parameter \(index)", sql: sql)
        }
    }

    /// A NULL pointer would bind NULL: an empty blob is bound as a zero-length zeroblob.
    private static func bindBlob(_ bytes: UnsafeRawBufferPointer, _ handle: OpaquePointer, _ position: Int32) -> Int32 {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, position, 0) }
        return sqlite3_bind_blob64(handle, position, start, UInt64(bytes.count), transient)
    }

    /// Advances to the next result row.
    ///
    /// - Returns: `true` when a row is available (read it with ``column(_:)`` or ``row()``), `false`
    ///   when the statement has finished.
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw connection.error(result, "could not execute a statement", sql: sql)
        }
    }

    /// Column `index` (0-based) of the current row.
    public func column(_ index: Int) -> SQLiteValue {
        precondition((0..<columnCount).contains(index), "column index out of range")
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Pointer first, then length (the order SQLite documents); the length covers embedded NULs.
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, column) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// Every column of the current row.
    public func row() -> [SQLiteValue] {
        (0..<columnCount).map(column)
    }

    /// Binds `arguments` and runs the statement to completion, ignoring any rows.
    public func run(_ arguments: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(arguments)
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments`, runs the statement and returns every row.
    public func rows(_ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try bind(arguments)
        defer { reset() }
        var rows: [[SQLiteValue]] = []
        while try step() { rows.append(row()) }
        return rows
    }

    /// Rewinds the statement so it can run again; bindings are kept until the next ``bind(_:)``.
    public func reset() {
        // The return value repeats the last step's error, which `step()` already threw.
        sqlite3_reset(handle)
    }
}
