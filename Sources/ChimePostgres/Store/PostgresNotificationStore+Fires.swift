public import ChimeCore
public import ChimeEngine
import ChimeStoreCoding
import Foundation

// MARK: Fires, delivered notifications, missed fires

extension PostgresNotificationStore {
    public func recordFires(_ records: [FireRecord]) async throws -> [FireRecord] {
        guard !records.isEmpty else { return [] }
        let (tenant, recipient, scope) = (tenant, recipient, scope)
        let fires = try records.map { try PostgresFireWriter.Fire(tenant: tenant, recipient: recipient, record: $0) }
        let keys = Set(records.map(\.key)).sorted()
        let applied = try await database.transaction { db -> [Int] in
            // Every request the records touch, locked in one order (two nodes recording overlapping batches
            // then wait for each other instead of deadlocking).
            let locked = try db.query(
                """
                SELECT app_id, request_id, next_fire FROM pending
                WHERE tenant = $1 AND recipient = $2 AND (app_id, request_id) IN (SELECT * FROM unnest($3::text[], $4::text[]))
                ORDER BY app_id, request_id FOR UPDATE
                """,
                scope + [.texts(keys.map(\.appIdentifier)), .texts(keys.map(\.requestIdentifier))])
            var current: [PostgresFireWriter.Key: Date] = [:]
            for row in locked {
                guard let app = row[0].text, let request = row[1].text else { throw PostgresError.unexpectedResult("a pending key") }
                let key = PostgresFireWriter.Key(tenant: tenant, recipient: recipient, request: RequestKey(appIdentifier: app, requestIdentifier: request))
                if let date = row[2].date { current[key] = date }
            }
            return try PostgresFireWriter.apply(fires, current: current, in: db)
        }
        return applied.map { records[$0] }
    }

    public func deliveredNotifications(appIdentifier: String) async throws -> [DeliveredNotification] {
        let scope = scope
        let rows = try await database.read { db in
            try db.query(
                "SELECT notification FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 ORDER BY sequence DESC", scope + [.text(appIdentifier)])
        }
        return try rows.map { try Self.decode(DeliveredNotification.self, $0[0]) }
    }

    public func deliveredNotification(appIdentifier: String, identifier: String) async throws -> DeliveredNotification? {
        let scope = scope
        let rows = try await database.read { db in
            try db.query(
                "SELECT notification FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND notification_id = $4",
                scope + [.text(appIdentifier), .text(identifier)])
        }
        return try rows.first.map { try Self.decode(DeliveredNotification.self, $0[0]) }
    }

    public func deliveredCount(appIdentifier: String, threadIdentifier: String) async throws -> Int {
        try await deliveredCounts(appIdentifier: appIdentifier, threadIdentifiers: [threadIdentifier])[threadIdentifier] ?? 0
    }

    public func deliveredCounts(appIdentifier: String, threadIdentifiers: Set<String>) async throws -> [String: Int] {
        guard !threadIdentifiers.isEmpty else { return [:] }
        let arguments: [PostgresValue] = scope + [.text(appIdentifier), .texts(threadIdentifiers)]
        let rows = try await database.read { db in
            try db.query(
                "SELECT thread_id, count(*) FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND thread_id = ANY($4) GROUP BY thread_id",
                arguments)
        }
        var counts = Dictionary(uniqueKeysWithValues: threadIdentifiers.map { ($0, 0) })
        for row in rows {
            guard let thread = row[0].text, let count = row[1].integer else { throw PostgresError.unexpectedResult("a thread's count") }
            counts[thread] = Int(count)
        }
        return counts
    }

    public func updateDelivered(appIdentifier: String, _ notification: DeliveredNotification) async throws {
        let arguments: [PostgresValue] = scope + [.text(appIdentifier), .text(notification.identifier), .bytes(try StoreRecord.encode(notification, form: PostgresNotificationStore.recordForm))]
        try await database.transaction { db in
            try db.query("UPDATE delivered SET notification = $5 WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND notification_id = $4", arguments)
        }
    }

    @discardableResult
    public func removeDelivered(appIdentifier: String, identifiers: [String]?) async throws -> [String] {
        let scope = scope
        let rows = try await database.transaction { db in
            if let identifiers {
                return try db.query(
                    "DELETE FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND notification_id = ANY($4) RETURNING notification_id",
                    scope + [.text(appIdentifier), .texts(identifiers)])
            }
            return try db.query("DELETE FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 RETURNING notification_id", scope + [.text(appIdentifier)])
        }
        return try rows.map { row in
            guard let identifier = row[0].text else { throw PostgresError.unexpectedResult("a notification identifier") }
            return identifier
        }
    }

    public func missedFires(appIdentifier: String) async throws -> [MissedFire] {
        let scope = scope
        let rows = try await database.read { db in
            try db.query("SELECT record FROM missed WHERE tenant = $1 AND recipient = $2 AND app_id = $3 ORDER BY sequence", scope + [.text(appIdentifier)])
        }
        return try rows.map { try Self.decode(MissedFire.self, $0[0]) }
    }

    public func clearMissedFires(appIdentifier: String) async throws {
        let scope = scope
        try await database.transaction { db in
            try db.query("DELETE FROM missed WHERE tenant = $1 AND recipient = $2 AND app_id = $3", scope + [.text(appIdentifier)])
        }
    }
}
