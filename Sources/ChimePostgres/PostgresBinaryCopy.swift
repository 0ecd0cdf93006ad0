public import Foundation

/// Rows in PostgreSQL's binary `COPY` format, for `PostgresConnection.copyIn` with
/// `COPY … FROM STDIN WITH (FORMAT binary)`: the fastest way rows reach a table, with no text to parse.
///
/// The format (<https://www.postgresql.org/docs/current/sql-copy.html>, "Binary Format"): a signature and
/// two zero words, then per row a field count and each field as a length and its bytes in the column
/// type's binary form (network byte order), then -1. Each row must give every column the `COPY` lists, in
/// its order and of its type.
///
/// ```swift
/// var rows = PostgresBinaryCopy()
/// rows.startRow(fields: 2)
/// rows.append(text: "one")
/// rows.append(double: 1.5)
/// try db.copyIn("COPY bench (name, score) FROM STDIN WITH (FORMAT binary)", rows.finished())
/// ```
public struct PostgresBinaryCopy: Sendable {
    private var bytes: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func startRow(fields: Int16) {
        append(fields)
    }

    /// A `text` field.
    public mutating func append(text: String) {
        append(Int32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    /// A `double precision` field.
    public mutating func append(double: Double) {
        append(Int32(8))
        append(double.bitPattern)
    }

    /// A `double precision` field holding a date as the stores keep it (`timeIntervalSinceReferenceDate`),
    /// or NULL.
    public mutating func append(date: Date?) {
        guard let date else { return appendNull() }
        append(double: date.timeIntervalSinceReferenceDate)
    }

    /// A `boolean` field.
    public mutating func append(boolean: Bool) {
        append(Int32(1))
        bytes.append(boolean ? 1 : 0)
    }

    /// A `bytea` field.
    public mutating func append(bytes field: [UInt8]) {
        append(Int32(field.count))
        bytes.append(contentsOf: field)
    }

    public mutating func appendNull() {
        append(Int32(-1))
    }

    /// The rows with the format's trailer.
    public consuming func finished() -> [UInt8] {
        append(Int16(-1))
        return bytes
    }

    private mutating func append<Word: FixedWidthInteger>(_ word: Word) {
        withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
