import Foundation

/// Where a reader of the event log is: events are read in (writing transaction, sequence) order.
public struct EventPosition: Sendable, Hashable, Comparable {
    public var transaction: Int64
    public var sequence: Int64

    public static let start = EventPosition(transaction: 0, sequence: 0)

    public init(transaction: Int64, sequence: Int64) {
        self.transaction = transaction
        self.sequence = sequence
    }

    public static func < (left: EventPosition, right: EventPosition) -> Bool {
        (left.transaction, left.sequence) < (right.transaction, right.sequence)
    }
}

/// An event as the log keeps it: its position, what it is (`delivered`, `responded`: a stream's event
/// name), whose it is, and its body (the JSON a stream sends).
public struct StoredEvent: Sendable, Hashable {
    public var position: EventPosition
    public var kind: String
    public var tenant: String
    public var recipient: String
    public var body: [UInt8]
}

/// Server mode's event log: every delivery and response as a numbered event in the database,
/// so a stream resumes from its last event on any node.
///
/// Numbers are given when a transaction writes, but transactions commit in another order, so a reader
/// that went by number alone could pass a number whose transaction commits later and miss its event.
/// Readers therefore take only events of transactions older than every transaction still running
/// (`pg_snapshot_xmin`), in (transaction, sequence) order: nothing can appear behind a position once a
/// reader has passed it. An event becomes readable when every transaction that started before its own
/// has ended — milliseconds, with the short transactions Chime runs.
public struct PostgresEventLog: Sendable {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// The channel a notification is sent on when events were written.
    public static let channel = "chime_events"

    static let settled = "transaction < pg_snapshot_xmin(pg_current_snapshot())"

    /// The position after every readable event now: where a live reader starts.
    public func head() async throws -> EventPosition {
        let rows = try await database.read { db in
            try db.query(
                "SELECT transaction::text::bigint, sequence FROM event WHERE \(Self.settled) ORDER BY transaction DESC, sequence DESC LIMIT 1")
        }
        guard let row = rows.first else { return .start }
        return try Self.position(row[0], row[1])
    }

    /// Readable events after `position` and up to `through` (every one when `nil`), of one tenant or of
    /// all, in order, at most `limit`.
    public func events(after position: EventPosition, through: EventPosition? = nil, tenant: String? = nil, limit: Int) async throws -> [StoredEvent] {
        var conditions = ["(transaction, sequence) > ($1::xid8, $2)", Self.settled]
        var arguments: [PostgresValue] = [.text(String(position.transaction)), .integer(position.sequence), .integer(Int64(limit))]
        if let through {
            conditions.append("(transaction, sequence) <= ($\(arguments.count + 1)::xid8, $\(arguments.count + 2))")
            arguments += [.text(String(through.transaction)), .integer(through.sequence)]
        }
        if let tenant {
            conditions.append("tenant = $\(arguments.count + 1)")
            arguments.append(.text(tenant))
        }
        let sql = """
            SELECT transaction::text::bigint, sequence, tenant, recipient, body, kind FROM event
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY transaction, sequence LIMIT $3
            """
        let bound = arguments
        let rows = try await database.read { db in try db.query(sql, bound) }
        return try rows.map { row in
            guard let tenant = row[2].text, let recipient = row[3].text, let body = row[4].bytes, let kind = row[5].text else {
                throw PostgresError.unexpectedResult("an event row")
            }
            return StoredEvent(position: try Self.position(row[0], row[1]), kind: kind, tenant: tenant, recipient: recipient, body: body)
        }
    }

    /// The position of the tenant's event with this number, if the log still has it (a stream's
    /// `Last-Event-ID`).
    public func position(ofSequence sequence: Int64, tenant: String) async throws -> EventPosition? {
        let rows = try await database.read { db in
            try db.query("SELECT transaction::text::bigint, sequence FROM event WHERE sequence = $1 AND tenant = $2", [.integer(sequence), .text(tenant)])
        }
        return try rows.first.map { try Self.position($0[0], $0[1]) }
    }

    static func position(_ transaction: PostgresValue, _ sequence: PostgresValue) throws -> EventPosition {
        guard let transaction = transaction.integer, let sequence = sequence.integer else { throw PostgresError.unexpectedResult("an event position") }
        return EventPosition(transaction: transaction, sequence: sequence)
    }
}
