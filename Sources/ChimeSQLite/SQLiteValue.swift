/// One SQLite value: a statement argument or a column of a result row.
///
/// The cases are SQLite's five storage classes (<https://www.sqlite.org/datatype3.html>). Text and blobs
/// cross the C boundary with explicit byte lengths, so text keeps embedded NUL characters and every
/// Unicode scalar exactly, and an empty blob stays an empty blob, distinct from `.null`.
///
/// ```swift
/// try db.execute("INSERT INTO items(id, name, icon) VALUES (?, ?, ?)",
///                arguments: [.integer(7), .text("Stand-up 🔔"), .blob(png)])
/// ```
///
/// Literals make arguments shorter: `[7, "Stand-up", 0.5]`.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    /// UTF-8 text of any length, NUL characters included.
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: CustomStringConvertible {
    /// The storage class only, never the value: values may be notification text.
    public var description: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}
