import ChimeCrypto
public import Foundation

/// Where a recipient's notifications can go besides the tenant's event stream: a phone (APNs), a browser
/// (Web Push) or another service (a webhook). A recipient has at most `Device.maximumPerRecipient`.
public struct Device: Sendable, Hashable {
    /// How a device is reached, with what that channel needs to address it.
    public enum Channel: Sendable, Hashable {
        /// An HTTP endpoint the notification is POSTed to.
        case webhook(url: String)
        /// An app on an Apple device: its device token (hex, lowercase), the app's topic (its bundle
        /// identifier) and which APNs environment issued the token.
        case apns(token: String, topic: String, environment: APNsEnvironment)
        /// A browser's push subscription (`PushSubscription`): the push service's endpoint and the
        /// browser's P-256 public key and authentication secret, both base64url as the browser gives them.
        case webPush(endpoint: String, p256dh: String, auth: String)

        public var name: String {
            switch self {
            case .webhook: "webhook"
            case .apns: "apns"
            case .webPush: "webpush"
            }
        }

        /// Whether the address reaches one person (a device token, a browser's subscription), so that one
        /// recipient at a time holds it; a webhook may serve many.
        public var reachesOnePerson: Bool {
            if case .webhook = self { return false }
            return true
        }

        /// What identifies the device to its channel.
        public var address: String {
            switch self {
            case .webhook(let url): url
            case .apns(let token, _, _): token
            case .webPush(let endpoint, _, _): endpoint
            }
        }
    }

    public enum APNsEnvironment: String, Sendable, Hashable, CaseIterable {
        case production, development
    }

    public static let maximumPerRecipient = 100

    /// A device's identifier is the tenant's to choose (an installation id, a subscription's hash): 1–256
    /// bytes of text without control characters, as a recipient's.
    public static func checkIdentifier(_ identifier: String) throws(DeviceError) {
        guard (1...256).contains(identifier.utf8.count), !identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw DeviceError("device", "a device identifier is 1–256 bytes of text without control characters")
        }
    }

    public var identifier: String
    public var channel: Channel
    /// A device the tenant or a channel turned off gets nothing until it is registered again.
    public var enabled: Bool
    /// Why a channel turned the device off (APNs' `Unregistered`, a push service's 410), and when.
    public var disabledReason: String?
    public var disabledDate: Date?
    public var created: Date
    public var updated: Date

    public init(
        identifier: String, channel: Channel, enabled: Bool = true, disabledReason: String? = nil, disabledDate: Date? = nil,
        created: Date, updated: Date
    ) {
        self.identifier = identifier
        self.channel = channel
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.disabledDate = disabledDate
        self.created = created
        self.updated = updated
    }
}

/// A device's value that breaks its channel's rule: which field, and what the rule is.
public struct DeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    public let field: String
    public let description: String

    public init(_ field: String, _ description: String) {
        self.field = field
        self.description = description
    }
}

extension Device.Channel {
    /// The channel with its address in the one form it is kept in (an APNs token in lowercase), or the
    /// rule it breaks. The rules are each channel's own: what APNs, a push service (RFC 8030, RFC 8291)
    /// and an HTTP client can use, so a device that cannot be reached is refused when it is registered,
    /// not found out at its first notification.
    public func checked() throws(DeviceError) -> Device.Channel {
        switch self {
        case .webhook(let url):
            try Self.checkURL(url, field: "webhook.url", schemes: ["https", "http"])
            return self
        case .apns(let token, let topic, let environment):
            // APNs tokens are 32 bytes today; Apple says their length may change, so up to 100 are taken.
            guard token.utf8.count % 2 == 0, (64...200).contains(token.utf8.count), token.utf8.allSatisfy(Self.isHexDigit) else {
                throw DeviceError("apns.token", "an APNs device token is 32 to 100 bytes in hexadecimal (64 to 200 digits)")
            }
            let topicCharacters = topic.utf8.allSatisfy { Self.isAlphanumeric($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F }
            guard (1...255).contains(topic.utf8.count), topicCharacters else {
                throw DeviceError("apns.topic", "an APNs topic is the app's bundle identifier (letters, digits, '.', '-', '_'; at most 255 bytes)")
            }
            return .apns(token: token.lowercased(), topic: topic, environment: environment)
        case .webPush(let endpoint, let p256dh, let auth):
            try Self.checkURL(endpoint, field: "webpush.endpoint", schemes: ["https"])
            // RFC 8291: the user agent's key is an uncompressed P-256 point; its secret is 16 bytes.
            guard let key = Base64URL.decode(p256dh), key.count == 65, key.first == 0x04 else {
                throw DeviceError("webpush.keys.p256dh", "p256dh is the browser's P-256 public key: 65 bytes (uncompressed, starting 0x04) in base64url")
            }
            guard let secret = Base64URL.decode(auth), secret.count == 16 else {
                throw DeviceError("webpush.keys.auth", "auth is the subscription's 16-byte secret in base64url")
            }
            return self
        }
    }

    private static func checkURL(_ text: String, field: String, schemes: Set<String>) throws(DeviceError) {
        let rule = "\(field) is an absolute \(schemes.sorted().reversed().joined(separator: " or ")) URL of at most 2,048 bytes, without user name, password or fragment"
        guard text.utf8.count <= 2_048, let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.fragment == nil,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
        else { throw DeviceError(field, rule) }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
    }
}
