public import ChimeEngine
/// An error raised by SQLite, or by ChimeSQLite refusing a database it must not touch.
///
/// `code` is SQLite's primary result code (`.constraint`, `.busy`, `.corrupt`…) and `extendedCode` the
/// extended one (`.constraintUnique`, `.constraintForeignKey`…), as listed in
/// <https://www.sqlite.org/rescode.html>. ChimeSQLite's own codes are negative, so they never collide
/// with SQLite's.
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO items(name) VALUES (?)", arguments: [.text(name)])
/// } catch where error.extendedCode == .constraintUnique {
///     // the name is taken
/// }
/// ```
///
/// `description` is safe to log: it holds the codes, a fixed explanation, SQLite's message and the SQL
/// text, never the values bound to a statement. SQL text holds no user data because ChimeSQLite only
/// runs parameterised statements, and SQLite's messages name tables, columns and constraints, not values.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A SQLite result code, or one of ChimeSQLite's own (negative) codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The primary code of an extended one (`.constraintUnique.primary == .constraint`).
        public var primary: Code { rawValue < 0 ? self : Code(rawValue: rawValue & 0xFF) }

        // Primary result codes used or reported by this layer.
        public static let error = Code(rawValue: 1)
        public static let `internal` = Code(rawValue: 2)
        public static let permission = Code(rawValue: 3)
        public static let abort = Code(rawValue: 4)
        public static let busy = Code(rawValue: 5)
        public static let locked = Code(rawValue: 6)
        public static let noMemory = Code(rawValue: 7)
        public static let readOnly = Code(rawValue: 8)
        public static let interrupt = Code(rawValue: 9)
        public static let ioError = Code(rawValue: 10)
        public static let corrupt = Code(rawValue: 11)
        public static let full = Code(rawValue: 13)
        public static let cantOpen = Code(rawValue: 14)
        public static let `protocol` = Code(rawValue: 15)
        public static let schema = Code(rawValue: 17)
        public static let tooBig = Code(rawValue: 18)
        public static let constraint = Code(rawValue: 19)
        public static let mismatch = Code(rawValue: 20)
        public static let misuse = Code(rawValue: 21)
        public static let authorization = Code(rawValue: 23)
        public static let range = Code(rawValue: 25)
        public static let notADatabase = Code(rawValue: 26)

        // Extended result codes of constraint violations, the ones a store tells apart.
        public static let constraintCheck = Code(rawValue: 275)
        public static let constraintForeignKey = Code(rawValue: 787)
        public static let constraintNotNull = Code(rawValue: 1299)
        public static let constraintPrimaryKey = Code(rawValue: 1555)
        public static let constraintUnique = Code(rawValue: 2067)

        // ChimeSQLite's own.
        /// The database's schema version (`PRAGMA user_version`) is newer than the newest migration this
        /// code knows: it was written by a newer version of the program. The file was left untouched.
        public static let schemaTooNew = Code(rawValue: -1)

        public var description: String {
            switch self {
            case .error: "error"
            case .internal: "internal"
            case .permission: "permission"
            case .abort: "abort"
            case .busy: "busy"
            case .locked: "locked"
            case .noMemory: "noMemory"
            case .readOnly: "readOnly"
            case .interrupt: "interrupt"
            case .ioError: "ioError"
            case .corrupt: "corrupt"
            case .full: "full"
            case .cantOpen: "cantOpen"
            case .protocol: "protocol"
            case .schema: "schema"
            case .tooBig: "tooBig"
            case .constraint: "constraint"
            case .mismatch: "mismatch"
            case .misuse: "misuse"
            case .authorization: "authorization"
            case .range: "range"
            case .notADatabase: "notADatabase"
            case .constraintCheck: "constraintCheck"
            case .constraintForeignKey: "constraintForeignKey"
            case .constraintNotNull: "constraintNotNull"
            case .constraintPrimaryKey: "constraintPrimaryKey"
            case .constraintUnique: "constraintUnique"
            case .schemaTooNew: "schemaTooNew"
            default: "code \(rawValue)"
            }
        }
    }

    /// The primary result code: what kind of failure this is.
    public let code: Code
    /// The extended result code, which refines `code` (equal to it when SQLite gives no refinement).
    public let extendedCode: Code
    /// A fixed explanation of what ChimeSQLite was doing. Never contains user data.
    public let message: String
    /// SQLite's own message (`sqlite3_errmsg`), if SQLite reported the failure.
    public let sqliteMessage: String?
    /// The SQL statement that failed, if any. Holds placeholders, never the bound values.
    public let sql: String?

    /// Creates an error; `code` is derived from `extendedCode`.
    ///
    /// Migrations use this to fail with their own explanation.
    public init(_ extendedCode: Code, _ message: String, sqliteMessage: String? = nil, sql: String? = nil) {
        self.code = extendedCode.primary
        self.extendedCode = extendedCode
        self.message = message
        self.sqliteMessage = sqliteMessage
        self.sql = sql
    }

    /// The same error with `context` put in front of the message (`"migration 2 \"index\" failed: …"`).
    func prefixed(_ context: String) -> SQLiteError {
        SQLiteError(extendedCode, "\(context): \(message)", sqliteMessage: sqliteMessage, sql: sql)
    }

    public var description: String {
        var text = "SQLiteError.\(code)"
        if extendedCode != code { text += " (\(extendedCode))" }
        text += ": \(message)"
        if let sqliteMessage { text += " — SQLite: \(sqliteMessage)" }
        if let sql { text += " — in: \(sql)" }
        return text
    }
}

extension SQLiteError: StorageError {
    /// SQLite's "database or disk is full", "attempt to write a readonly database" and permission codes.
    public var storageProblem: StorageProblem? {
        switch code {
        case .full: .full
        case .readOnly: .readOnly
        case .permission: .notPermitted
        default: nil
        }
    }
}
