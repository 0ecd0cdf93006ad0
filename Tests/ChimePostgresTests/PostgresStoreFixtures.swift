import ChimeCore
import ChimeEngine
import Foundation

/// Requests and fires for the PostgreSQL store's own tests.
enum PostgresStoreFixtures {
    static let t0 = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    static func pending(_ identifier: String, app: String = "com.example.server", at seconds: TimeInterval?, thread: String = "", badge: Int? = nil, title: String? = nil) throws
        -> PendingRequest
    {
        var content = NotificationContent(title: .literal(title ?? "Title \(identifier)"), body: "Body")
        content.threadIdentifier = thread
        content.badge = badge
        return PendingRequest(
            appIdentifier: app, request: try NotificationRequest(identifier: identifier, content: content, trigger: nil), addedDate: t0,
            nextFireDate: seconds.map { t0.addingTimeInterval($0) })
    }

    /// The record of the request's fire at its date, delivering it and leaving the list.
    static func fire(_ pending: PendingRequest) throws -> FireRecord {
        let date = pending.nextFireDate ?? t0
        return FireRecord(
            key: pending.key, firedDate: date, delivered: try DeliveredNotification(request: pending.request, date: date), nextFireDate: nil)
    }
}
