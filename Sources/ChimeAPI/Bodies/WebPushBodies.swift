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
    public var recipient: String
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
}
