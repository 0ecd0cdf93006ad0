/// An error from PostgreSQL, or from ChimePostgres refusing or failing to reach a database.
///
/// `sqlState` is PostgreSQL's five-character code (<https://www.postgresql.org/docs/current/errcodes-appendix.html>)
/// when the server reported the error. `description` is safe to log: a fixed explanation, the server's
/// message and the SQL text, never the values bound to a statement (ChimePostgres only runs
/// parameterised statements).
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The server could not be reached, or the connection broke. Nothing was committed by the call
        /// that failed, unless `outcomeUnknown`.
        case connection
        /// The connection broke while a transaction was committing: it may or may not have committed.
        case outcomeUnknown
        /// The server refused a statement (`sqlState` says why).
        case server
        /// The database's schema was written by a newer version of Chime; nothing was changed.
        case schemaTooNew
        /// A result that does not have the shape the statement gives it.
        case unexpectedResult
    }

    public let kind: Kind
    /// A fixed explanation of what ChimePostgres was doing, or libpq's message for connection failures.
    public let message: String
    /// The server's SQLSTATE code, for `.server` errors.
    public let sqlState: String?
    /// The SQL statement that failed, if any. Holds placeholders, never the bound values.
    public let sql: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil, sql: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.sql = sql
    }

    static func unexpectedResult(_ what: String) -> PostgresError {
        PostgresError(.unexpectedResult, "a result of an unexpected shape: \(what)")
    }

    /// Whether running the whole transaction again is safe and may succeed: the connection broke before
    /// anything was committed, or the server rolled the transaction back to resolve a conflict with
    /// another one (serialization failure, deadlock) or because it was shutting down.
    public var isRetryable: Bool {
        switch kind {
        case .connection: return true
        case .server:
            guard let sqlState else { return false }
            return ["40001", "40P01", "57P01", "57P02", "57P03"].contains(sqlState) || sqlState.hasPrefix("08")
        case .outcomeUnknown, .schemaTooNew, .unexpectedResult: return false
        }
    }

    public var description: String {
        var text = "PostgresError.\(kind): \(message)"
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let sql { text += " — in: \(sql)" }
        return text
    }
}
