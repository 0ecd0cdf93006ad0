public import ChimeCore
public import Foundation

// Server mode's bodies: a tenant's backend adds notifications for its recipients (end users) and follows
// what was delivered to them.

/// `GET /v1/status` in server mode: the node that answered, the key's tenant, and the database's schema
/// version.
public struct ServerStatusBody: Codable, Sendable, Hashable {
    /// `server`.
    public var mode: String
    public var node: String
    public var tenant: String
    public var schema: Int

    public init(mode: String, node: String, tenant: String, schema: Int) {
        self.mode = mode
        self.node = node
        self.tenant = tenant
        self.schema = schema
    }
}

/// `POST /v1/notifications`: requests for any of the tenant's recipients, all or nothing, at most
/// `maximumCount` in one body. Each replaces the recipient's pending request with the same app and
/// identifier.
public struct RecipientBatch: Codable, Sendable, Hashable {
    public static let maximumCount = 10_000
    /// The largest body server mode takes: room for a full batch of ordinary requests.
    public static let maximumBodySize = 16 << 20

    public var notifications: [RecipientRequest]

    public init(notifications: [RecipientRequest]) {
        self.notifications = notifications
    }
}

/// One request for one recipient, in one of the tenant's apps.
public struct RecipientRequest: Codable, Sendable, Hashable {
    public var recipient: String
    public var app: String
    public var request: NotificationRequest

    public init(recipient: String, app: String, request: NotificationRequest) {
        self.recipient = recipient
        self.app = app
        self.request = request
    }
}

/// The answer to an add: each request with its first fire date in its recipient's zone (`nil`: never by
/// itself; now, for a request without a trigger, which is delivered at once).
public struct RecipientAddResult: Codable, Sendable, Hashable {
    public var added: [RecipientAddedItem]

    public init(added: [RecipientAddedItem]) {
        self.added = added
    }
}

public struct RecipientAddedItem: Codable, Sendable, Hashable {
    public var recipient: String
    public var app: String
    public var identifier: String
    public var nextFireDate: Date?

    public init(recipient: String, app: String, identifier: String, nextFireDate: Date?) {
        self.recipient = recipient
        self.app = app
        self.identifier = identifier
        self.nextFireDate = nextFireDate
    }
}

/// `PUT /v1/recipients/{recipient}` and its `GET`: the zone floating calendar triggers fire in, the
/// language, and quiet hours.
public struct RecipientProfileBody: Codable, Sendable, Hashable {
    /// An IANA zone (`Asia/Seoul`).
    public var timeZone: String
    /// A BCP 47 language tag (`ko-KR`).
    public var locale: String
    public var quietHours: QuietHoursBody?

    public init(timeZone: String, locale: String, quietHours: QuietHoursBody? = nil) {
        self.timeZone = timeZone
        self.locale = locale
        self.quietHours = quietHours
    }
}

/// Quiet hours on the wire: periods of weekdays (1 is Sunday … 7 Saturday) from `from` to `to`
/// (`"HH:MM"`, local to the recipient; a `to` at or before `from` ends the next day).
public struct QuietHoursBody: Codable, Sendable, Hashable {
    public struct Period: Codable, Sendable, Hashable {
        public var weekdays: [Int]
        public var from: String
        public var to: String

        public init(weekdays: [Int], from: String, to: String) {
            self.weekdays = weekdays
            self.from = from
            self.to = to
        }
    }

    public var periods: [Period]
    /// Whether time-sensitive notifications break through (default true, as in Apple's Focus).
    public var allowsTimeSensitive: Bool?

    public init(periods: [Period], allowsTimeSensitive: Bool? = nil) {
        self.periods = periods
        self.allowsTimeSensitive = allowsTimeSensitive
    }
}

/// The event a tenant's stream (`GET /v1/events`) carries for each delivery: whose, which app, the
/// notification, and how far it may interrupt the recipient now (`normally`, `quietly` during their quiet
/// hours or for a passive one, `breakingThroughFocus` for a time-sensitive or critical one in quiet hours).
public struct RecipientDeliveredEvent: Codable, Sendable, Hashable {
    public var recipient: String
    public var app: String
    public var alerting: String
    public var notification: DeliveredNotification
    /// The texts as the recipient reads them: deferred localization resolved in their language.
    public var text: DeliveredText

    public init(recipient: String, app: String, alerting: String, notification: DeliveredNotification, text: DeliveredText) {
        self.recipient = recipient
        self.app = app
        self.alerting = alerting
        self.notification = notification
        self.text = text
    }
}

/// A delivery's title, subtitle and body in the recipient's language, and the strings table that answered
/// (`nil` when the app has none for it: a localization key then shows as itself, as on iOS).
public struct DeliveredText: Codable, Sendable, Hashable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var language: String?

    public init(title: String, subtitle: String, body: String, language: String?) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.language = language
    }
}

/// A recipient's response to a delivered notification: the `responded` event of `GET /v1/events`, and an
/// item of `GET /v1/recipients/{recipient}/responses` (newest first, `sequence` highest).
public struct RecipientResponseItem: Codable, Sendable, Hashable {
    public var sequence: Int64
    public var recipient: String
    public var app: String
    public var date: Date
    public var response: NotificationResponse

    public init(sequence: Int64, recipient: String, app: String, date: Date, response: NotificationResponse) {
        self.sequence = sequence
        self.recipient = recipient
        self.app = app
        self.date = date
        self.response = response
    }
}

/// `GET /v1/apps/{app}/strings`: the app's strings tables, by language.
public struct AppStringsList: Codable, Sendable, Hashable {
    public struct Table: Codable, Sendable, Hashable {
        public var language: String
        public var bytes: Int

        public init(language: String, bytes: Int) {
            self.language = language
            self.bytes = bytes
        }
    }

    public var tables: [Table]

    public init(tables: [Table]) {
        self.tables = tables
    }
}

/// `POST /v1/keys`: a new API key of the tenant.
public struct NewAPIKey: Codable, Sendable, Hashable {
    public var name: String
    /// `publish`, `read`, `admin`.
    public var scopes: [String]

    public init(name: String, scopes: [String]) {
        self.name = name
        self.scopes = scopes
    }
}

/// A key as listed; `secret` only in the answer that made it, never again.
public struct APIKeyBody: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var scopes: [String]
    public var created: Date
    public var revoked: Date?
    public var secret: String?

    public init(id: String, name: String, scopes: [String], created: Date, revoked: Date?, secret: String? = nil) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.created = created
        self.revoked = revoked
        self.secret = secret
    }
}
