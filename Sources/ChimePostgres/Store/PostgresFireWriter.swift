import ChimeCore
import ChimeEngine
import ChimeStoreCoding
import Foundation

/// Writes fire records, of one recipient or of many, in the transaction that locked their requests: the
/// one place where a fire becomes a delivered notification, an advanced or finished request, a badge and a
/// missed fire. `PostgresNotificationStore.recordFires` and server mode's nodes both write through it.
enum PostgresFireWriter {
    /// A request of one recipient of one tenant.
    struct Key: Hashable {
        var tenant: String
        var recipient: String
        var request: RequestKey
    }

    /// A record with whose it is, and its records already encoded (on the caller's task, not the
    /// connection's thread).
    struct Fire {
        var key: Key
        var record: FireRecord
        var delivered: [UInt8]?
        var missed: [UInt8]?

        init(tenant: String, recipient: String, record: FireRecord) throws {
            key = Key(tenant: tenant, recipient: recipient, request: record.key)
            self.record = record
            delivered = try record.delivered.map { try StoreRecord.encode($0, form: PostgresNotificationStore.recordForm) }
            missed = try record.missed.map { try StoreRecord.encode($0, form: PostgresNotificationStore.recordForm) }
        }
    }

    /// Applies the fires in order, each only while its request still has the fired date (`current`: the
    /// locked requests' dates), as if recorded one by one; then writes the net changes with a few
    /// statements whatever the number of recipients. Returns the indices of the fires applied.
    static func apply(_ fires: [Fire], current: [Key: Date], in db: PostgresConnection) throws -> [Int] {
        var current = current
        var applied: [Int] = []
        var deliveries: [Key: (thread: String, date: Date, blob: [UInt8], order: Int)] = [:]
        var badges: [Key: Int] = [:]
        var misses: [(key: Key, blob: [UInt8])] = []
        // Fired and left pending without a date (`staysPending`), unless a later fire dates them again.
        var undated: Set<Key> = []
        for (index, fire) in fires.enumerated() {
            guard current[fire.key] == fire.record.firedDate else { continue }
            if let notification = fire.record.delivered, let blob = fire.delivered {
                deliveries[fire.key] = (notification.request.content.threadIdentifier, notification.date, blob, index)
                if let badge = notification.request.content.badge { badges[fire.key] = badge }
            }
            current[fire.key] = fire.record.nextFireDate
            if fire.record.nextFireDate == nil, fire.record.staysPending { undated.insert(fire.key) } else { undated.remove(fire.key) }
            if let missed = fire.missed { misses.append((fire.key, missed)) }
            applied.append(index)
        }
        guard !applied.isEmpty else { return [] }
        let touched = Set(applied.map { fires[$0].key })

        let advanced = touched.filter { current[$0] != nil || undated.contains($0) }.sorted(by: order)
        if !advanced.isEmpty {
            try db.query(
                """
                UPDATE pending SET next_fire = changed.next_fire
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[]) AS changed (tenant, recipient, app_id, request_id, next_fire)
                WHERE (pending.tenant, pending.recipient, pending.app_id, pending.request_id)
                    = (changed.tenant, changed.recipient, changed.app_id, changed.request_id)
                """,
                columns(advanced) + [.array(.double, advanced.map { .date(current[$0]) })])
        }
        let finished = touched.filter { current[$0] == nil && !undated.contains($0) }.sorted(by: order)
        if !finished.isEmpty {
            try db.query(
                """
                DELETE FROM pending WHERE (tenant, recipient, app_id, request_id)
                    IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]))
                """,
                columns(finished))
        }
        // Delivered in the order of their records, so the sequence numbers them newest last.
        let delivered = deliveries.sorted { $0.value.order < $1.value.order }
        if !delivered.isEmpty {
            try db.query(
                """
                INSERT INTO delivered (tenant, recipient, app_id, notification_id, thread_id, sequence, date, notification)
                SELECT tenant, recipient, app_id, notification_id, thread_id, nextval('delivered_sequence'), date, notification
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::bytea[])
                    AS fired (tenant, recipient, app_id, notification_id, thread_id, date, notification)
                ON CONFLICT (tenant, recipient, app_id, notification_id) DO UPDATE SET
                    thread_id = excluded.thread_id, sequence = excluded.sequence, date = excluded.date, notification = excluded.notification
                """,
                columns(delivered.map(\.key)) + [
                    .texts(delivered.map(\.value.thread)), .array(.double, delivered.map { .date($0.value.date) }), .array(.bytes, delivered.map { .bytes($0.value.blob) })])
        }
        for (key, badge) in badges.sorted(by: { order($0.key, $1.key) }) {
            let scope: [PostgresValue] = [.text(key.tenant), .text(key.recipient)]
            var app = try PostgresNotificationStore.lockedApp(key.request.appIdentifier, scope: scope, in: db)
            app.badgeCount = badge
            try db.query(PostgresNotificationStore.upsertApp, scope + [.text(key.request.appIdentifier), .bytes(try StoreRecord.encode(app, form: PostgresNotificationStore.recordForm))])
        }
        if !misses.isEmpty {
            let keys = misses.map(\.key)
            try db.query(
                "INSERT INTO missed (tenant, recipient, app_id, record) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[])",
                [.texts(keys.map(\.tenant)), .texts(keys.map(\.recipient)), .texts(keys.map(\.request.appIdentifier)),
                 .array(.bytes, misses.map { .bytes($0.blob) })])
        }
        return applied
    }

    /// Tenant, recipient, app and request of each key, as four `text[]` parameters.
    private static func columns(_ keys: [Key]) -> [PostgresValue] {
        [.texts(keys.map(\.tenant)), .texts(keys.map(\.recipient)), .texts(keys.map(\.request.appIdentifier)), .texts(keys.map(\.request.requestIdentifier))]
    }

    /// One order for every lock and write, so that concurrent writers wait instead of deadlocking.
    static func order(_ left: Key, _ right: Key) -> Bool {
        (left.tenant, left.recipient, left.request) < (right.tenant, right.recipient, right.request)
    }
}
