public import ChimeAPI
public import ChimePostgres
import ChimeDelivery
public import Foundation

// MARK: Devices

extension TenantService {
    /// Registers a recipient's device, or replaces the one with this identifier; `created` tells which.
    /// The address is checked against its channel's rules first (`Device.Channel.checked`), so nothing
    /// is stored that could never be reached.
    public func saveDevice(recipient: String, device identifier: String, _ body: DeviceBody, key: AuthenticatedKey, now: Date) async throws -> (item: DeviceItem, created: Bool) {
        try require(.publish, key)
        let channel: Device.Channel
        do {
            try Device.checkIdentifier(identifier)
            channel = try Self.channel(of: body).checked()
        } catch {
            throw APIError(.invalidParameters, field: error.field, error.description)
        }
        if let secret = body.webhook?.secret, WebhookSecret(secret) == nil {
            throw APIError(.invalidParameters, field: "webhook.secret", "a webhook secret is whsec_ and 24 to 64 bytes in base64")
        }
        switch try await PostgresDevices(database: database, tenant: key.tenant).save(
            recipient: recipient, identifier: identifier, channel: channel, enabled: body.enabled ?? true, secret: body.webhook?.secret,
            generatedSecret: channel.name == "webhook" ? WebhookSecret.generate().description : nil, now: now)
        {
        case .created(let device, let secret): return (Self.item(device, issuedSecret: secret), true)
        case .replaced(let device, let secret): return (Self.item(device, issuedSecret: secret), false)
        case .noSuchRecipient: throw APIError(.notFound, field: "recipient", "no such recipient")
        case .tooMany:
            throw APIError(.invalidParameters, field: "device", "a recipient has at most \(Device.maximumPerRecipient) devices; remove one first")
        }
    }

    public func devices(recipient: String, key: AuthenticatedKey) async throws -> DeviceList {
        try require(.read, key)
        _ = try await existingRecipient(recipient, key)
        return DeviceList(items: try await PostgresDevices(database: database, tenant: key.tenant).list(recipient: recipient).map { Self.item($0) })
    }

    public func device(recipient: String, device identifier: String, key: AuthenticatedKey) async throws -> DeviceItem {
        try require(.read, key)
        guard let device = try await PostgresDevices(database: database, tenant: key.tenant).device(recipient: recipient, identifier: identifier) else {
            throw APIError(.notFound, field: "device", "no such device")
        }
        return Self.item(device)
    }

    public func removeDevice(recipient: String, device identifier: String, key: AuthenticatedKey) async throws {
        try require(.publish, key)
        guard try await PostgresDevices(database: database, tenant: key.tenant).remove(recipient: recipient, identifier: identifier) else {
            throw APIError(.notFound, field: "device", "no such device")
        }
    }

    /// The channel a body names, with exactly its own address object.
    static func channel(of body: DeviceBody) throws(DeviceError) -> Device.Channel {
        switch (body.channel, body.apns, body.webpush, body.webhook) {
        case ("apns", let apns?, nil, nil):
            guard let environment = Device.APNsEnvironment(rawValue: apns.environment ?? "production") else {
                throw DeviceError("apns.environment", "the APNs environment is production or development")
            }
            return .apns(token: apns.token, topic: apns.topic, environment: environment)
        case ("webpush", nil, let webpush?, nil):
            return .webPush(endpoint: webpush.endpoint, p256dh: webpush.keys.p256dh, auth: webpush.keys.auth)
        case ("webhook", nil, nil, let webhook?):
            return .webhook(url: webhook.url)
        case ("apns", _, _, _), ("webpush", _, _, _), ("webhook", _, _, _):
            throw DeviceError(body.channel, "a \(body.channel) device gives its address as \"\(body.channel)\" and no other channel's")
        default:
            throw DeviceError("channel", "a device's channel is apns, webpush or webhook")
        }
    }

    static func item(_ device: Device, issuedSecret: String? = nil) -> DeviceItem {
        var item = DeviceItem(
            id: device.identifier, channel: device.channel.name, enabled: device.enabled, disabledReason: device.disabledReason,
            disabledAt: device.disabledDate, created: device.created, updated: device.updated)
        switch device.channel {
        case .apns(let token, let topic, let environment): item.apns = APNsAddress(token: token, topic: topic, environment: environment.rawValue)
        case .webPush(let endpoint, let p256dh, let auth): item.webpush = WebPushAddress(endpoint: endpoint, keys: .init(p256dh: p256dh, auth: auth))
        case .webhook(let url): item.webhook = WebhookAddress(url: url, secret: issuedSecret)
        }
        return item
    }
}
