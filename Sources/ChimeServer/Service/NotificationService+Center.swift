public import ChimeAPI
public import ChimeCore
import ChimeEngine
public import Foundation

extension NotificationService {
    /// Makes the address a page loads an attachment from: app, notification, attachment identifier →
    /// the address and until when it works.
    public typealias AttachmentAddress = @Sendable (_ app: String, _ notification: String, _ attachment: String) -> (url: String, expires: Date)

    /// A page of the notification center: every app's delivered notifications (by app, newest first, as
    /// `delivered(nil, _:)` pages them) as the list shows them now — the engine's presentation under the
    /// user's settings and the session's state.
    public func center(_ page: PageRequest, address: AttachmentAddress) async throws -> CenterPage {
        let delivered = try await delivered(nil, page)
        let listed = try await engine.listed(delivered.items.map { ($0.app, $0.notification) })
        let locked = await engine.environment.isLocked
        return CenterPage(items: listed.map { Self.centerItem($0, address: address) }, total: delivered.total, next: delivered.next, sessionLocked: locked)
    }

    /// The attachment `attachment` of the delivered notification `notification`, while it is in the list.
    ///
    /// - Throws: `APIError.notFound` when the notification left the list or has no such attachment.
    public func deliveredAttachment(_ app: String, notification: String, attachment: String) async throws -> NotificationAttachment {
        guard let delivered = try await store.deliveredNotification(appIdentifier: app, identifier: notification),
            let found = delivered.request.content.attachments.first(where: { $0.identifier == attachment })
        else {
            throw APIError(.notFound, field: "attachment", "no delivered notification has that attachment")
        }
        return found
    }

    static func centerItem(_ listed: ListedNotification, address: AttachmentAddress) -> CenterItem {
        let presentation = listed.presentation
        let group = presentation.group
        let actions = presentation.actions.map { action in
            CenterAction(
                identifier: action.identifier, title: action.title, destructive: action.isDestructive, foreground: action.launchesApp,
                authenticationRequired: action.requiresUnlock,
                textInput: action.textInput.map { CenterAction.TextInput(buttonTitle: $0.buttonTitle, placeholder: $0.placeholder) })
        }
        let attachments = presentation.attachments.map { attachment in
            let (url, expires) = address(presentation.appIdentifier, presentation.notificationIdentifier, attachment.identifier)
            return CenterAttachment(
                identifier: attachment.identifier, kind: attachment.kind.rawValue, mediaType: attachment.type.mimeType, size: attachment.fileSize,
                url: url, expiresAt: expires)
        }
        return CenterItem(
            app: presentation.appIdentifier, identifier: presentation.notificationIdentifier, date: presentation.date, title: presentation.title,
            subtitle: presentation.subtitle, body: presentation.body, previewsHidden: presentation.previewsHidden,
            interruptionLevel: presentation.interruptionLevel.wireName, isLate: presentation.isLate, scheduledDate: presentation.scheduledDate,
            stack: group.standsAlone ? nil : group.threadIdentifier, stackCount: group.count, othersSummary: listed.othersSummary,
            categoryIdentifier: presentation.categoryIdentifier, actions: actions, dismissReachesApp: presentation.wantsDismissResponse,
            attachments: attachments)
    }
}

extension InterruptionLevel {
    /// The level's name on the wire (`timeSensitive`), as events and the center name it.
    var wireName: String {
        switch self {
        case .passive: "passive"
        case .active: "active"
        case .timeSensitive: "timeSensitive"
        case .critical: "critical"
        }
    }
}
