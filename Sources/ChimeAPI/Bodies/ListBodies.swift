public import ChimeCore
public import Foundation

// Bodies of the pending and delivered routes.

/// One page of a list: `GET /v1/pending?limit=500&cursor=…` answers
/// `{"items":[…],"total":100000,"next":"…"}`; pass `next` as `cursor` for the following page, until it is
/// absent. Pages follow a stable order and a position, not an offset, so an item added or removed meanwhile
/// never makes another appear twice or go missing.
public struct Page<Item: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var items: [Item]
    /// How many items the whole list has now.
    public var total: Int
    /// The cursor of the next page; `nil` on the last.
    public var next: String?

    public init(items: [Item], total: Int, next: String?) {
        self.items = items
        self.total = total
        self.next = next
    }

    /// The page sizes the list routes take (`limit`), and the one they use without it.
    public static var limits: ClosedRange<Int> { 1...1000 }
    public static var defaultLimit: Int { 200 }
}

/// A pending request of an app, with the date it fires next (`nil`: no date is due, as for a location trigger waiting for a crossing).
public struct PendingItem: Codable, Sendable, Hashable {
    public var app: String
    public var request: NotificationRequest
    public var nextFireDate: Date?
    /// Its coming fire dates from the next, when the list was asked for them (`?upcoming=N`).
    public var upcomingFireDates: [Date]?

    public init(app: String, request: NotificationRequest, nextFireDate: Date?, upcomingFireDates: [Date]? = nil) {
        self.app = app
        self.request = request
        self.nextFireDate = nextFireDate
        self.upcomingFireDates = upcomingFireDates
    }

    /// The most fire dates a list gives per request (`?upcoming=`).
    public static var upcomingLimit: Int { 10 }
}

/// A notification in an app's delivered list.
public struct DeliveredItem: Codable, Sendable, Hashable {
    public var app: String
    public var notification: DeliveredNotification

    public init(app: String, notification: DeliveredNotification) {
        self.app = app
        self.notification = notification
    }
}

/// `POST /v1/apps/{app}/pending`: requests added in one transaction, all or nothing, each replacing a
/// pending one with the same identifier.
public struct AddRequests: Codable, Sendable, Hashable {
    public var requests: [NotificationRequest]
    public init(requests: [NotificationRequest]) { self.requests = requests }
}

/// The answer to an add: the requests that wait for their trigger (a request without a trigger is
/// delivered at once and is not among them).
///
/// `added` names them with their first fire dates. `pending` repeats them as stored (attachments moved
/// into the store); a client that has no use for that asks for the minimal answer with
/// `Prefer: return=minimal` (RFC 7240), and `pending` is left out.
public struct AddResult: Codable, Sendable, Hashable {
    public var added: [AddedItem]
    public var pending: [PendingItem]?

    public init(pending: [PendingItem]) {
        added = pending.map { AddedItem(app: $0.app, identifier: $0.request.identifier, nextFireDate: $0.nextFireDate) }
        self.pending = pending
    }
}

/// An added request: its app, its identifier and when it fires first (`nil`: never by itself).
public struct AddedItem: Codable, Sendable, Hashable {
    public var app: String
    public var identifier: String
    public var nextFireDate: Date?

    public init(app: String, identifier: String, nextFireDate: Date?) {
        self.app = app
        self.identifier = identifier
        self.nextFireDate = nextFireDate
    }
}

/// `DELETE /v1/apps/{app}/pending` and `/delivered`: these identifiers, or everything of the app with
/// `all` — one of the two, so that a body forgotten by mistake removes nothing.
public struct RemoveSelection: Codable, Sendable, Hashable {
    public var identifiers: [String]?
    public var all: Bool?

    public init(identifiers: [String]) {
        self.identifiers = identifiers
        all = nil
    }

    public static var everything: RemoveSelection {
        var selection = RemoveSelection(identifiers: [])
        selection.identifiers = nil
        selection.all = true
        return selection
    }
}

/// How many were removed (those named that did not exist are not counted).
public struct RemoveResult: Codable, Sendable, Hashable {
    public var removed: Int
    public init(removed: Int) { self.removed = removed }
}
