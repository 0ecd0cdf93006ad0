import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeStoreCoding
import Foundation

/// Rows of the `pending` table, already encoded, written straight to PostgreSQL the two ways that bound
/// what any add can reach: `COPY … FROM STDIN` in PostgreSQL's binary format, and `unnest` inserts of
/// 1,000 rows a statement (the store's own statement without its `ON CONFLICT` clause). The benchmarks'
/// floors and fills; nothing of the store's rules runs.
struct PendingRows {
    struct Row {
        var tenant: String
        var recipient: String
        var app: String
        var request: String
        var added: Date
        var next: Date?
        var floating: Bool
        var record: [UInt8]
    }

    var rows: [Row] = []

    static let columns = PostgresBinaryCopy.pendingColumns

    init(_ rows: [Row]) {
        self.rows = rows
    }

    /// The rows the PostgreSQL store would write for these requests (encoded with the stores' codec, in the
    /// form that store writes).
    init(tenant: String, _ requests: [(recipient: String, pending: PendingRequest)]) throws {
        rows = try requests.map { recipient, pending in
            Row(
                tenant: tenant, recipient: recipient, app: pending.appIdentifier, request: pending.request.identifier, added: pending.addedDate,
                next: pending.nextFireDate, floating: pending.request.hasFloatingCalendarTrigger, record: try StoreRecord.encode(pending.request, form: PostgresNotificationStore.recordForm))
        }
    }

    /// Writes the rows into `table` with one `COPY`; returns the rows written.
    @discardableResult
    func copy(into table: String, on db: PostgresConnection) throws -> Int {
        try db.copyIn("COPY \(table) (\(Self.columns)) FROM STDIN WITH (FORMAT binary)", binary())
    }

    /// Writes the rows into `table` with `unnest` inserts of 1,000 rows.
    func insert(into table: String, on db: PostgresConnection) throws {
        for start in stride(from: 0, to: rows.count, by: 1_000) {
            let chunk = rows[start..<min(start + 1_000, rows.count)]
            try db.query(
                """
                INSERT INTO \(table) (\(Self.columns))
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::bool[], $8::bytea[])
                """,
                [
                    .texts(chunk.map(\.tenant)), .texts(chunk.map(\.recipient)), .texts(chunk.map(\.app)), .texts(chunk.map(\.request)),
                    .array(.double, chunk.map { .date($0.added) }), .array(.double, chunk.map { .date($0.next) }),
                    .array(.boolean, chunk.map { .boolean($0.floating) }), .array(.bytes, chunk.map { .bytes($0.record) }),
                ])
        }
    }

    /// The rows in PostgreSQL's binary COPY format.
    func binary() -> [UInt8] {
        var copy = PostgresBinaryCopy(reservingCapacity: rows.count * 160)
        for row in rows {
            copy.appendPendingRow(
                tenant: row.tenant, recipient: row.recipient, app: row.app, request: row.request, added: row.added, next: row.next, floating: row.floating,
                record: row.record)
        }
        return copy.finished()
    }
}
