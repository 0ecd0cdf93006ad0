public import ChimeCore
import ChimeStoreCoding
public import Foundation

/// A recipient's response as kept: its number (newest is highest) and when it came.
public struct RecordedResponse: Sendable, Hashable {
    public var sequence: Int64
    public var recipient: String
    public var appIdentifier: String
    public var date: Date
    public var response: NotificationResponse
}

/// What a tenant's recipients did with their notifications: each response is kept (until the tenant's
/// retention ends), takes the notification out of the recipient's delivered list as acting on it does on
/// iOS, and is an event of the tenant's stream — all in one transaction.
public struct PostgresResponses: Sendable {
    public let database: PostgresDatabase
    public let tenant: String

    public init(database: PostgresDatabase, tenant: String) {
        self.database = database
        self.tenant = tenant
    }

    /// Records the response `respond` makes of the delivered notification, and the event `encodeEvent`
    /// makes of it; `nil` when the recipient has no such delivered notification (nothing changes then).
    /// An error `respond` throws is the caller's to report; nothing changes then either.
    public func record(
        recipient: String, app: String, notificationIdentifier: String, now: Date,
        respond: @escaping @Sendable (DeliveredNotification) throws -> NotificationResponse,
        encodeEvent: @escaping @Sendable (RecordedResponse) throws -> [UInt8],
        encodeDelivery: @escaping @Sendable (DeliveryRecord) throws -> [UInt8]
    ) async throws -> RecordedResponse? {
        let tenant = tenant
        let key: [PostgresValue] = [.text(tenant), .text(recipient), .text(app), .text(notificationIdentifier)]
        return try await database.transaction { db in
            let rows = try db.query(
                "DELETE FROM delivered WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND notification_id = $4 RETURNING notification", key)
            guard let row = rows.first else { return nil }
            let notification = try PostgresNotificationStore.decode(DeliveredNotification.self, row[0])
            let response = try respond(notification)
            let record = try StoreRecord.encode(response, form: PostgresNotificationStore.recordForm)
            guard let sequence = try db.query(
                "INSERT INTO response (tenant, recipient, app_id, notification_id, date, record) VALUES ($1, $2, $3, $4, $5, $6) RETURNING sequence",
                key + [.date(now), .bytes(record)]
            ).first?[0].integer else { throw PostgresError.unexpectedResult("a response's number") }
            let recorded = RecordedResponse(sequence: sequence, recipient: recipient, appIdentifier: app, date: now, response: response)
            try PostgresEventLog.append(
                [StoredEvent(kind: "responded", tenant: tenant, recipient: recipient, readable: now, body: try encodeEvent(recorded))], in: db)
            // The response is the recipient's report on the notification as it was last delivered to each of
            // their devices: an identifier delivered again (a daily one, a collapse identifier) has older
            // deliveries, which this response is not about.
            let outcome: DeliveryOutcome = response.actionIdentifier == NotificationResponse.dismissActionIdentifier ? .dismissed : .acted
            let latest = """
                id IN (SELECT max(id) FROM delivery WHERE tenant = $1 AND recipient = $2 AND app_id = $3 AND notification_id = $4
                    AND channel <> '\(PostgresDeliveries.ledgerChannel)' GROUP BY device_id)
                """
            try PostgresDeliveries.recordOutcome(outcome, where: latest, key, tenant: tenant, now: now, event: encodeDelivery, in: db)
            return recorded
        }
    }

    /// A recipient's responses, newest first, of one app or all, after `sequence` (a page's last) and at
    /// most `limit`.
    public func page(recipient: String, app: String?, before sequence: Int64?, limit: Int) async throws -> [RecordedResponse] {
        let arguments: [PostgresValue] = [
            .text(tenant), .text(recipient), app.map(PostgresValue.text) ?? .null, sequence.map(PostgresValue.integer) ?? .null, .integer(Int64(limit)),
        ]
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT sequence, app_id, date, record FROM response WHERE tenant = $1 AND recipient = $2 AND \(Self.appMatches)
                    AND ($4::int8 IS NULL OR sequence < $4) ORDER BY sequence DESC LIMIT $5
                """, arguments)
        }
        return try rows.map { row in
            guard let sequence = row[0].integer, let app = row[1].text, let date = row[2].date else { throw PostgresError.unexpectedResult("a response row") }
            return RecordedResponse(
                sequence: sequence, recipient: recipient, appIdentifier: app, date: date,
                response: try PostgresNotificationStore.decode(NotificationResponse.self, row[3]))
        }
    }

    /// How many responses the recipient has, of one app or all.
    public func count(recipient: String, app: String?) async throws -> Int {
        let arguments: [PostgresValue] = [.text(tenant), .text(recipient), app.map(PostgresValue.text) ?? .null]
        let rows = try await database.read { db in
            try db.query("SELECT count(*) FROM response WHERE tenant = $1 AND recipient = $2 AND \(Self.appMatches)", arguments)
        }
        return Int(rows.first?[0].integer ?? 0)
    }

    /// One app's responses when `$3` names it, every app's when it is `NULL`.
    static let appMatches = "($3::text IS NULL OR app_id = $3)"
}
