public import ChimeCore
public import Foundation

/// Where a page of the pending list ended: the next page starts after this request.
///
/// A position names a place in the list's order, not a row: the next page starts after it even when the
/// request it came from was removed or changed meanwhile, so a listing goes on without losing or
/// repeating the requests that stay. It is `Codable` so that an API can hand it out as a cursor.
///
/// ```swift
/// let page = try await store.pendingPage(appIdentifier: nil, after: nil, limit: 100)
/// let next = try await store.pendingPage(appIdentifier: nil, after: page.last.map(PendingListPosition.init), limit: 100)
/// ```
public struct PendingListPosition: Sendable, Hashable, Codable {
    /// `nil`: a request with no date due (a location trigger waiting for a crossing); those come last.
    public var nextFireDate: Date?
    public var appIdentifier: String
    public var requestIdentifier: String

    public init(nextFireDate: Date?, appIdentifier: String, requestIdentifier: String) {
        self.nextFireDate = nextFireDate
        self.appIdentifier = appIdentifier
        self.requestIdentifier = requestIdentifier
    }

    /// The position of that request.
    public init(_ pending: PendingRequest) {
        self.init(nextFireDate: pending.nextFireDate, appIdentifier: pending.appIdentifier, requestIdentifier: pending.request.identifier)
    }
}

extension PendingListPosition: Comparable {
    /// The pending list's order: by next fire date, those without one last; then app identifier, then
    /// request identifier, each by its UTF-8 bytes.
    public static func < (lhs: PendingListPosition, rhs: PendingListPosition) -> Bool {
        if lhs.nextFireDate != rhs.nextFireDate {
            guard let left = lhs.nextFireDate else { return false }
            guard let right = rhs.nextFireDate else { return true }
            return left < right
        }
        return RequestKey(appIdentifier: lhs.appIdentifier, requestIdentifier: lhs.requestIdentifier)
            < RequestKey(appIdentifier: rhs.appIdentifier, requestIdentifier: rhs.requestIdentifier)
    }
}

/// Where a page of the delivered list ended: the next page starts after this notification.
public struct DeliveredListPosition: Sendable, Hashable, Codable {
    public var appIdentifier: String
    /// The store's own ordering number: within an app, a newer delivery has a larger one. Numbers are
    /// the store's to give; only the position of a listed entry is meaningful.
    public var sequence: Int64

    public init(appIdentifier: String, sequence: Int64) {
        self.appIdentifier = appIdentifier
        self.sequence = sequence
    }
}

/// A delivered notification in a page of the delivered list, with its position (whose app is the
/// notification's app) to continue from.
public struct DeliveredListEntry: Sendable, Hashable {
    public var position: DeliveredListPosition
    public var notification: DeliveredNotification

    public init(position: DeliveredListPosition, notification: DeliveredNotification) {
        self.position = position
        self.notification = notification
    }
}
