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
        case created(Device)
        case replaced(Device)
        case noSuchRecipient
        /// The recipient already has `Device.maximumPerRecipient` others.
        case tooMany
    }

    /// Registers the device, or replaces the one with its identifier (registering again turns a device a
    /// channel turned off back on). An APNs token or push subscription held by another of the tenant's
    /// recipients (or under another identifier) moves here: it reaches whoever registered it last.
    public func save(recipient: String, identifier: String, channel: Device.Channel, enabled: Bool, now: Date) async throws -> SaveOutcome {
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
                let rows = try db.query(
                    """
                    INSERT INTO device (tenant, recipient, device_id, channel, address, topic, environment, p256dh, auth, enabled, created, updated)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
                    ON CONFLICT (tenant, recipient, device_id) DO UPDATE SET
                        channel = excluded.channel, address = excluded.address, topic = excluded.topic,
                        environment = excluded.environment, p256dh = excluded.p256dh, auth = excluded.auth,
                        enabled = excluded.enabled, disabled_reason = NULL, disabled = NULL, updated = excluded.updated
                    RETURNING created
                    """,
                    key + values)
                guard let created = rows.first?[0].date else { throw PostgresError.unexpectedResult("a device's creation date") }
                let count = try db.query("SELECT count(*) FROM device WHERE tenant = $1 AND recipient = $2", owner).first?[0].integer ?? 0
                // Thrown, so that the transaction rolls back and nothing of this call stays.
                if count > Device.maximumPerRecipient { throw TooManyDevices() }
                let device = Device(identifier: identifier, channel: channel, enabled: enabled, created: created, updated: now)
                return created == now ? .created(device) : .replaced(device)
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
