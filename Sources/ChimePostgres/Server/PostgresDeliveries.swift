public import Foundation
import ChimeCore

/// A delivery a node claimed to send: the device as it is now, and what the tenant set for its channel.
public struct ClaimedDelivery: Sendable, Hashable {
    public let id: Int64
    public let tenant: String
    public let recipient: String
    public let deviceID: String
    /// `webhook`, `apns` or `webpush`; `ledger` for a report of another delivery to the tenant's own webhook.
    public let channel: String
    /// This attempt's number, from 1.
    public let attempts: Int
    /// When this claim's lease ends: with the id, what names the claim (a replay starts the attempts over).
    public let leaseUntil: Date
    public let body: [UInt8]
    /// The channel's headers fixed when the delivery was queued, one `name: value` per line.
    public let headers: String
    /// The webhook's URL, the APNs device token or the push service's endpoint; `nil` when the device was
    /// removed or turned off since the notification fired.
    public let address: String?
    /// The secrets to sign with, the current one first (and the previous one while a rotation lasts).
    public let secrets: [String]
    /// The networks the tenant lets its webhooks reach although they are not public (CIDR).
    public let allowList: [String]
    /// An APNs device's topic and environment.
    public let topic: String?
    public let environment: String?
    /// The tenant's APNs provider key, if it gave one.
    public let apnsKey: APNsKeyRecord?
    /// A Web Push subscription's browser key and secret (base64url, as the browser gave them).
    public let p256dh: String?
    public let auth: String?
    /// The tenant's VAPID key (PEM) and contact, for Web Push.
    public let vapidKey: String?
    public let vapidSubject: String?
}

/// A tenant's VAPID key pair as kept (PEM), and the contact it signs with.
public struct VAPIDRecord: Sendable, Hashable {
    public let pem: String
    public let subject: String?
}

/// A tenant's APNs provider key as kept: the team, the key's identifier and the key in PEM.
public struct APNsKeyRecord: Sendable, Hashable {
    public let teamID: String
    public let keyID: String
    public let pem: String

    public init(teamID: String, keyID: String, pem: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.pem = pem
    }
}

/// A delivery as its ledger shows it.
public struct DeliveryRecord: Sendable, Hashable {
    public let id: Int64
    public let recipient: String
    public let deviceID: String
    public let channel: String
    public let appIdentifier: String
    public let notificationIdentifier: String
    /// `queued`, `sending`, `retrying`, `accepted` or `dead`.
    public let state: String
    public let attempts: Int
    public let nextAttempt: Date?
    public let lastStatus: Int?
    public let lastError: String?
    public let created: Date
    public let updated: Date
    /// What became of it at the recipient, where the channel reports it; `nil` before any report.
    public var outcome: DeliveryOutcome? = nil
    public var outcomeAt: Date? = nil
}

/// What became of a delivery at the recipient, in the order it can happen: the device received it, the
/// recipient saw it, then acted on it or dismissed it. A report moves a delivery forward only, so reports
/// that cross on the way (a late "delivered" after "seen") change nothing.
public enum DeliveryOutcome: String, Sendable, Hashable, CaseIterable {
    case delivered, seen, acted, dismissed

    /// Its place in that order; acting and dismissing are both last, and the first of them stays.
    public var rank: Int {
        switch self {
        case .delivered: 1
        case .seen: 2
        case .acted, .dismissed: 3
        }
    }

    /// The same rank in SQL, for the `outcome` column (0 for none).
    static let rankSQL = "CASE outcome WHEN 'delivered' THEN 1 WHEN 'seen' THEN 2 WHEN 'acted' THEN 3 WHEN 'dismissed' THEN 3 ELSE 0 END"
}

/// What became of an attempt, as the ledger records it.
public enum DeliveryResult: Sendable, Hashable {
    case accepted(status: Int)
    /// Tried again at `at`.
    case retry(at: Date, status: Int?, error: String)
    /// No more attempts; with `disablingDevice`, the device is turned off with that reason (a webhook's
    /// `410 Gone`, APNs' `Unregistered`), unless it was registered again after `disabledSince` (when the
    /// channel says since when the address is invalid).
    case dead(status: Int?, error: String, disablingDevice: String? = nil, disabledSince: Date? = nil)
}

/// Server mode's deliveries beyond the machine: one row per delivered notification and enabled device, its
/// state and attempts. Rows are queued in the fire's own transaction (so a fire recorded once is queued once),
/// claimed by one node at a time with a lease (`FOR UPDATE SKIP LOCKED`; a node that dies mid-attempt leaves
/// the row to be taken again when the lease ends: webhooks are at least once, and `webhook-id` lets a
/// receiver drop a repeat), and finished by the node that holds the claim.
public struct PostgresDeliveries: Sendable {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// One delivered notification, for `queueDeliveries`.
    struct Fired {
        let tenant: String
        let recipient: String
        let app: String
        let notification: String
        /// When it is due: a fire recorded ahead is sent from its instant on.
        let due: Date
        /// The event's JSON (`RecipientDeliveredEvent`).
        let event: [UInt8]
        /// What an APNs device gets; made only for recipients that have a device.
        let apns: () -> APNsPush
    }

    /// The channels a delivered notification is queued for.
    static let queuedChannels = "('webhook', 'apns', 'webpush')"

    /// Queues a delivery for each enabled webhook, APNs and Web Push device of each fired notification's
    /// recipient, in `db`'s transaction: a webhook and a push subscription get the Standard Webhooks body
    /// (a push subscription's message is made from it when it is sent), an APNs device its `APNsPush`. The
    /// bodies are sent to PostgreSQL only for recipients that have such a device.
    static func queueDeliveries(_ fired: [Fired], now: Date, in db: PostgresConnection) throws {
        guard !fired.isEmpty else { return }
        let owners = try db.query(
            """
            SELECT DISTINCT d.tenant, d.recipient, d.channel = 'apns' FROM device d
            JOIN unnest($1::text[], $2::text[]) AS f (tenant, recipient) ON d.tenant = f.tenant AND d.recipient = f.recipient
            WHERE d.enabled AND d.channel IN \(queuedChannels)
            """,
            [.texts(fired.map(\.tenant)), .texts(fired.map(\.recipient))])
        guard !owners.isEmpty else { return }
        func name(_ row: [PostgresValue]) -> String? { row[0].text.flatMap { tenant in row[1].text.map { tenant + "\u{0}" + $0 } } }
        let reached = Set(owners.compactMap(name))
        // An APNs payload is made only for a recipient with an APNs device; the others' rows carry none.
        let reachedByAPNs = Set(owners.filter { $0[2] == .boolean(true) }.compactMap(name))
        let queued = fired.filter { reached.contains($0.tenant + "\u{0}" + $0.recipient) }
        let pushes = queued.map { reachedByAPNs.contains($0.tenant + "\u{0}" + $0.recipient) ? $0.apns() : nil }
        try db.query(
            """
            INSERT INTO delivery (tenant, recipient, device_id, channel, app_id, notification_id, body, headers, state, next_attempt, created, updated)
            SELECT d.tenant, d.recipient, d.device_id, d.channel, f.app_id, f.notification_id,
                CASE d.channel WHEN 'apns' THEN f.apns_body ELSE f.body END, CASE d.channel WHEN 'apns' THEN f.apns_headers ELSE '' END,
                'queued', f.due, $7, $7
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[], $6::float8[], $8::bytea[], $9::text[])
                AS f (tenant, recipient, app_id, notification_id, body, due, apns_body, apns_headers)
            JOIN device d ON d.tenant = f.tenant AND d.recipient = f.recipient AND d.enabled AND d.channel IN \(queuedChannels)
            """,
            [
                .texts(queued.map(\.tenant)), .texts(queued.map(\.recipient)), .texts(queued.map(\.app)), .texts(queued.map(\.notification)),
                .array(.bytes, queued.map { .bytes(webhookBody($0)) }), .array(.double, queued.map { .date($0.due) }), .date(now),
                .array(.bytes, pushes.map { .bytes($0?.payload ?? []) }), .texts(pushes.map { $0?.headerLines ?? "" }),
            ])
    }

    /// The Standard Webhooks payload of a delivered notification.
    static func webhookBody(_ fired: Fired) -> [UInt8] {
        standardWebhooksBody(type: "notification.delivered", at: fired.due, data: fired.event)
    }

    /// A Standard Webhooks payload: `{"type":…,"timestamp":…,"data":<data>}`, `data` already JSON.
    static func standardWebhooksBody(type: String, at date: Date, data: [UInt8]) -> [UInt8] {
        Array(#"{"type":"\#(type)","timestamp":""#.utf8) + Array(timestamp(date).utf8) + Array(#"","data":"#.utf8) + data + [UInt8(ascii: "}")]
    }

    /// RFC 3339 in UTC with milliseconds (`2026-12-07T08:00:00.000Z`).
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// Claims up to `limit` deliveries due by `now` (or whose last claim's lease ran out), for `lease`.
    /// APNs deliveries hold their claim for `apnsLease` when given: each channel's lease follows how long
    /// its attempt may take.
    public func claim(now: Date, limit: Int, lease: TimeInterval, apnsLease: TimeInterval? = nil) async throws -> [ClaimedDelivery] {
        let leaseUntil = now.addingTimeInterval(lease)
        let apnsLeaseUntil = now.addingTimeInterval(apnsLease ?? lease)
        let rows = try await database.transaction { db in
            try db.query(
                """
                WITH due AS (
                    SELECT id FROM delivery
                    WHERE (state IN ('queued', 'retrying') AND next_attempt <= $1) OR (state = 'sending' AND lease_until < $1)
                    ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED),
                claimed AS (
                    UPDATE delivery SET state = 'sending', lease_until = CASE delivery.channel WHEN 'apns' THEN $4 ELSE $3 END,
                        attempts = attempts + 1, updated = $1
                    FROM due WHERE delivery.id = due.id
                    RETURNING delivery.id, delivery.tenant, delivery.recipient, delivery.device_id, delivery.attempts, delivery.body,
                    delivery.channel, delivery.headers, delivery.lease_until)
                SELECT c.id, c.tenant, c.recipient, c.device_id, c.attempts, c.body, d.address, d.enabled, d.secret, d.previous_secret,
                    d.previous_secret_until, t.outbound_allow, c.channel, c.headers, d.topic, d.environment, t.apns_team, t.apns_key_id, t.apns_key,
                    d.p256dh, d.auth, t.vapid_key, t.vapid_subject, t.ledger_url, t.ledger_secret, c.lease_until
                FROM claimed c JOIN tenant t ON t.tenant = c.tenant
                LEFT JOIN device d ON d.tenant = c.tenant AND d.recipient = c.recipient AND d.device_id = c.device_id
                ORDER BY c.id
                """,
                [.date(now), .integer(Int64(limit)), .date(leaseUntil), .date(apnsLeaseUntil)])
        }
        return try rows.map { row in
            guard let id = row[0].integer, let tenant = row[1].text, let recipient = row[2].text, let device = row[3].text, let attempts = row[4].integer,
                let body = row[5].bytes, let allow = row[11].text, let channel = row[12].text, let headers = row[13].text, let leaseUntil = row[25].date
            else { throw PostgresError.unexpectedResult("a claimed delivery") }
            // A report to the tenant's ledger webhook goes to the tenant's URL as it is now, signed with its secret.
            let ledger = channel == Self.ledgerChannel
            let enabled = ledger ? row[23].text != nil : row[7] == .boolean(true)
            var secrets = (ledger ? row[24].text : row[8].text).map { [$0] } ?? []
            if !ledger, let previous = row[9].text, let until = row[10].date, until > now { secrets.append(previous) }
            let apnsKey = row[16].text.flatMap { team in row[17].text.flatMap { keyID in row[18].text.map { APNsKeyRecord(teamID: team, keyID: keyID, pem: $0) } } }
            return ClaimedDelivery(
                id: id, tenant: tenant, recipient: recipient, deviceID: device, channel: channel, attempts: Int(attempts), leaseUntil: leaseUntil,
                body: body, headers: headers, address: enabled ? (ledger ? row[23].text : row[6].text) : nil, secrets: secrets,
                allowList: allow.split(separator: ",").map(String.init),
                topic: row[14].text, environment: row[15].text, apnsKey: apnsKey, p256dh: row[19].text, auth: row[20].text, vapidKey: row[21].text,
                vapidSubject: row[22].text)
        }
    }

    /// Records what became of the claimed attempt (only while the claim is still the delivery's: same
    /// attempt, same lease), and appends a `delivery` event (its body made by
    /// `event` from the ledger's row as it now is) to the tenant's stream; `false` when the claim was lost
    /// (its lease ran out and another node took the delivery), and nothing was written.
    @discardableResult
    public func finish(_ delivery: ClaimedDelivery, _ result: DeliveryResult, now: Date, event: (@Sendable (DeliveryRecord) throws -> [UInt8])? = nil)
        async throws -> Bool
    {
        let (state, next, status, error): (String, Date?, Int?, String?) =
            switch result {
            case .accepted(let status): ("accepted", nil, status, nil)
            case .retry(let at, let status, let error): ("retrying", at, status, error)
            case .dead(let status, let error, _, _): ("dead", nil, status, error)
            }
        return try await database.transaction { db in
            let rows = try db.query(
                """
                UPDATE delivery SET state = $3, next_attempt = $4, lease_until = NULL, last_status = $5, last_error = $6, updated = $7
                WHERE id = $1 AND state = 'sending' AND attempts = $2 AND lease_until = $8
                RETURNING \(Self.recordColumns)
                """,
                [
                    .integer(delivery.id), .integer(Int64(delivery.attempts)), .text(state), .date(next), status.map { .integer(Int64($0)) } ?? .null,
                    error.map(PostgresValue.text) ?? .null, .date(now), .date(delivery.leaseUntil),
                ])
            guard let row = rows.first else { return false }
            if case .dead(_, _, let reason?, let since) = result {
                // Only while it still has the address that answered, and (when the channel says since when
                // the address is invalid) was not registered again after that: such a device stays on.
                try db.query(
                    """
                    UPDATE device SET enabled = false, disabled_reason = $4, disabled = coalesce($7, $5)
                    WHERE tenant = $1 AND recipient = $2 AND device_id = $3 AND address = $6 AND ($7::float8 IS NULL OR updated <= $7)
                    """,
                    [
                        .text(delivery.tenant), .text(delivery.recipient), .text(delivery.deviceID), .text(reason), .date(now), .text(delivery.address ?? ""),
                        .date(since),
                    ])
            }
            let record = try Self.record(row)
            if let event, record.channel != Self.ledgerChannel {
                let body = try event(record)
                try PostgresEventLog.append([StoredEvent(kind: "delivery", tenant: delivery.tenant, recipient: delivery.recipient, readable: now, body: body)], in: db)
                try Self.queueLedgerReport(record, tenant: delivery.tenant, event: body, now: now, in: db)
            }
            return true
        }
    }

    /// Records `outcome` for the tenant's delivery `id` if it moves the delivery forward, with a `delivery`
    /// event and a ledger report (`delivery.<outcome>`); the delivery as it now is, or `nil` when the
    /// tenant has no such delivery.
    public func report(_ outcome: DeliveryOutcome, tenant: String, id: Int64, now: Date, event: @escaping @Sendable (DeliveryRecord) throws -> [UInt8])
        async throws -> DeliveryRecord?
    {
        try await database.transaction { db in
            let changed = try Self.recordOutcome(
                outcome, where: "tenant = $1 AND id = $2", [.text(tenant), .integer(id)], tenant: tenant, now: now, event: event, in: db)
            if let record = changed.first { return record }
            let rows = try db.query(
                "SELECT \(Self.recordColumns) FROM delivery WHERE tenant = $1 AND id = $2 AND channel <> '\(Self.ledgerChannel)'", [.text(tenant), .integer(id)])
            return try rows.first.map(Self.record)
        }
    }

    /// Moves the deliveries `condition` selects (its arguments first, as `$1`…) to `outcome` where that is
    /// forward, in `db`'s transaction, appending an event and queuing a ledger report for each; those
    /// changed.
    @discardableResult
    static func recordOutcome(
        _ outcome: DeliveryOutcome, where condition: String, _ arguments: [PostgresValue], tenant: String, now: Date,
        event: (DeliveryRecord) throws -> [UInt8], in db: PostgresConnection
    ) throws -> [DeliveryRecord] {
        let next = arguments.count
        let rows = try db.query(
            """
            UPDATE delivery SET outcome = $\(next + 1), outcome_at = $\(next + 2), updated = $\(next + 2)
            WHERE \(condition) AND channel <> '\(ledgerChannel)' AND \(DeliveryOutcome.rankSQL) < $\(next + 3)
            RETURNING \(recordColumns)
            """, arguments + [.text(outcome.rawValue), .date(now), .integer(Int64(outcome.rank))])
        let records = try rows.map(record)
        for record in records {
            let body = try event(record)
            try PostgresEventLog.append([StoredEvent(kind: "delivery", tenant: tenant, recipient: record.recipient, readable: now, body: body)], in: db)
            try queueLedgerReport(record, tenant: tenant, event: body, now: now, in: db, type: outcome.rawValue)
        }
        return records
    }

    /// The channel of reports to the tenant's ledger webhook.
    public static let ledgerChannel = "ledger"

    /// Queues a report of `record`'s new state for the tenant's ledger webhook, when it set one: the
    /// Standard Webhooks body `{"type":"delivery.<state>","timestamp":…,"data":<the delivery>}`, signed and
    /// retried as a webhook is. Its device is the reported delivery's id.
    static func queueLedgerReport(_ record: DeliveryRecord, tenant: String, event: [UInt8], now: Date, in db: PostgresConnection, type: String? = nil) throws {
        let body = standardWebhooksBody(type: "delivery.\(type ?? record.state)", at: now, data: event)
        try db.query(
            """
            INSERT INTO delivery (tenant, recipient, device_id, channel, app_id, notification_id, body, state, next_attempt, created, updated)
            SELECT tenant, $2, $3, '\(ledgerChannel)', $4, $5, $6, 'queued', $7, $7, $7 FROM tenant WHERE tenant = $1 AND ledger_url IS NOT NULL
            """,
            [
                .text(tenant), .text(record.recipient), .text(String(record.id)), .text(record.appIdentifier), .text(record.notificationIdentifier),
                .bytes(body), .date(now),
            ])
    }

    static let recordColumns =
        "id, recipient, device_id, channel, app_id, notification_id, state, attempts, next_attempt, last_status, last_error, created, updated, outcome, outcome_at"

    static func record(_ row: [PostgresValue]) throws -> DeliveryRecord {
        guard let id = row[0].integer, let recipient = row[1].text, let device = row[2].text, let channel = row[3].text, let app = row[4].text,
            let notification = row[5].text, let state = row[6].text, let attempts = row[7].integer, let created = row[11].date, let updated = row[12].date
        else { throw PostgresError.unexpectedResult("a delivery row") }
        return DeliveryRecord(
            id: id, recipient: recipient, deviceID: device, channel: channel, appIdentifier: app, notificationIdentifier: notification, state: state,
            attempts: Int(attempts), nextAttempt: row[8].date, lastStatus: row[9].integer.map(Int.init), lastError: row[10].text, created: created,
            updated: updated, outcome: row[13].text.flatMap(DeliveryOutcome.init(rawValue:)), outcomeAt: row[14].date)
    }

    /// A recipient's deliveries, newest first, after `before` (an id) when given.
    public func list(tenant: String, recipient: String, before: Int64?, limit: Int) async throws -> [DeliveryRecord] {
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT \(Self.recordColumns) FROM delivery WHERE tenant = $1 AND recipient = $2 AND id < $3 AND channel <> '\(Self.ledgerChannel)'
                ORDER BY id DESC LIMIT $4
                """,
                [.text(tenant), .text(recipient), .integer(before ?? .max), .integer(Int64(limit))])
        }
        return try rows.map(Self.record)
    }

    public func count(tenant: String, recipient: String) async throws -> Int {
        let rows = try await database.read { db in
            try db.query(
                "SELECT count(*) FROM delivery WHERE tenant = $1 AND recipient = $2 AND channel <> '\(Self.ledgerChannel)'", [.text(tenant), .text(recipient)])
        }
        return Int(rows.first?[0].integer ?? 0)
    }

    /// Sends a finished delivery again from its first attempt (`accepted` or `dead` ones only); `false` when
    /// the tenant has no such delivery or it is still under way.
    public func replay(tenant: String, id: Int64, now: Date) async throws -> Bool {
        let rows = try await database.transaction { db in
            try db.query(
                """
                UPDATE delivery SET state = 'queued', attempts = 0, next_attempt = $3, last_status = NULL, last_error = NULL, updated = $3,
                    outcome = NULL, outcome_at = NULL
                WHERE tenant = $1 AND id = $2 AND state IN ('accepted', 'dead') AND channel <> '\(Self.ledgerChannel)' RETURNING 1
                """,
                [.text(tenant), .integer(id), .date(now)])
        }
        return !rows.isEmpty
    }

    /// The networks the tenant's webhooks may reach although they are not public.
    public func allowList(tenant: String) async throws -> [String] {
        let rows = try await database.read { db in try db.query("SELECT outbound_allow FROM tenant WHERE tenant = $1", [.text(tenant)]) }
        return (rows.first?[0].text ?? "").split(separator: ",").map(String.init)
    }

    /// The tenant's APNs provider key, if it gave one.
    public func apnsKey(tenant: String) async throws -> APNsKeyRecord? {
        let rows = try await database.read { db in
            try db.query("SELECT apns_team, apns_key_id, apns_key FROM tenant WHERE tenant = $1", [.text(tenant)])
        }
        guard let row = rows.first, let team = row[0].text, let keyID = row[1].text, let pem = row[2].text else { return nil }
        return APNsKeyRecord(teamID: team, keyID: keyID, pem: pem)
    }

    /// Keeps the tenant's APNs provider key (`nil` forgets it).
    public func setAPNsKey(tenant: String, _ key: APNsKeyRecord?) async throws {
        try await database.transaction { db in
            try db.query(
                "UPDATE tenant SET apns_team = $2, apns_key_id = $3, apns_key = $4 WHERE tenant = $1",
                [.text(tenant), key.map { .text($0.teamID) } ?? .null, key.map { .text($0.keyID) } ?? .null, key.map { .text($0.pem) } ?? .null])
        }
    }

    /// The tenant's VAPID key pair and contact; the key is made (by `make`, once, whichever node asks
    /// first) when the tenant has none yet.
    public func vapidKey(tenant: String, make: () -> String) async throws -> VAPIDRecord? {
        let read = "SELECT vapid_key, vapid_subject FROM tenant WHERE tenant = $1"
        var rows = try await database.read { db in try db.query(read, [.text(tenant)]) }
        if let row = rows.first, row[0].text == nil {
            let made = make()
            rows = try await database.transaction { db in
                // Another node may have made one meanwhile: the first one kept is everyone's.
                try db.query("UPDATE tenant SET vapid_key = $2 WHERE tenant = $1 AND vapid_key IS NULL", [.text(tenant), .text(made)])
                return try db.query(read, [.text(tenant)])
            }
        }
        guard let row = rows.first, let pem = row[0].text else { return nil }
        return VAPIDRecord(pem: pem, subject: row[1].text)
    }

    /// The webhook the tenant's ledger is POSTed to, and its secret.
    public func ledgerWebhook(tenant: String) async throws -> (url: String, secret: String)? {
        let rows = try await database.read { db in try db.query("SELECT ledger_url, ledger_secret FROM tenant WHERE tenant = $1", [.text(tenant)]) }
        guard let row = rows.first, let url = row[0].text, let secret = row[1].text else { return nil }
        return (url, secret)
    }

    /// Sets (or with `nil`, removes) the tenant's ledger webhook.
    public func setLedgerWebhook(tenant: String, _ webhook: (url: String, secret: String)?) async throws {
        try await database.transaction { db in
            try db.query(
                "UPDATE tenant SET ledger_url = $2, ledger_secret = $3 WHERE tenant = $1",
                [.text(tenant), webhook.map { .text($0.url) } ?? .null, webhook.map { .text($0.secret) } ?? .null])
        }
    }

    public func setVAPIDSubject(tenant: String, _ subject: String?) async throws {
        try await database.transaction { db in
            try db.query("UPDATE tenant SET vapid_subject = $2 WHERE tenant = $1", [.text(tenant), subject.map(PostgresValue.text) ?? .null])
        }
    }

    public func setAllowList(tenant: String, _ networks: [String]) async throws {
        try await database.transaction { db in
            try db.query("UPDATE tenant SET outbound_allow = $2 WHERE tenant = $1", [.text(tenant), .text(networks.joined(separator: ","))])
        }
    }
}
