public import ChimeAPI
import ChimeCore
import ChimeEngine
import Foundation
import Synchronization

/// Which page of a list to read: from the start or after a cursor, and how many.
public struct PageRequest: Sendable, Hashable {
    public var cursor: String?
    public var limit: Int

    /// - Throws: `APIError.invalidParameters` for a limit outside `Page.limits`.
    public init(cursor: String? = nil, limit: Int = Page<PendingItem>.defaultLimit) throws(APIError) {
        guard Page<PendingItem>.limits.contains(limit) else {
            throw APIError(
                .invalidParameters, field: "limit", "limit must be between \(Page<PendingItem>.limits.lowerBound) and \(Page<PendingItem>.limits.upperBound)")
        }
        self.cursor = cursor
        self.limit = limit
    }
}

extension NotificationService {
    // MARK: Pending

    /// Adds requests in one transaction (all or nothing), each replacing a pending one with the same
    /// identifier; answers with the ones that wait for their trigger and when they fire.
    public func add(_ app: String, _ body: AddRequests) async throws -> AddResult {
        try note(app)
        let stored = try await engine.center(for: app).add(contentsOf: body.requests)
        statusCache.invalidate()
        // A request without a trigger is delivered at once: it was never waiting.
        let pending = stored.filter { $0.request.trigger != nil }.map { PendingItem(app: app, request: $0.request, nextFireDate: $0.nextFireDate) }
        if !pending.isEmpty { events.publish(.pendingChanged, PendingChangedEvent(app: app, added: pending, removed: []), to: .lists) }
        return AddResult(pending: pending)
    }

    /// A page of one app's pending requests (`app`), or of every app's (`nil`), in fire order; with each
    /// one's next `upcoming` fire dates when asked (0: not).
    public func pending(_ app: String?, _ page: PageRequest, upcoming: Int = 0) async throws -> Page<PendingItem> {
        guard (0...PendingItem.upcomingLimit).contains(upcoming) else {
            throw APIError(.invalidParameters, field: "upcoming", "upcoming must be between 0 and \(PendingItem.upcomingLimit)")
        }
        let after = try page.cursor.map { cursor throws(APIError) in try ListCursor.decode(cursor, as: PendingListPosition.self) }
        let items = try await engine.pendingPage(appIdentifier: app, after: after, limit: page.limit + 1)
        let total = try await engine.pendingTotal(appIdentifier: app)
        let shown = items.prefix(page.limit)
        let next = items.count > page.limit ? shown.last.map { ListCursor.encode(PendingListPosition($0)) } : nil
        var listed: [PendingItem] = []
        for pending in shown {
            var item = PendingItem(app: pending.appIdentifier, request: pending.request, nextFireDate: pending.nextFireDate)
            if upcoming > 0 { item.upcomingFireDates = await engine.upcomingFireDates(of: pending, count: upcoming) }
            listed.append(item)
        }
        return Page(items: listed, total: total, next: next)
    }

    /// Removes some of the app's pending requests, or all of them.
    public func removePending(_ app: String, _ selection: RemoveSelection) async throws -> RemoveResult {
        let center = engine.center(for: app)
        let event: PendingChangedEvent
        let removed: Int
        if let identifiers = try Self.identifiers(in: selection) {
            let existing = try await store.pendingRequests(identifiers.map { RequestKey(appIdentifier: app, requestIdentifier: $0) })
            try await center.removePendingNotificationRequests(withIdentifiers: identifiers)
            removed = existing.count
            event = PendingChangedEvent(app: app, removed: existing.map(\.request.identifier).sorted())
        } else {
            removed = try await engine.pendingTotal(appIdentifier: app)
            try await center.removeAllPendingNotificationRequests()
            event = PendingChangedEvent(app: app, removedAll: true)
        }
        statusCache.invalidate()
        if removed > 0 { events.publish(.pendingChanged, event, to: .lists) }
        return RemoveResult(removed: removed)
    }

    // MARK: Delivered

    /// A page of one app's delivered notifications (newest first), or of every app's (by app, newest first).
    public func delivered(_ app: String?, _ page: PageRequest) async throws -> Page<DeliveredItem> {
        let after = try page.cursor.map { cursor throws(APIError) in try ListCursor.decode(cursor, as: DeliveredListPosition.self) }
        let entries = try await engine.deliveredPage(appIdentifier: app, after: after, limit: page.limit + 1)
        let total = try await engine.deliveredTotal(appIdentifier: app)
        let shown = entries.prefix(page.limit)
        let next = entries.count > page.limit ? shown.last.map { ListCursor.encode($0.position) } : nil
        return Page(items: shown.map { DeliveredItem(app: $0.position.appIdentifier, notification: $0.notification) }, total: total, next: next)
    }

    /// Removes some of the app's delivered notifications, or all of them (the presenters withdraw them, and
    /// pages hear of it as `deliveredRemoved`).
    public func removeDelivered(_ app: String, _ selection: RemoveSelection) async throws -> RemoveResult {
        let center = engine.center(for: app)
        let removed: Int
        if let identifiers = try Self.identifiers(in: selection) {
            var existing = 0
            for identifier in Set(identifiers) where try await store.deliveredNotification(appIdentifier: app, identifier: identifier) != nil {
                existing += 1
            }
            try await center.removeDeliveredNotifications(withIdentifiers: identifiers)
            removed = existing
        } else {
            removed = try await engine.deliveredTotal(appIdentifier: app)
            try await center.removeAllDeliveredNotifications()
        }
        statusCache.invalidate()
        return RemoveResult(removed: removed)
    }

    /// The identifiers to remove, or `nil` for all; exactly one of the two must be given.
    public static func identifiers(in selection: RemoveSelection) throws(APIError) -> [String]? {
        switch (selection.identifiers, selection.all) {
        case (let identifiers?, nil), (let identifiers?, false?): return identifiers
        case (nil, true?): return nil
        default: throw APIError(.invalidParameters, field: "identifiers", #"give either "identifiers" or "all": true"#)
        }
    }
}

/// Page cursors: a list position as base64url JSON. Opaque to clients, which only pass `next` back.
///
/// Dates keep Foundation's own encoding (seconds since 2001, as the store keeps them): through seconds
/// since 1970 a date does not come back bit for bit, and a position that is off by the last bit repeats
/// or skips the requests at a page's edge.
public enum ListCursor {
    public static func encode(_ position: some Encodable) -> String {
        let data = (try? JSONEncoder().encode(position)) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func decode<Position: Decodable>(_ cursor: String, as type: Position.Type) throws(APIError) -> Position {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard cursor.utf8.count <= 4096, let data = Data(base64Encoded: base64), let position = try? JSONDecoder().decode(Position.self, from: data) else {
            throw APIError(.invalidParameters, field: "cursor", "the cursor is not one this list gave")
        }
        return position
    }
}
