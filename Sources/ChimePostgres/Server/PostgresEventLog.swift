public import Foundation

/// An event as the log keeps it: its number, what it is (`delivered`, `responded`: a stream's event name),
/// whose it is, when it may be read, and its body (the JSON a stream sends).
public struct StoredEvent: Sendable, Hashable {
    public var sequence: Int64
    public var kind: String
    public var tenant: String
    public var recipient: String
    /// When a reader may see it: a fire recorded ahead of its due instant is read from that instant on.
    public var readable: Date
    public var body: [UInt8]

    public init(sequence: Int64 = 0, kind: String, tenant: String, recipient: String, readable: Date, body: [UInt8]) {
        self.sequence = sequence
        self.kind = kind
        self.tenant = tenant
        self.recipient = recipient
        self.readable = readable
        self.body = body
    }
}

/// What a reader got: events in order, and when the first one it may not read yet becomes readable (the
/// reader reads again then).
public struct EventPage: Sendable {
    public var events: [StoredEvent]
    public var nextReadable: Date?
}

/// Server mode's event log: every delivery and response as a numbered event in the database, so a stream
/// resumes from its last event on any node.
///
/// Numbers follow commit order, so a reader that has passed a number never sees a lower one appear later:
/// every writer appends under one transaction-scoped advisory lock, taken just before its events are
/// inserted and held until its commit, so the next writer's numbers are drawn only after the previous
/// writer's events are visible. (PostgreSQL releases a transaction's locks after its commit is visible.)
/// The lock is held for the insert and the commit only — a millisecond or two — and long transactions that
/// write no events (a batch of 10,000 adds) delay no reader.
///
/// A fire may be recorded a little ahead of its due instant; its event carries that instant as `created`,
/// and readers stop at the first event not yet readable by their clock, so no stream sees a fire early and
/// none sees the events behind it before it.
public struct PostgresEventLog: Sendable {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// The channel a notification is sent on when events were written.
    public static let channel = "chime_events"
    /// The advisory lock appends hold from their insert to their commit (`pg_advisory_xact_lock`).
    static let appendLock: Int64 = 0x6368_696d_6565_7674  // "chimeevt"

    /// Appends events in `db`'s transaction, in the order given, and wakes the readers of every node when
    /// it commits. Call it last in the transaction: it holds the log's lock until the commit.
    static func append(_ events: [StoredEvent], in db: PostgresConnection) throws {
        guard !events.isEmpty else { return }
        try db.query("SELECT pg_advisory_xact_lock($1)", [.integer(appendLock)])
        try db.query(
            """
            INSERT INTO event (kind, tenant, recipient, created, body)
            SELECT kind, tenant, recipient, created, body
            FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::bytea[]) WITH ORDINALITY AS e (kind, tenant, recipient, created, body, position)
            ORDER BY position
            """,
            [
                .texts(events.map(\.kind)), .texts(events.map(\.tenant)), .texts(events.map(\.recipient)),
                .array(.double, events.map { .date($0.readable) }), .array(.bytes, events.map { .bytes($0.body) }),
            ])
        try db.query("SELECT pg_notify('\(channel)', '')")
    }

    /// The number of the last event readable at `now`: where a live reader starts.
    public func head(now: Date) async throws -> Int64 {
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT coalesce((SELECT min(sequence) - 1 FROM event WHERE created > $1), (SELECT max(sequence) FROM event), 0)
                """, [.date(now)])
        }
        guard let head = rows.first?[0].integer else { throw PostgresError.unexpectedResult("the event log's head") }
        return head
    }

    /// Events after `sequence` and up to `through` (every one when `nil`), of one tenant or of all, in
    /// order, at most `limit`, stopping before the first one not readable at `now`. With `bodiesOf`, only
    /// those tenants' events carry their bodies (the others' are empty): a reader that only needs to pass
    /// events nobody follows does not fetch them.
    public func events(after sequence: Int64, through: Int64? = nil, tenant: String? = nil, limit: Int, now: Date, bodiesOf: Set<String>? = nil) async throws -> EventPage {
        var conditions = ["sequence > $1"]
        var arguments: [PostgresValue] = [.integer(sequence), .integer(Int64(limit))]
        var body = "body"
        if let bodiesOf {
            arguments.append(.texts(Array(bodiesOf)))
            body = "CASE WHEN tenant = ANY($\(arguments.count)) THEN body ELSE ''::bytea END"
        }
        if let through {
            arguments.append(.integer(through))
            conditions.append("sequence <= $\(arguments.count)")
        }
        if let tenant {
            arguments.append(.text(tenant))
            conditions.append("tenant = $\(arguments.count)")
        }
        // Only the readable prefix is fetched, then the first event past it (without its body) says when
        // to read again: a reader that wakes often must not fetch the events ahead of it each time.
        arguments.append(.date(now))
        let stop = "SELECT sequence, created FROM event WHERE \(conditions.joined(separator: " AND ")) AND created > $\(arguments.count) ORDER BY sequence LIMIT 1"
        let sql = """
            WITH stop AS (\(stop))
            (SELECT sequence, kind, tenant, recipient, created, \(body) FROM event
             WHERE \(conditions.joined(separator: " AND ")) AND sequence < coalesce((SELECT sequence FROM stop), 9223372036854775807)
             ORDER BY sequence LIMIT $2)
            UNION ALL SELECT sequence, '', '', '', created, ''::bytea FROM stop
            """
        let bound = arguments
        let rows = try await database.read { db in try db.query(sql, bound) }
        var events: [StoredEvent] = []
        for row in rows {
            guard let sequence = row[0].integer, let kind = row[1].text, let tenant = row[2].text, let recipient = row[3].text,
                let readable = row[4].date, let body = row[5].bytes
            else { throw PostgresError.unexpectedResult("an event row") }
            if readable > now { return EventPage(events: events, nextReadable: readable) }
            events.append(StoredEvent(sequence: sequence, kind: kind, tenant: tenant, recipient: recipient, readable: readable, body: body))
        }
        return EventPage(events: events, nextReadable: nil)
    }

    /// Whether the log still has the tenant's event with this number (a stream's `Last-Event-ID`).
    public func has(sequence: Int64, tenant: String) async throws -> Bool {
        try await database.read { db in
            try !db.query("SELECT 1 FROM event WHERE sequence = $1 AND tenant = $2", [.integer(sequence), .text(tenant)]).isEmpty
        }
    }
}
