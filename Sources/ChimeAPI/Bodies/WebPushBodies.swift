public import ChimeCore
public import Foundation

/// The tenant's Web Push identity (`GET|PUT /v1/settings/webpush`): the VAPID public key its pages pass
/// to `pushManager.subscribe({applicationServerKey})`, and the contact push services see.
public struct WebPushSettingsBody: Codable, Sendable, Hashable {
    /// Base64url of the uncompressed P-256 point; read only.
    public var applicationServerKey: String?
    /// `mailto:` or `https:`: how a push service's operator reaches the tenant (VAPID's `sub`).
    public var subject: String?

    public init(applicationServerKey: String? = nil, subject: String? = nil) {
        self.applicationServerKey = applicationServerKey
        self.subject = subject
    }

    public static let maximumSubjectLength = 512
}

/// What a browser's service worker receives in its `push` event (`event.data.json()`), encrypted for it
/// alone: enough to call `showNotification(title, {body, tag: identifier, data})`.
public struct WebPushMessageBody: Codable, Sendable, Hashable {
    public var type = "notification.delivered"
    /// Server mode: the recipient it was due for; absent from the per-user daemon, whose one user it is.
    public var recipient: String?
    public var app: String
    public var identifier: String
    /// The texts as the recipient reads them.
    public var title: String
    public var subtitle: String
    public var body: String
    /// When it was due.
    public var date: Date
    /// How far it may interrupt the recipient now: `normally`, `quietly`, `breakingThroughFocus`.
    public var alerting: String
    public var threadIdentifier: String?
    public var categoryIdentifier: String?
    public var badge: Int?
    /// The request's `userInfo`, unless the message would not fit a push message with it.
    public var userInfo: [String: JSONValue]?
    /// The per-user daemon: the notifications removed since the last push (`app/identifier`, as the
    /// service worker tags what it shows), for the service worker to close. Removals are not pushed on
    /// their own, as a push that shows nothing counts against the browser's budget of silent pushes.
    public var closes: [String]?

    public init(_ event: RecipientDeliveredEvent) {
        let content = event.notification.request.content
        recipient = event.recipient
        app = event.app
        identifier = event.notification.request.identifier
        title = event.text.title
        subtitle = event.text.subtitle
        body = event.text.body
        date = event.notification.date
        alerting = event.alerting
        threadIdentifier = content.threadIdentifier.isEmpty ? nil : content.threadIdentifier
        categoryIdentifier = content.categoryIdentifier.isEmpty ? nil : content.categoryIdentifier
        badge = content.badge
        userInfo = content.userInfo.isEmpty ? nil : content.userInfo
    }

    /// The message as JSON of at most `limit` bytes: without `userInfo`, then with fewer `closes`, then with
    /// the body shortened, when it would not fit whole.
    public func encoded(fittingIn limit: Int) -> [UInt8] {
        var message = self
        let encoder = WireFormat.encoder()
        func encoded() -> [UInt8] { (try? encoder.encode(message)).map(Array.init) ?? [] }
        var bytes = encoded()
        if bytes.count > limit {
            message.userInfo = nil
            bytes = encoded()
        }
        while bytes.count > limit, let closes = message.closes {
            message.closes = closes.count > 1 ? Array(closes.prefix(closes.count / 2)) : nil
            bytes = encoded()
        }
        while bytes.count > limit, !message.body.isEmpty {
            message.body = String(message.body.dropLast(max(1, (bytes.count - limit) / 4)))
            bytes = encoded()
        }
        return bytes
    }

    /// The per-user daemon's message, from what it presents.
    public init(
        app: String, identifier: String, title: String, subtitle: String, body: String, date: Date, alerting: String, threadIdentifier: String?,
        categoryIdentifier: String?, badge: Int?
    ) {
        self.app = app
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.date = date
        self.alerting = alerting
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.badge = badge
    }
}

/// `GET /v1/web/push`: what the web center needs to offer pushes to its browser.
public struct BrowserPushStatus: Codable, Sendable, Hashable {
    /// The daemon's VAPID public key (base64url of the uncompressed P-256 point), for
    /// `pushManager.subscribe({applicationServerKey})`.
    public var applicationServerKey: String
    /// How many browsers receive pushes now.
    public var subscriptions: Int

    public init(applicationServerKey: String, subscriptions: Int) {
        self.applicationServerKey = applicationServerKey
        self.subscriptions = subscriptions
    }
}

/// The answer to a subscription: its identifier, for `DELETE /v1/web/push/subscriptions/{id}`.
public struct BrowserPushSubscribed: Codable, Sendable, Hashable {
    /// Base64url of the first 16 bytes of the endpoint's SHA-256, so the page can name its subscription
    /// again from the endpoint alone.
    public var id: String

    public init(id: String) {
        self.id = id
    }
}
