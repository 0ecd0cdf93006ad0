import ChimeCore
public import ChimeEngine
public import ChimeStoreCoding
public import Foundation
import Synchronization

/// The engine's store on PostgreSQL, for server mode: one tenant's apps, pending requests, delivered
/// notifications and missed fires, in a database several tenants and several chimed nodes share.
///
/// Meets every `NotificationStore` requirement (checked by `StoreConformance`). Durability is
/// PostgreSQL's: a call returns once its transaction committed. Every statement names the store's tenant,
/// so a store opened for one tenant reads and writes that tenant's rows only. Records are kept in the
/// stores' shared codec (`StoreRecord`), in its wide form (`recordForm`).
///
/// Exactly once across nodes: `recordFires` locks the requests' rows (`FOR UPDATE`) and applies a record
/// only while the request still has the fired date, so when two nodes record the same fire, one applies
/// it and the other finds the date moved on and applies nothing — and the engine shows only what was
/// applied.
///
/// ```swift
/// let database = try await PostgresNotificationStore.open(conninfo: "host=/run/postgresql dbname=chime")
/// let store = PostgresNotificationStore(database: database, tenant: "acme")
/// ```
public final class PostgresNotificationStore: NotificationStore {
    let database: PostgresDatabase
    /// Whose rows this store reads and writes: a tenant's, and within it one recipient's (each recipient is
    /// a user of the tenant's apps, with their own pending, delivered and badges); `""` for the tenant's own.
    public let tenant: String
    public let recipient: String

    /// Rows written by one statement when many are written at once (an add of 10,000 requests is ten
    /// statements, not 10,000 round trips).
    static let rowsPerStatement = 1_000

    /// Opens (and migrates) the database the stores of every tenant share.
    public static func open(conninfo: String, configuration: PostgresDatabase.Configuration = .init()) async throws -> PostgresDatabase {
        try await PostgresDatabase(conninfo: conninfo, migrations: PostgresNotificationSchema.migrations, configuration: configuration)
    }

    /// The schema version this code gives a database.
    public static var schemaVersion: Int { PostgresNotificationSchema.migrations.last?.version ?? 0 }

    public init(database: PostgresDatabase, tenant: String, recipient: String = "") {
        self.database = database
        self.tenant = tenant
        self.recipient = recipient
    }

    /// `$1` and `$2` of every statement.
    var scope: [PostgresValue] { [.text(tenant), .text(recipient)] }

    // MARK: Apps

    public func app(_ appIdentifier: String) async throws -> AppRecord? {
        let scope = scope
        let rows = try await database.read { db in
            try db.query("SELECT record FROM app WHERE tenant = $1 AND recipient = $2 AND app_id = $3", scope + [.text(appIdentifier)])
        }
        return try rows.first.map { try Self.decode(AppRecord.self, $0[0]) }
    }

    public func allApps() async throws -> [AppRecord] {
        let scope = scope
        let rows = try await database.read { db in
            try db.query("SELECT record FROM app WHERE tenant = $1 AND recipient = $2 ORDER BY app_id", scope)
        }
        return try rows.map { try Self.decode(AppRecord.self, $0[0]) }
    }

    public func saveApp(_ record: AppRecord) async throws {
        let arguments: [PostgresValue] = scope + [.text(record.appIdentifier), .bytes(try StoreRecord.encode(record, form: PostgresNotificationStore.recordForm))]
        try await database.transaction { db in
            try db.query(Self.upsertApp, arguments)
        }
    }

    /// The form records are written in: the wide one, which every version reads, because the nodes of a
    /// cluster share the records and may run different versions while it is upgraded.
    public static let recordForm = StoreRecord.Form.wide

    static let upsertApp = """
        INSERT INTO app (tenant, recipient, app_id, record) VALUES ($1, $2, $3, $4)
        ON CONFLICT (tenant, recipient, app_id) DO UPDATE SET record = excluded.record
        """

    @discardableResult
    public func updateApp(_ appIdentifier: String, _ change: @escaping @Sendable (inout AppRecord) throws -> Void) async throws -> AppRecord {
        let scope = scope
        return try await database.transaction { db in
            var record = try Self.lockedApp(appIdentifier, scope: scope, in: db)
            try change(&record)
            try db.query(Self.upsertApp, scope + [.text(appIdentifier), .bytes(try StoreRecord.encode(record, form: PostgresNotificationStore.recordForm))])
            return record
        }
    }

    /// The app's record as the transaction sees it, or a new one, its row locked for the rest of the
    /// transaction so that nothing else changes it in between (`updateApp`'s promise).
    ///
    /// An app without a row gets one first (the new record; rolled back with the transaction): `FOR
    /// UPDATE` locks only rows that exist, so two transactions both starting from a new record would each
    /// write theirs and one change would be lost. The second insert waits for the first transaction and
    /// then finds the row, which it then locks.
    static func lockedApp(_ appIdentifier: String, scope: [PostgresValue], in db: PostgresConnection) throws -> AppRecord {
        try db.query(
            "INSERT INTO app (tenant, recipient, app_id, record) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant, recipient, app_id) DO NOTHING",
            scope + [.text(appIdentifier), .bytes(try StoreRecord.encode(AppRecord(appIdentifier: appIdentifier), form: PostgresNotificationStore.recordForm))])
        guard let row = try db.query("SELECT record FROM app WHERE tenant = $1 AND recipient = $2 AND app_id = $3 FOR UPDATE", scope + [.text(appIdentifier)]).first else {
            throw PostgresError.unexpectedResult("no app row after inserting it")
        }
        return try decode(AppRecord.self, row[0])
    }

    /// The app's record as the transaction sees it, or a new one; an existing row is locked against
    /// changes (`FOR SHARE`) until the transaction ends.
    static func sharedApp(_ appIdentifier: String, scope: [PostgresValue], in db: PostgresConnection) throws -> AppRecord {
        try db.query("SELECT record FROM app WHERE tenant = $1 AND recipient = $2 AND app_id = $3 FOR SHARE", scope + [.text(appIdentifier)]).first
            .map { try decode(AppRecord.self, $0[0]) } ?? AppRecord(appIdentifier: appIdentifier)
    }

    // MARK: Pending requests

    public func addPending(_ requests: [PendingRequest], admitting admit: @escaping @Sendable (AppRecord) throws -> Void) async throws {
        // Encoded here, on the caller's task; the connection's thread only writes.
        let columns = try PendingColumns(requests.map { (tenant, recipient, $0) })
        let appIdentifiers = Set(requests.map(\.appIdentifier)).sorted()
        let scope = scope
        try await database.transaction { db in
            for appIdentifier in appIdentifiers {
                try admit(try Self.sharedApp(appIdentifier, scope: scope, in: db))
            }
            try Self.insertPending(columns, in: db)
        }
    }

    /// Writes pending requests of any recipients, replacing those with the same keys, a thousand rows a
    /// statement.
    static func insertPending(_ columns: PendingColumns, in db: PostgresConnection) throws {
        for chunk in columns.chunks(of: rowsPerStatement) {
            try db.query(
                """
                INSERT INTO pending (\(PendingColumns.names))
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::bool[], $8::bytea[])
                ON CONFLICT (tenant, recipient, app_id, request_id) DO UPDATE SET
                    added = excluded.added, next_fire = excluded.next_fire,
                    floating_calendar = excluded.floating_calendar, request = excluded.request
                """,
                chunk)
        }
    }

    /// Writes pending requests with distinct keys, replacing those with the same keys, by copying the rows
    /// in: the fastest way rows reach a table.
    ///
    /// Whether old rows are deleted first depends on the last batch written. New keys (the common case: a
    /// backend adding notifications) are copied straight in, and the primary key's own check is the only
    /// lookup per row; deleting first would cost 10,000 more (about 30 ms a batch here). When a key already
    /// exists the copy fails at once on it; it is undone, and the old rows are deleted and the batch copied
    /// again. Batches that replace rows (a backend sending the same identifiers again) then delete first,
    /// until one finds nothing to delete. So a run of either kind pays its extra cost once.
    ///
    /// `encoded` gives the rows and their `COPY` data; when deleting first it is asked for only after the
    /// delete, so a caller that encodes them on another thread has PostgreSQL's delete and its own encoding
    /// (about 20 ms for 10,000 requests) run at once.
    ///
    /// A concurrent transaction that inserts one of the keys first makes the copy after the delete fail on
    /// the primary key once it commits (PostgreSQL makes the copy wait for it); the copy alone is then undone
    /// and the rows written by `insertPending`, whose `ON CONFLICT` replaces that row as it would have.
    static func replacePending(keys: [PostgresValue], encoded: () throws -> (columns: PendingColumns, copy: [UInt8]), in db: PostgresConnection) throws {
        if !lastBatchReplaced.load(ordering: .relaxed) {
            let (_, copy) = try encoded()
            try db.execute("SAVEPOINT copy_new_pending")
            do {
                try db.copyIn(copyPending, copy)
                return
            } catch {
                guard error.sqlState == uniqueViolation else { throw error }
                try db.execute("ROLLBACK TO SAVEPOINT copy_new_pending")
                lastBatchReplaced.store(true, ordering: .relaxed)
            }
        }
        let deleted = try db.query(
            """
            WITH old AS (
                DELETE FROM pending USING unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS old (tenant, recipient, app_id, request_id)
                WHERE pending.tenant = old.tenant AND pending.recipient = old.recipient AND pending.app_id = old.app_id
                    AND pending.request_id = old.request_id
                RETURNING 1)
            SELECT count(*) FROM old
            """,
            keys
        ).first?[0].integer ?? 0
        if deleted == 0 { lastBatchReplaced.store(false, ordering: .relaxed) }
        let (columns, copy) = try encoded()
        try db.execute("SAVEPOINT copy_pending")
        do {
            try db.copyIn(copyPending, copy)
        } catch {
            guard error.sqlState == uniqueViolation else { throw error }
            try db.execute("ROLLBACK TO SAVEPOINT copy_pending")
            try insertPending(columns, in: db)
        }
    }

    static let copyPending = "COPY pending (\(PendingColumns.names)) FROM STDIN WITH (FORMAT binary)"

    /// Whether the last batch `replacePending` wrote in this process replaced rows: a hint for the next
    /// one, never a rule (a wrong guess costs time, not correctness).
    private static let lastBatchReplaced = Atomic<Bool>(false)

    /// PostgreSQL's SQLSTATE for a duplicate key.
    static let uniqueViolation = "23505"

    static let selectPending = "SELECT app_id, added, next_fire, request FROM pending"

    public func pendingRequests(appIdentifier: String) async throws -> [PendingRequest] {
        let scope = scope
        let rows = try await database.read { db in
            try db.query(
                "\(Self.selectPending) WHERE tenant = $1 AND recipient = $2 AND app_id = $3 ORDER BY next_fire NULLS LAST, request_id", scope + [.text(appIdentifier)])
        }
        return try rows.map(Self.pendingRequest)
    }

    public func pendingRequests(_ keys: [RequestKey]) async throws -> [PendingRequest] {
        guard !keys.isEmpty else { return [] }
        let arguments: [PostgresValue] = scope + [.texts(keys.map(\.appIdentifier)), .texts(keys.map(\.requestIdentifier))]
        let rows = try await database.read { db in
            try db.query(
                """
                \(Self.selectPending) WHERE tenant = $1 AND recipient = $2
                AND (app_id, request_id) IN (SELECT * FROM unnest($3::text[], $4::text[]))
                """,
                arguments)
        }
        return try rows.map(Self.pendingRequest)
    }

    @discardableResult
    public func removePending(appIdentifier: String, identifiers: [String]?) async throws -> [RequestKey] {
        let scope = scope
        let rows = try await database.transaction { db in
            if let identifiers {
                return try db.query(
                    "DELETE FROM pending WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND request_id = ANY($4) RETURNING request_id",
                    scope + [.text(appIdentifier), .texts(identifiers)])
            }
            return try db.query("DELETE FROM pending WHERE tenant = $1 AND recipient = $2 AND app_id = $3 RETURNING request_id", scope + [.text(appIdentifier)])
        }
        return try rows.map { row in
            guard let identifier = row[0].text else { throw PostgresError.unexpectedResult("a request identifier") }
            return RequestKey(appIdentifier: appIdentifier, requestIdentifier: identifier)
        }.sorted()
    }

    public func pendingFires(after: SchedulerTimeline.Coverage?, through: Date, limit: Int) async throws -> [ScheduledFire] {
        let (condition, arguments): (String, [PostgresValue]) =
            switch after {
            case nil: ("", [])
            case .datesThrough(let date): ("AND next_fire > $5", [.date(date)])
            case .firesThrough(let last):
                ("AND (next_fire, app_id, request_id) > ($5, $6, $7)", [.date(last.date), .text(last.key.appIdentifier), .text(last.key.requestIdentifier)])
            }
        let scope = scope
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT next_fire, app_id, request_id FROM pending
                WHERE tenant = $1 AND recipient = $2 AND next_fire IS NOT NULL AND next_fire <= $3 \(condition)
                ORDER BY next_fire, app_id, request_id LIMIT $4
                """,
                scope + [.date(through), .integer(Int64(limit))] + arguments)
        }
        return try rows.map { row in
            guard let date = row[0].date, let app = row[1].text, let request = row[2].text else {
                throw PostgresError.unexpectedResult("a fire without date or key")
            }
            return ScheduledFire(date: date, key: RequestKey(appIdentifier: app, requestIdentifier: request))
        }
    }

    public func floatingCalendarRequests() async throws -> [PendingRequest] {
        let scope = scope
        let rows = try await database.read { db in
            try db.query("\(Self.selectPending) WHERE tenant = $1 AND recipient = $2 AND floating_calendar ORDER BY app_id, request_id", scope)
        }
        return try rows.map(Self.pendingRequest)
    }

    public func updateNextFireDates(_ dates: [RequestKey: Date?]) async throws {
        guard !dates.isEmpty else { return }
        let entries = Array(dates)
        let arguments: [PostgresValue] = scope + [
            .texts(entries.map(\.key.appIdentifier)), .texts(entries.map(\.key.requestIdentifier)),
            .array(.double, entries.map { PostgresValue.date($0.value) }),
        ]
        try await database.transaction { db in
            try db.query(
                """
                UPDATE pending SET next_fire = changed.next_fire
                FROM unnest($3::text[], $4::text[], $5::float8[]) AS changed (app_id, request_id, next_fire)
                WHERE pending.tenant = $1 AND pending.recipient = $2 AND pending.app_id = changed.app_id AND pending.request_id = changed.request_id
                """,
                arguments)
        }
    }

    public func dateUndated(_ requests: [RequestKey: Date], at date: Date) async throws -> [RequestKey] {
        guard !requests.isEmpty else { return [] }
        let entries = Array(requests)
        let arguments: [PostgresValue] = scope + [
            .texts(entries.map(\.key.appIdentifier)), .texts(entries.map(\.key.requestIdentifier)), .array(.double, entries.map { PostgresValue.date($0.value) }),
            .date(date),
        ]
        let rows = try await database.transaction { db in
            try db.query(
                """
                UPDATE pending SET next_fire = $6
                FROM unnest($3::text[], $4::text[], $5::float8[]) AS armed (app_id, request_id, added)
                WHERE pending.tenant = $1 AND pending.recipient = $2 AND pending.app_id = armed.app_id AND pending.request_id = armed.request_id
                    AND pending.next_fire IS NULL AND pending.added = armed.added
                RETURNING pending.app_id, pending.request_id
                """,
                arguments)
        }
        return rows.compactMap { row in
            guard let app = row[0].text, let identifier = row[1].text else { return nil }
            return RequestKey(appIdentifier: app, requestIdentifier: identifier)
        }
    }

    public func shiftPending(_ keys: [RequestKey], by interval: TimeInterval) async throws {
        guard !keys.isEmpty else { return }
        // The same IEEE addition as `Date.addingTimeInterval`, so a shifted date equals the engine's.
        let arguments: [PostgresValue] = scope + [.texts(keys.map(\.appIdentifier)), .texts(keys.map(\.requestIdentifier)), .double(interval)]
        try await database.transaction { db in
            try db.query(
                """
                UPDATE pending SET added = added + $5, next_fire = next_fire + $5
                WHERE tenant = $1 AND recipient = $2 AND (app_id, request_id) IN (SELECT * FROM unnest($3::text[], $4::text[]))
                """,
                arguments)
        }
    }

    /// A pending request from `app_id, added, next_fire, request`.
    static func pendingRequest(_ row: [PostgresValue]) throws -> PendingRequest {
        guard row.count >= 4, let app = row[0].text, let added = row[1].date else { throw PostgresError.unexpectedResult("a pending row") }
        return PendingRequest(appIdentifier: app, request: try decode(NotificationRequest.self, row[3]), addedDate: added, nextFireDate: row[2].date)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ column: PostgresValue) throws -> Value {
        guard let bytes = column.bytes else { throw PostgresError.unexpectedResult("a record that is not bytes") }
        return try StoreRecord.decode(type, from: bytes)
    }
}

/// Pending requests as the columns of `unnest`, encoded on the caller's task.
struct PendingColumns {
    private var rows: [(tenant: String, recipient: String, app: String, request: String, added: Date, next: Date?, floating: Bool, record: [UInt8])]

    init(_ requests: [(tenant: String, recipient: String, pending: PendingRequest)]) throws {
        rows = try requests.map { tenant, recipient, pending in
            (
                tenant, recipient, pending.appIdentifier, pending.request.identifier, pending.addedDate, pending.nextFireDate,
                pending.request.hasFloatingCalendarTrigger, try StoreRecord.encode(pending.request, form: PostgresNotificationStore.recordForm)
            )
        }
    }

    /// The columns each row gives, in order.
    static let names = PostgresBinaryCopy.pendingColumns

    /// `$1…$4` of a statement that finds these requests' keys, without encoding them.
    static func keys(_ requests: [(tenant: String, recipient: String, pending: PendingRequest)]) -> [PostgresValue] {
        [
            .texts(requests.map(\.tenant)), .texts(requests.map(\.recipient)), .texts(requests.map(\.pending.appIdentifier)),
            .texts(requests.map(\.pending.request.identifier)),
        ]
    }

    /// The rows for `COPY pending (names) FROM STDIN WITH (FORMAT binary)`.
    func binaryCopy() -> [UInt8] {
        var copy = PostgresBinaryCopy(reservingCapacity: rows.reduce(0) { $0 + 96 + $1.record.count })
        for row in rows {
            copy.appendPendingRow(
                tenant: row.tenant, recipient: row.recipient, app: row.app, request: row.request, added: row.added, next: row.next, floating: row.floating,
                record: row.record)
        }
        return copy.finished()
    }

    /// The parameters `$1…$8` of each statement, `size` rows each.
    func chunks(of size: Int) -> [[PostgresValue]] {
        stride(from: 0, to: rows.count, by: size).map { start in
            let chunk = rows[start..<min(start + size, rows.count)]
            return [
                .texts(chunk.map(\.tenant)), .texts(chunk.map(\.recipient)), .texts(chunk.map(\.app)), .texts(chunk.map(\.request)),
                .array(.double, chunk.map { .date($0.added) }), .array(.double, chunk.map { .date($0.next) }),
                .array(.boolean, chunk.map { .boolean($0.floating) }), .array(.bytes, chunk.map { .bytes($0.record) }),
            ]
        }
    }
}

extension PostgresBinaryCopy {
    /// The columns of the `pending` table a row gives, in its order.
    public static let pendingColumns = "tenant, recipient, app_id, request_id, added, next_fire, floating_calendar, request"

    /// A row of the `pending` table, for `COPY pending (pendingColumns) FROM STDIN WITH (FORMAT binary)`.
    public mutating func appendPendingRow(
        tenant: String, recipient: String, app: String, request: String, added: Date, next: Date?, floating: Bool, record: [UInt8]
    ) {
        startRow(fields: 8)
        append(text: tenant)
        append(text: recipient)
        append(text: app)
        append(text: request)
        append(date: added)
        append(date: next)
        append(boolean: floating)
        append(bytes: record)
    }
}
