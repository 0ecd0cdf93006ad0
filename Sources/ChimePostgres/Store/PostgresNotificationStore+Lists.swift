import ChimeCore
public import ChimeEngine
import Foundation

// MARK: List pages

/// The list pages of the SQLite store (see `NotificationStore`), in PostgreSQL: each phase of a page is a
/// keyset range of one index. Row comparisons with `NULL` are never true, so the dated and the undated
/// requests are two phases, the position saying where the page starts.
extension PostgresNotificationStore {
    public func pendingPage(appIdentifier: String?, after position: PendingListPosition?, limit: Int) async throws -> [PendingRequest] {
        precondition(limit >= 1, "a page holds at least one request")
        let phases = Self.pendingPhases(appIdentifier: appIdentifier, after: position)
        let scope = scope
        let rows = try await database.snapshot { db in
            var rows: [[PostgresValue]] = []
            for phase in phases where rows.count < limit {
                rows += try db.query(phase.sql, scope + [.integer(Int64(limit - rows.count))] + phase.arguments)
            }
            return rows
        }
        return try rows.map(Self.pendingRequest)
    }

    public func pendingTotal(appIdentifier: String?) async throws -> Int {
        try await count(of: "pending", appIdentifier: appIdentifier)
    }

    /// A statement of a page: `$1` and `$2` are the scope, `$3` the limit, its own arguments from `$4`.
    struct Phase {
        let sql: String
        let arguments: [PostgresValue]
    }

    static func pendingPhases(appIdentifier: String?, after position: PendingListPosition?) -> [Phase] {
        let select = "\(selectPending) WHERE tenant = $1 AND recipient = $2"
        guard let app = appIdentifier else {
            let dated: Phase? =
                switch position {
                case nil: Phase(sql: "", arguments: [])
                case let position? where position.nextFireDate == nil: nil
                case let position?:
                    Phase(
                        sql: "AND (next_fire, app_id, request_id) > ($4, $5, $6)",
                        arguments: [.date(position.nextFireDate), .text(position.appIdentifier), .text(position.requestIdentifier)])
                }
            let undated =
                if let position, position.nextFireDate == nil {
                    Phase(sql: "AND (app_id, request_id) > ($4, $5)", arguments: [.text(position.appIdentifier), .text(position.requestIdentifier)])
                } else {
                    Phase(sql: "", arguments: [])
                }
            return [
                dated.map {
                    Phase(
                        sql: "\(select) AND next_fire IS NOT NULL \($0.sql) ORDER BY next_fire, app_id, request_id LIMIT $3", arguments: $0.arguments)
                },
                Phase(sql: "\(select) AND next_fire IS NULL \(undated.sql) ORDER BY app_id, request_id LIMIT $3", arguments: undated.arguments),
            ].compactMap { $0 }
        }

        // One app: the position may come from the list of every app, so where the app's requests start
        // depends on how the app orders against the position's app at the position's date.
        let dated: Phase? =
            switch position {
            case nil: Phase(sql: "", arguments: [])
            case let position? where position.nextFireDate == nil: nil
            case let position? where position.appIdentifier == app:
                Phase(sql: "AND (next_fire, request_id) > ($5, $6)", arguments: [.date(position.nextFireDate), .text(position.requestIdentifier)])
            case let position?:
                Phase(sql: position.appIdentifier.precedesInByteOrder(app) ? "AND next_fire >= $5" : "AND next_fire > $5", arguments: [.date(position.nextFireDate)])
            }
        let undated: Phase? =
            switch position {
            case let position? where position.nextFireDate == nil:
                if position.appIdentifier == app {
                    Phase(sql: "AND request_id > $5", arguments: [.text(position.requestIdentifier)])
                } else {
                    position.appIdentifier.precedesInByteOrder(app) ? Phase(sql: "", arguments: []) : nil
                }
            default: Phase(sql: "", arguments: [])
            }
        return [
            dated.map {
                Phase(
                    sql: "\(select) AND app_id = $4 AND next_fire IS NOT NULL \($0.sql) ORDER BY next_fire, request_id LIMIT $3",
                    arguments: [.text(app)] + $0.arguments)
            },
            undated.map {
                Phase(sql: "\(select) AND app_id = $4 AND next_fire IS NULL \($0.sql) ORDER BY request_id LIMIT $3", arguments: [.text(app)] + $0.arguments)
            },
        ].compactMap { $0 }
    }

    /// Fires are recorded ahead of their instants (`PostgresFireClaimer`), so the delivered list, like a
    /// stream, shows a notification only once its instant has come.
    public func deliveredPage(appIdentifier: String?, after position: DeliveredListPosition?, limit: Int) async throws -> [DeliveredListEntry] {
        precondition(limit >= 1, "a page holds at least one notification")
        let scope = scope
        let now = PostgresValue.date(Date())
        let rows = try await database.snapshot { db in
            try DeliveredListWalk.page(
                appIdentifier: appIdentifier, after: position, limit: limit, nextApp: { try Self.nextDeliveredApp(after: $0, scope: scope, in: db) },
                rows: { app, before, limit in
                    try db.query(
                        """
                        SELECT sequence, notification FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND sequence < $4
                            AND date <= $6
                        ORDER BY sequence DESC LIMIT $5
                        """,
                        scope + [.text(app), .integer(before ?? .max), .integer(Int64(limit)), now])
                })
        }
        return try rows.map { entry in
            guard let sequence = entry.row[0].integer else { throw PostgresError.unexpectedResult("a delivered sequence") }
            return DeliveredListEntry(
                position: DeliveredListPosition(appIdentifier: entry.app, sequence: sequence),
                notification: try Self.decode(DeliveredNotification.self, entry.row[1]))
        }
    }

    public func deliveredTotal(appIdentifier: String?) async throws -> Int {
        let arguments = scope + [appIdentifier.map(PostgresValue.text) ?? .null, .date(Date())]
        let rows = try await database.read { db in
            try db.query(
                "SELECT count(*) FROM delivered WHERE tenant = $1 AND recipient = $2 AND ($3::text IS NULL OR app_id = $3) AND date <= $4", arguments)
        }
        guard let count = rows.first?.first?.integer else { throw PostgresError.unexpectedResult("a count") }
        return Int(count)
    }

    /// The first app after `appIdentifier` (the first of all when `nil`) that has delivered notifications.
    private static func nextDeliveredApp(after appIdentifier: String?, scope: [PostgresValue], in db: PostgresConnection) throws -> String? {
        let rows =
            if let appIdentifier {
                try db.query("SELECT app_id FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id > $3 ORDER BY app_id LIMIT 1", scope + [.text(appIdentifier)])
            } else {
                try db.query("SELECT app_id FROM delivered WHERE tenant = $1 AND recipient = $2 ORDER BY app_id LIMIT 1", scope)
            }
        guard let row = rows.first else { return nil }
        guard let app = row[0].text else { throw PostgresError.unexpectedResult("an app identifier") }
        return app
    }

    /// Counts the rows of `table` (one of the store's own table names) of the app, or of the tenant.
    private func count(of table: String, appIdentifier: String?) async throws -> Int {
        let scope = scope
        let rows = try await database.read { db in
            if let appIdentifier {
                return try db.query("SELECT count(*) FROM \(table) WHERE tenant = $1 AND recipient = $2 AND app_id = $3", scope + [.text(appIdentifier)])
            }
            return try db.query("SELECT count(*) FROM \(table) WHERE tenant = $1 AND recipient = $2", scope)
        }
        guard let count = rows.first?.first?.integer else { throw PostgresError.unexpectedResult("a count") }
        return Int(count)
    }
}

extension String {
    /// Whether the string comes first in the `"C"` collation, which compares UTF-8 bytes.
    fileprivate func precedesInByteOrder(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
