public import ChimeCore
public import Foundation

/// The events chimed streams as Server-Sent Events (`text/event-stream`).
///
/// Two streams:
/// - `GET /v1/apps/{app}/events` — an app's own: `response` and `willPresent`. While it is open the app is
///   connected (responses reach it live; with `foreground=true` it is asked how to present). Responses it
///   has not acknowledged are sent again, oldest first, each time it opens the stream.
/// - `GET /v1/events` — every app's list changes and the user's responses, for pages and `chime watch`:
///   `delivered`, `deliveredRemoved`, `pendingChanged`, `responded`, `appChanged`, `focusChanged`, and
///   `reset` when a resumed stream missed more than the daemon kept (reload the lists).
///
/// Every event has an `id`; a client that reconnects sends the last one as `Last-Event-ID` and gets what it
/// missed, as far as the daemon still holds it.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user responded to one of the app's notifications: handle it, then acknowledge its `delivery`.
    case response
    /// One of the app's notifications arrives while the app is in the foreground: answer with
    /// `POST /v1/apps/{app}/questions/{question}` within the daemon's timeout, else the system presents it.
    case willPresent
    /// A notification was delivered (shown, or put in the list quietly).
    case delivered
    /// Notifications left an app's delivered list.
    case deliveredRemoved
    /// Requests were added to (or replaced in) an app's pending list, or removed from it.
    case pendingChanged
    /// The user responded to a notification (a button, a reply, open, dismiss), on the desktop or through
    /// the API.
    case responded
    /// Something the user sees of an app changed: its settings or authorization, a permission question
    /// put or withdrawn, its badge, its categories, its registry entry. Read the app again.
    case appChanged
    /// The focus switch, the desktop's Do Not Disturb or the session's lock changed (`FocusState`).
    case focusChanged
    /// The stream could not resume where the client left off: reload whatever it shows.
    case reset
    /// The last event of an app's stream: another connection of the same app opened its stream, and
    /// takes its responses and questions from now on. A client that did not expect it should not
    /// reconnect (two would take turns): someone else speaks for the app.
    case replaced
}

/// `replaced`: which connection took over.
public struct ReplacedEvent: Codable, Sendable, Hashable {
    public var app: String
    public init(app: String) { self.app = app }
}

/// A response for the app: handle it, then acknowledge its `delivery`; unacknowledged ones come again when
/// the app next opens its stream.
public struct ResponseEvent: Codable, Sendable, Hashable {
    public var delivery: String
    public var app: String
    public var response: NotificationResponse
    /// Whether the app was launched for it, and how (`background`, `foreground`); `nil` when it was running.
    public var launch: String?

    public init(delivery: String, app: String, response: NotificationResponse, launch: String?) {
        self.delivery = delivery
        self.app = app
        self.response = response
        self.launch = launch
    }
}

/// A foreground app is asked how to present one of its notifications.
public struct WillPresentEvent: Codable, Sendable, Hashable {
    public var question: Int
    public var app: String
    public var notification: DeliveredNotification

    public init(question: Int, app: String, notification: DeliveredNotification) {
        self.question = question
        self.app = app
        self.notification = notification
    }
}

/// A notification was delivered, as the user sees it: its text after the app's settings and the
/// previews rule were applied (`previewsHidden`: the body is the placeholder).
public struct DeliveredEvent: Codable, Sendable, Hashable {
    public var app: String
    public var identifier: String
    public var date: Date
    public var title: String
    public var subtitle: String
    public var body: String
    public var previewsHidden: Bool
    public var categoryIdentifier: String
    /// `passive`, `active`, `timeSensitive` or `critical`.
    public var interruptionLevel: String
    /// Shown as a banner (not only put in the list).
    public var banner: Bool
    /// Kept in the notification list.
    public var listed: Bool
    public var isLate: Bool

    public init(
        app: String, identifier: String, date: Date, title: String, subtitle: String, body: String, previewsHidden: Bool,
        categoryIdentifier: String, interruptionLevel: String, banner: Bool, listed: Bool, isLate: Bool
    ) {
        self.app = app
        self.identifier = identifier
        self.date = date
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.previewsHidden = previewsHidden
        self.categoryIdentifier = categoryIdentifier
        self.interruptionLevel = interruptionLevel
        self.banner = banner
        self.listed = listed
        self.isLate = isLate
    }
}

/// The user's response to a notification, as the list stream tells it (the app gets the whole
/// `ResponseEvent` on its own stream).
public struct RespondedEvent: Codable, Sendable, Hashable {
    public var app: String
    /// The notification's identifier.
    public var identifier: String
    /// The action's identifier, or Apple's default (opened) or dismiss action identifier.
    public var action: String
    /// What the user typed, for a reply.
    public var text: String?

    public init(app: String, identifier: String, action: String, text: String?) {
        self.app = app
        self.identifier = identifier
        self.action = action
        self.text = text
    }
}

/// `GET /v1/apps/{app}/responses`: the responses waiting for the app (it was not running, or has not
/// acknowledged them), oldest first, at most `limit` of `total`.
public struct QueuedResponseList: Codable, Sendable, Hashable {
    public var items: [ResponseEvent]
    public var total: Int

    public init(items: [ResponseEvent], total: Int) {
        self.items = items
        self.total = total
    }
}

/// Notifications removed from an app's delivered list.
public struct DeliveredRemovedEvent: Codable, Sendable, Hashable {
    public var app: String
    public var identifiers: [String]

    public init(app: String, identifiers: [String]) {
        self.app = app
        self.identifiers = identifiers
    }
}

/// Changes to an app's pending list made through the API (fires show as `delivered`).
public struct PendingChangedEvent: Codable, Sendable, Hashable {
    public var app: String
    public var added: [PendingItem]
    public var removed: [String]
    /// Every pending request of the app was removed.
    public var removedAll: Bool

    public init(app: String, added: [PendingItem] = [], removed: [String] = [], removedAll: Bool = false) {
        self.app = app
        self.added = added
        self.removed = removed
        self.removedAll = removedAll
    }
}

/// `appChanged`: which app to read again (`GET /v1/apps/{app}`).
public struct AppChangedEvent: Codable, Sendable, Hashable {
    public var app: String
    public init(app: String) { self.app = app }
}

/// Sent instead of what a resumed stream missed, when the daemon no longer holds it.
public struct ResetEvent: Codable, Sendable, Hashable {
    public init() {}
}
