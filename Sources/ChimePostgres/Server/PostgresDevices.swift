public import Foundation

/// A tenant's recipients' devices. Every call is scoped to the tenant and one recipient; a recipient's
/// devices change one transaction at a time (the recipient's row is locked), so the per-recipient limit
/// holds under concurrent registrations.
public struct PostgresDevices: Sendable {
    public let database: PostgresDatabase
    public let tenant: String

    public init(database: PostgresDatabase, tenant: String) {
        self.database = database
        self.tenant = tenant
    }

    public enum SaveOutcome: Sendable, Hashable {
        /// With the webhook signing secret Chime made for it, when it made one (shown this once).
        case created(Device, issuedSecret: String?)
        case replaced(Device, issuedSecret: String?)
        case noSuchRecipient
        /// The recipient already has `Device.maximumPerRecipient` others.
        case tooMany
    }

    /// How long a webhook's previous secret still signs after the tenant gives a new one.
    public static let secretRotation: TimeInterval = 24 * 3600

    /// Registers the device, or replaces the one with its identifier (registering again turns a device a
    /// channel turned off back on). An APNs token or push subscription held by another of the tenant's
    /// recipients (or under another identifier) moves here: it reaches whoever registered it last.
    ///
    /// A webhook signs with `secret` when one is given; otherwise it keeps the one it has, or takes
    /// `generatedSecret` (returned in the outcome, the only time it is shown). A new secret replacing
    /// another keeps the old one signing too for `secretRotation`, so receivers can switch without a gap.
    public func save(
        recipient: String, identifier: String, channel: Device.Channel, enabled: Bool, secret: String? = nil, generatedSecret: String? = nil, now: Date
    ) async throws -> SaveOutcome {
        let owner: [PostgresValue] = [.text(tenant), .text(recipient)]
        let key = owner + [.text(identifier)]
        let (topic, environment, p256dh, auth): (String?, String?, String?, String?) =
            switch channel {
            case .webhook: (nil, nil, nil, nil)
            case .apns(_, let topic, let environment): (topic, environment.rawValue, nil, nil)
            case .webPush(_, let p256dh, let auth): (nil, nil, p256dh, auth)
            }
        let values: [PostgresValue] = [
            .text(channel.name), .text(channel.address), Self.optional(topic), Self.optional(environment), Self.optional(p256dh), Self.optional(auth),
            .boolean(enabled), .date(now),
        ]
        do {
            return try await database.transaction { db in
                guard try !db.query("SELECT 1 FROM recipient WHERE tenant = $1 AND recipient_id = $2 FOR UPDATE", owner).isEmpty else {
                    return .noSuchRecipient
                }
                if channel.reachesOnePerson {
                    try db.query(
                        "DELETE FROM device WHERE tenant = $1 AND channel = $4 AND address = $5 AND NOT (recipient = $2 AND device_id = $3)",
                        key + Array(values.prefix(2)))
                }
                // The secrets: a webhook's given one, else the one it has, else a new one.
                let existing = try db.query(
                    "SELECT secret, previous_secret, previous_secret_until FROM device WHERE tenant = $1 AND recipient = $2 AND device_id = $3 FOR UPDATE", key
                ).first
                var issued: String?
                var secrets: [PostgresValue] = [.null, .null, .null]
                if case .webhook = channel {
                    let current = existing?[0].text
                    let chosen = secret ?? current ?? generatedSecret
                    if secret == nil && current == nil { issued = generatedSecret }
                    if let current, let chosen, current != chosen {
                        secrets = [.text(chosen), .text(current), .date(now.addingTimeInterval(Self.secretRotation))]
                    } else {
                        secrets = [chosen.map(PostgresValue.text) ?? .null, existing?[1] ?? .null, existing?[2] ?? .null]
                    }
                }
                let rows = try db.query(
                    """
                    INSERT INTO device (tenant, recipient, device_id, channel, address, topic, environment, p256dh, auth, enabled, created, updated,
                        secret, previous_secret, previous_secret_until)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14)
                    ON CONFLICT (tenant, recipient, device_id) DO UPDATE SET
                        channel = excluded.channel, address = excluded.address, topic = excluded.topic,
                        environment = excluded.environment, p256dh = excluded.p256dh, auth = excluded.auth,
                        enabled = excluded.enabled, disabled_reason = NULL, disabled = NULL, updated = excluded.updated,
                        secret = excluded.secret, previous_secret = excluded.previous_secret, previous_secret_until = excluded.previous_secret_until
                    RETURNING created
                    """,
                    key + values + secrets)
                guard let created = rows.first?[0].date else { throw PostgresError.unexpectedResult("a device's creation date") }
                let count = try db.query("SELECT count(*) FROM device WHERE tenant = $1 AND recipient = $2", owner).first?[0].integer ?? 0
                // Thrown, so that the transaction rolls back and nothing of this call stays.
                if count > Device.maximumPerRecipient { throw TooManyDevices() }
                let device = Device(identifier: identifier, channel: channel, enabled: enabled, created: created, updated: now)
                return created == now ? .created(device, issuedSecret: issued) : .replaced(device, issuedSecret: issued)
            }
        } catch is TooManyDevices {
            return .tooMany
        }
    }

    /// The recipient's devices by identifier.
    public func list(recipient: String) async throws -> [Device] {
        let arguments: [PostgresValue] = [.text(tenant), .text(recipient)]
        let rows = try await database.read { db in
            try db.query("\(Self.select) WHERE tenant = $1 AND recipient = $2 ORDER BY device_id", arguments)
        }
        return try rows.map(Self.device)
    }

    public func device(recipient: String, identifier: String) async throws -> Device? {
        let arguments: [PostgresValue] = [.text(tenant), .text(recipient), .text(identifier)]
        let rows = try await database.read { db in
            try db.query("\(Self.select) WHERE tenant = $1 AND recipient = $2 AND device_id = $3", arguments)
        }
        return try rows.first.map(Self.device)
    }

    /// Removes the device; `false` when the recipient has none by that identifier.
    public func remove(recipient: String, identifier: String) async throws -> Bool {
        let arguments: [PostgresValue] = [.text(tenant), .text(recipient), .text(identifier)]
        let rows = try await database.transaction { db in
            try db.query("DELETE FROM device WHERE tenant = $1 AND recipient = $2 AND device_id = $3 RETURNING 1", arguments)
        }
        return !rows.isEmpty
    }

    private struct TooManyDevices: Error {}

    private static let select =
        "SELECT device_id, channel, address, topic, environment, p256dh, auth, enabled, disabled_reason, disabled, created, updated FROM device"

    private static func optional(_ text: String?) -> PostgresValue {
        text.map(PostgresValue.text) ?? .null
    }

    private static func device(_ row: [PostgresValue]) throws -> Device {
        guard let identifier = row[0].text, let name = row[1].text, let address = row[2].text, case .boolean(let enabled) = row[7],
            let created = row[10].date, let updated = row[11].date
        else { throw PostgresError.unexpectedResult("a device row") }
        let channel: Device.Channel
        switch name {
        case "webhook": channel = .webhook(url: address)
        case "apns":
            guard let topic = row[3].text, let environment = row[4].text.flatMap(Device.APNsEnvironment.init) else {
                throw PostgresError.unexpectedResult("an APNs device without its topic or environment")
            }
            channel = .apns(token: address, topic: topic, environment: environment)
        case "webpush":
            guard let p256dh = row[5].text, let auth = row[6].text else { throw PostgresError.unexpectedResult("a push subscription without its keys") }
            channel = .webPush(endpoint: address, p256dh: p256dh, auth: auth)
        default: throw PostgresError.unexpectedResult("a device of channel \(name)")
        }
        return Device(
            identifier: identifier, channel: channel, enabled: enabled, disabledReason: row[8].text, disabledDate: row[9].date,
            created: created, updated: updated)
    }
}
