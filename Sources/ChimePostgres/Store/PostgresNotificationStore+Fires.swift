public import ChimeCore
public import ChimeEngine
import ChimeStoreCoding
import Foundation

// MARK: Fires, delivered notifications, missed fires

extension PostgresNotificationStore {
    public func recordFires(_ records: [FireRecord]) async throws -> [FireRecord] {
        guard !records.isEmpty else { return [] }
        let blobs = try records.map { record in
            (delivered: try record.delivered.map(StoreRecord.encode), missed: try record.missed.map(StoreRecord.encode))
        }
        let keys = Set(records.map(\.key)).sorted()
        let scope = scope
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
            var current: [RequestKey: Date] = [:]
            for row in locked {
                guard let app = row[0].text, let request = row[1].text else { throw PostgresError.unexpectedResult("a pending key") }
                if let date = row[2].date { current[RequestKey(appIdentifier: app, requestIdentifier: request)] = date }
            }

            // The records in order, each applied only while its request still has the fired date, as if
            // recorded one by one; then the net changes written with a few statements.
            var applied: [Int] = []
            var deliveries: [RequestKey: (thread: String, blob: [UInt8], order: Int)] = [:]
            var badges: [String: Int] = [:]
            var misses: [(app: String, blob: [UInt8])] = []
            for (index, record) in records.enumerated() {
                guard current[record.key] == record.firedDate else { continue }
                if let notification = record.delivered, let blob = blobs[index].delivered {
                    deliveries[record.key] = (notification.request.content.threadIdentifier, blob, index)
                    if let badge = notification.request.content.badge { badges[record.key.appIdentifier] = badge }
                }
                current[record.key] = record.nextFireDate
                if let missed = blobs[index].missed { misses.append((record.key.appIdentifier, missed)) }
                applied.append(index)
            }
            guard !applied.isEmpty else { return [] }
            let touched = Set(applied.map { records[$0].key })

            let advanced = touched.filter { current[$0] != nil }.sorted()
            if !advanced.isEmpty {
                try db.query(
                    """
                    UPDATE pending SET next_fire = changed.next_fire
                    FROM unnest($3::text[], $4::text[], $5::float8[]) AS changed (app_id, request_id, next_fire)
                    WHERE pending.tenant = $1 AND pending.recipient = $2 AND pending.app_id = changed.app_id AND pending.request_id = changed.request_id
                    """,
                    scope + [
                        .texts(advanced.map(\.appIdentifier)), .texts(advanced.map(\.requestIdentifier)),
                        .array(.double, advanced.map { .date(current[$0]) }),
                    ])
            }
            let finished = touched.filter { current[$0] == nil }.sorted()
            if !finished.isEmpty {
                try db.query(
                    "DELETE FROM pending WHERE tenant = $1 AND recipient = $2 AND (app_id, request_id) IN (SELECT * FROM unnest($3::text[], $4::text[]))",
                    scope + [.texts(finished.map(\.appIdentifier)), .texts(finished.map(\.requestIdentifier))])
            }
            // Delivered in the order of their records, so the sequence numbers them newest last.
            let delivered = deliveries.sorted { $0.value.order < $1.value.order }
            if !delivered.isEmpty {
                try db.query(
                    """
                    INSERT INTO delivered (tenant, recipient, app_id, notification_id, thread_id, sequence, notification)
                    SELECT $1, $2, app_id, notification_id, thread_id, nextval('delivered_sequence'), notification
                    FROM unnest($3::text[], $4::text[], $5::text[], $6::bytea[]) AS fired (app_id, notification_id, thread_id, notification)
                    ON CONFLICT (tenant, recipient, app_id, notification_id) DO UPDATE SET
                        thread_id = excluded.thread_id, sequence = excluded.sequence, notification = excluded.notification
                    """,
                    scope + [
                        .texts(delivered.map(\.key.appIdentifier)), .texts(delivered.map(\.key.requestIdentifier)),
                        .texts(delivered.map(\.value.thread)), .array(.bytes, delivered.map { .bytes($0.value.blob) }),
                    ])
            }
            for (appIdentifier, badge) in badges.sorted(by: { $0.key < $1.key }) {
                var app = try Self.lockedApp(appIdentifier, scope: scope, in: db)
                app.badgeCount = badge
                try db.query(Self.upsertApp, scope + [.text(appIdentifier), .bytes(try StoreRecord.encode(app))])
            }
            if !misses.isEmpty {
                try db.query(
                    "INSERT INTO missed (tenant, recipient, app_id, record) SELECT $1, $2, * FROM unnest($3::text[], $4::bytea[])",
                    scope + [.texts(misses.map(\.app)), .array(.bytes, misses.map { .bytes($0.blob) })])
            }
            return applied
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
        let arguments: [PostgresValue] = scope + [.text(appIdentifier), .text(notification.identifier), .bytes(try StoreRecord.encode(notification))]
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
