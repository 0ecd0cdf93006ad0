import ChimeCore
public import ChimeEngine
import Foundation

/// One statement of a list page, built apart from running it so that tests can ask SQLite for its plan.
///
/// Every list statement names its index (`INDEXED BY`): SQLite then fails to prepare it rather than
/// quietly scan the table if the index is ever missing or unusable, which is the clause's stated intent
/// (<https://www.sqlite.org/lang_indexedby.html>). Its SQL ends in `LIMIT ?`, bound when it runs.
struct ListQuery {
    let sql: String
    let arguments: [SQLiteValue]

    func rows(in db: SQLiteConnection, limit: Int) throws -> [[SQLiteValue]] {
        try db.query(sql, arguments: arguments + [.integer(Int64(limit))])
    }
}

// MARK: Pending list

extension SQLiteNotificationStore {
    public func pendingPage(appIdentifier: String?, after position: PendingListPosition?, limit: Int) async throws -> [PendingRequest] {
        precondition(limit >= 1, "a page holds at least one request")
        let queries = Self.pendingPageQueries(appIdentifier: appIdentifier, after: position)
        let rows = try await database.read { db in
            var rows: [[SQLiteValue]] = []
            for query in queries where rows.count < limit {
                rows += try query.rows(in: db, limit: limit - rows.count)
            }
            return rows
        }
        return try await decodePending(rows)
    }

    public func pendingTotal(appIdentifier: String?) async throws -> Int {
        try await count(of: "pending", appIdentifier: appIdentifier)
    }

    /// The statements of a pending page, run in turn until the page is full: the dated requests through
    /// an index on the next fire date, then the undated ones through `pending_undated`.
    ///
    /// An index puts `NULL` dates first and the list puts them last, so no one index range gives the
    /// whole order. The position says in which of the two phases the page starts; after a dated
    /// position the undated phase starts from its beginning.
    static func pendingPageQueries(appIdentifier: String?, after position: PendingListPosition?) -> [ListQuery] {
        let select = "SELECT app_id, added, next_fire, request, request_id FROM pending"
        guard let app = appIdentifier else {
            let dated: Bound? =
                switch position {
                case nil: .fromStart
                case let position? where position.nextFireDate == nil: nil
                case let position?:
                    Bound(
                        "AND (next_fire, app_id, request_id) > (?, ?, ?)",
                        [.date(position.nextFireDate), .text(position.appIdentifier), .text(position.requestIdentifier)])
                }
            let undated: Bound =
                if let position, position.nextFireDate == nil {
                    Bound("AND (app_id, request_id) > (?, ?)", [.text(position.appIdentifier), .text(position.requestIdentifier)])
                } else {
                    .fromStart
                }
            return [
                dated.map { bound in
                    ListQuery(
                        sql: """
                            \(select) INDEXED BY pending_by_next_fire WHERE next_fire IS NOT NULL \(bound.condition)
                            ORDER BY next_fire, app_id, request_id LIMIT ?
                            """,
                        arguments: bound.arguments)
                },
                ListQuery(
                    sql: """
                        \(select) INDEXED BY pending_undated WHERE next_fire IS NULL \(undated.condition)
                        ORDER BY app_id, request_id LIMIT ?
                        """,
                    arguments: undated.arguments),
            ].compactMap { $0 }
        }

        // One app: the position may come from the list of every app, so where the app's requests start
        // depends on how the app orders against the position's app at the position's date.
        let dated: Bound? =
            switch position {
            case nil: .fromStart
            case let position? where position.nextFireDate == nil: nil
            case let position? where position.appIdentifier == app:
                Bound("AND (next_fire, request_id) > (?, ?)", [.date(position.nextFireDate), .text(position.requestIdentifier)])
            case let position?:
                // At the position's date, the app's requests come after it when the app does.
                Bound(
                    position.appIdentifier.precedesInByteOrder(app) ? "AND next_fire >= ?" : "AND next_fire > ?",
                    [.date(position.nextFireDate)])
            }
        let undated: Bound? =
            switch position {
            case let position? where position.nextFireDate == nil:
                if position.appIdentifier == app {
                    Bound("AND request_id > ?", [.text(position.requestIdentifier)])
                } else {
                    position.appIdentifier.precedesInByteOrder(app) ? .fromStart : nil
                }
            default: .fromStart
            }
        return [
            dated.map { bound in
                ListQuery(
                    sql: """
                        \(select) INDEXED BY pending_by_app_next_fire WHERE app_id = ? AND next_fire IS NOT NULL \(bound.condition)
                        ORDER BY next_fire, request_id LIMIT ?
                        """,
                    arguments: [.text(app)] + bound.arguments)
            },
            undated.map { bound in
                ListQuery(
                    sql: """
                        \(select) INDEXED BY pending_undated WHERE app_id = ? AND next_fire IS NULL \(bound.condition)
                        ORDER BY request_id LIMIT ?
                        """,
                    arguments: [.text(app)] + bound.arguments)
            },
        ].compactMap { $0 }
    }
}

/// Where a phase of a page starts: a condition (with its arguments) that keeps the rows after the position.
private struct Bound {
    static let fromStart = Bound("", [])

    let condition: String
    let arguments: [SQLiteValue]

    init(_ condition: String, _ arguments: [SQLiteValue]) {
        self.condition = condition
        self.arguments = arguments
    }
}

// MARK: Delivered list

extension SQLiteNotificationStore {
    public func deliveredPage(
        appIdentifier: String?, after position: DeliveredListPosition?, limit: Int
    ) async throws -> [DeliveredListEntry] {
        precondition(limit >= 1, "a page holds at least one notification")
        let rows = try await database.read { db in
            try DeliveredListWalk.page(
                appIdentifier: appIdentifier, after: position, limit: limit, nextApp: { try Self.nextDeliveredApp(after: $0, in: db) },
                rows: { app, before, limit in try Self.deliveredAppQuery(app, before: before).rows(in: db, limit: limit) })
        }
        let notifications = try await decodeDelivered(rows.map { ($0.app, $0.row[2], $0.row[1]) })
        var entries: [DeliveredListEntry] = []
        for (entry, notification) in zip(rows, notifications) {
            guard case .integer(let sequence) = entry.row[0] else { throw StoreCoding.corruptRow }
            guard let notification else { continue }  // quarantined
            entries.append(DeliveredListEntry(position: DeliveredListPosition(appIdentifier: entry.app, sequence: sequence), notification: notification))
        }
        return entries
    }

    public func deliveredTotal(appIdentifier: String?) async throws -> Int {
        try await count(of: "delivered", appIdentifier: appIdentifier)
    }

    /// The app's delivered notifications older than `before` (all when `nil`), newest first.
    static func deliveredAppQuery(_ appIdentifier: String, before sequence: Int64?) -> ListQuery {
        ListQuery(
            sql: """
                SELECT sequence, notification, notification_id FROM delivered INDEXED BY delivered_by_sequence
                WHERE app_id = ? \(sequence == nil ? "" : "AND sequence < ?") ORDER BY sequence DESC LIMIT ?
                """,
            arguments: [.text(appIdentifier)] + (sequence.map { [.integer($0)] } ?? []))
    }

    /// The first app after `appIdentifier` (the first of all when `nil`) that has delivered notifications.
    static func nextDeliveredAppQuery(after appIdentifier: String?) -> ListQuery {
        ListQuery(
            sql: """
                SELECT app_id FROM delivered INDEXED BY delivered_by_sequence
                \(appIdentifier == nil ? "" : "WHERE app_id > ?") ORDER BY app_id LIMIT ?
                """,
            arguments: appIdentifier.map { [.text($0)] } ?? [])
    }

    private static func nextDeliveredApp(after appIdentifier: String?, in db: SQLiteConnection) throws -> String? {
        guard let row = try nextDeliveredAppQuery(after: appIdentifier).rows(in: db, limit: 1).first else { return nil }
        guard let app = row[0].text else { throw StoreCoding.corruptRow }
        return app
    }

    /// Counts the rows of `table` (one of the store's own table names) that belong to the app, or all
    /// its rows when `nil`.
    private func count(of table: String, appIdentifier: String?) async throws -> Int {
        let query = Self.countQuery(of: table, appIdentifier: appIdentifier)
        let rows = try await database.read { db in try db.query(query.sql, arguments: query.arguments) }
        guard case .integer(let count) = rows.first?.first else { throw StoreCoding.corruptRow }
        return Int(count)
    }

    /// A `count(*)`, which SQLite answers from the entries of an index that holds every row (for one app,
    /// a range of one), never from the rows' blobs.
    static func countQuery(of table: String, appIdentifier: String?) -> (sql: String, arguments: [SQLiteValue]) {
        guard let appIdentifier else { return ("SELECT count(*) FROM \(table)", []) }
        return ("SELECT count(*) FROM \(table) WHERE app_id = ?", [.text(appIdentifier)])
    }
}

extension String {
    /// Whether the string comes first in SQLite's `BINARY` collation, which compares UTF-8 bytes.
    fileprivate func precedesInByteOrder(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
