public import Foundation

// Server mode's devices: where a recipient's notifications can be delivered (APNs, Web Push, webhooks).

/// `PUT /v1/recipients/{recipient}/devices/{device}`: the channel, and the one address object that names
/// it (`apns`, `webpush` or `webhook`).
///
/// ```json
/// {"channel": "apns", "apns": {"token": "7f3c…", "topic": "com.example.app", "environment": "production"}}
/// {"channel": "webpush", "webpush": {"endpoint": "https://push.example/…", "keys": {"p256dh": "BO…", "auth": "k3…"}}}
/// {"channel": "webhook", "webhook": {"url": "https://hooks.example.com/chime"}}
/// ```
public struct DeviceBody: Codable, Sendable, Hashable {
    public var channel: String
    /// `false` registers the device turned off; it is on when left out.
    public var enabled: Bool?
    public var apns: APNsAddress?
    public var webpush: WebPushAddress?
    public var webhook: WebhookAddress?

    public init(channel: String, enabled: Bool? = nil, apns: APNsAddress? = nil, webpush: WebPushAddress? = nil, webhook: WebhookAddress? = nil) {
        self.channel = channel
        self.enabled = enabled
        self.apns = apns
        self.webpush = webpush
        self.webhook = webhook
    }
}

public struct APNsAddress: Codable, Sendable, Hashable {
    /// The device token, hexadecimal.
    public var token: String
    /// The app's bundle identifier (APNs' `apns-topic`).
    public var topic: String
    /// `production` (when left out) or `development`: the APNs environment that issued the token.
    public var environment: String?

    public init(token: String, topic: String, environment: String? = nil) {
        self.token = token
        self.topic = topic
        self.environment = environment
    }
}

/// A browser's `PushSubscription` as `JSON.stringify` gives it: a server-mode device's address, and what the
/// web center subscribes its browser with (`POST /v1/web/push/subscriptions`).
public struct WebPushAddress: Codable, Sendable, Hashable {
    public struct Keys: Codable, Sendable, Hashable {
        public var p256dh: String
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys

    /// When the push service ends the subscription, in milliseconds since 1970; usually none. The
    /// per-user daemon stops pushing then; server mode ignores it.
    public var expirationTime: Double?

    public init(endpoint: String, keys: Keys, expirationTime: Double? = nil) {
        self.endpoint = endpoint
        self.keys = keys
        self.expirationTime = expirationTime
    }

    /// The longest endpoint the per-user daemon takes: push services' addresses are a few hundred bytes.
    public static let maximumEndpointLength = 2048
}

public struct WebhookAddress: Codable, Sendable, Hashable {
    public var url: String
    /// The Standard Webhooks signing secret (`whsec_…`). In a registration: the one to sign with (else the
    /// device keeps its own, or Chime makes one). In an answer: only the one Chime just made, this once.
    public var secret: String?

    public init(url: String, secret: String? = nil) {
        self.url = url
        self.secret = secret
    }
}

/// A device as registered, and whether a channel turned it off (`disabledReason`, `disabledAt`).
public struct DeviceItem: Codable, Sendable, Hashable {
    public var id: String
    public var channel: String
    public var enabled: Bool
    public var apns: APNsAddress?
    public var webpush: WebPushAddress?
    public var webhook: WebhookAddress?
    public var disabledReason: String?
    public var disabledAt: Date?
    public var created: Date
    public var updated: Date

    public init(
        id: String, channel: String, enabled: Bool, apns: APNsAddress? = nil, webpush: WebPushAddress? = nil, webhook: WebhookAddress? = nil,
        disabledReason: String? = nil, disabledAt: Date? = nil, created: Date, updated: Date
    ) {
        self.id = id
        self.channel = channel
        self.enabled = enabled
        self.apns = apns
        self.webpush = webpush
        self.webhook = webhook
        self.disabledReason = disabledReason
        self.disabledAt = disabledAt
        self.created = created
        self.updated = updated
    }
}

/// `GET /v1/recipients/{recipient}/devices`: all of them (a recipient has at most 100), by identifier.
public struct DeviceList: Codable, Sendable, Hashable {
    public var items: [DeviceItem]

    public init(items: [DeviceItem]) {
        self.items = items
    }
}

/// A delivery beyond the machine as its ledger shows it (`GET /v1/recipients/{recipient}/deliveries`): one
/// delivered notification to one device, its state (`queued`, `sending`, `retrying`, `accepted`, `dead`),
/// its attempts and the last answer.
public struct DeliveryItem: Codable, Sendable, Hashable {
    public var id: String
    public var recipient: String
    public var device: String
    public var channel: String
    public var app: String
    public var notification: String
    public var state: String
    public var attempts: Int
    /// When it is tried next (`queued`, `retrying`).
    public var nextAttempt: Date?
    public var lastStatus: Int?
    public var lastError: String?
    public var created: Date
    public var updated: Date
    /// What became of it at the recipient, where the channel reports it: `delivered`, `seen`, then `acted`
    /// or `dismissed`; absent before any report.
    public var outcome: String?
    public var outcomeAt: Date?

    public init(
        id: String, recipient: String, device: String, channel: String, app: String, notification: String, state: String, attempts: Int,
        nextAttempt: Date?, lastStatus: Int?, lastError: String?, created: Date, updated: Date, outcome: String? = nil, outcomeAt: Date? = nil
    ) {
        self.id = id
        self.recipient = recipient
        self.device = device
        self.channel = channel
        self.app = app
        self.notification = notification
        self.state = state
        self.attempts = attempts
        self.nextAttempt = nextAttempt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.created = created
        self.updated = updated
        self.outcome = outcome
        self.outcomeAt = outcomeAt
    }
}

/// `POST /v1/deliveries/{id}/outcome`: what became of a delivery at the recipient, as their device or the
/// tenant's backend learned it.
public struct DeliveryOutcomeBody: Codable, Sendable, Hashable {
    /// `delivered`, `seen`, `acted` or `dismissed`.
    public var outcome: String

    public init(outcome: String) {
        self.outcome = outcome
    }
}

/// `GET|PUT /v1/settings`: the tenant's settings. `outboundAllowList`: private networks (CIDR, `10.0.0.0/8`,
/// or one address) its webhooks may reach although they are not public; anything else that is not public
/// only the node's operator can open.
public struct TenantSettingsBody: Codable, Sendable, Hashable {
    public static let maximumAllowListCount = 100

    public var outboundAllowList: [String]
    /// The APNs provider key the tenant gave (`PUT /v1/settings/apns`), without the key itself; read only.
    public var apns: APNsKeySummary?

    public init(outboundAllowList: [String], apns: APNsKeySummary? = nil) {
        self.outboundAllowList = outboundAllowList
        self.apns = apns
    }
}

/// A tenant's APNs provider key as given (`PUT /v1/settings/apns`): the team, the key's identifier, and
/// the key (the `.p8` file's text, PEM).
public struct APNsKeyBody: Codable, Sendable, Hashable {
    public var teamId: String
    public var keyId: String
    public var key: String

    public init(teamId: String, keyId: String, key: String) {
        self.teamId = teamId
        self.keyId = keyId
        self.key = key
    }
}

/// `GET /v1/apps/{app}/apns-token`: the device token the per-user daemon's APNs-compatible endpoint knows
/// the app by (64 hex digits), for the app's backend to send to.
public struct APNsDeviceToken: Codable, Sendable, Hashable {
    public var app: String
    public var token: String

    public init(app: String, token: String) {
        self.app = app
        self.token = token
    }
}

/// A tenant's APNs provider key as shown: never the key.
public struct APNsKeySummary: Codable, Sendable, Hashable {
    public var teamId: String
    public var keyId: String

    public init(teamId: String, keyId: String) {
        self.teamId = teamId
        self.keyId = keyId
    }
}
