public import Foundation

/// A notification the system has delivered: its request and when it was delivered (Apple's
/// `UNNotification`), plus whether it came late and which actions it offers now.
///
/// ```swift
/// let delivered = try DeliveredNotification(request: request, date: now, scheduledDate: fireDate)
/// delivered.identifier  // request.identifier
///
/// // Delivered on restart, an hour after its fire date (the machine was off):
/// let late = try DeliveredNotification(request: request, date: now, scheduledDate: fireDate, isLate: true)
///
/// // A content extension replaced the buttons (the seeds' "like" → "unlike"):
/// let updated = try delivered.replacingActions([unlike, comment])
/// updated.actions(in: category)  // [unlike, comment]
/// ```
///
/// Delivered notifications stay until the user or the app removes them; a new delivery with the same
/// request identifier replaces the old one.
public struct DeliveredNotification: Sendable, Hashable {
    public let request: NotificationRequest
    /// When the notification was delivered (Apple's `date`).
    public let date: Date
    /// The fire date the trigger asked for, or `nil` when there was none (no trigger, a push, a
    /// location). For a late notification, the latest fire date that was missed.
    public let scheduledDate: Date?
    /// Delivered after its fire date because the process or the machine was down, under
    /// `MisfirePolicy.deliverLate`. Not set for the ordinary moments between a fire date and delivery.
    public let isLate: Bool
    /// Buttons that replace the category's for this notification only (what a content extension sets
    /// with `extensionContext.notificationActions`); `nil` for the category's, empty for none.
    public let actionsOverride: [NotificationAction]?

    /// - Throws: `ChimeError.notificationInvalidNoDate` when `isLate` is set without a `scheduledDate`;
    ///   `ChimeError.valueOutOfRange` when a late notification's `scheduledDate` is after `date`;
    ///   `ChimeError.duplicateActionIdentifier` when two override actions share an identifier.
    public init(
        request: NotificationRequest,
        date: Date,
        scheduledDate: Date? = nil,
        isLate: Bool = false,
        actionsOverride: [NotificationAction]? = nil
    ) throws(ChimeError) {
        if isLate {
            guard let scheduledDate else {
                throw ChimeError(.notificationInvalidNoDate, field: "scheduledDate", "a late notification needs the date it was scheduled for")
            }
            guard scheduledDate <= date else {
                throw ChimeError(.valueOutOfRange, field: "scheduledDate", "a late notification cannot be scheduled after it was delivered")
            }
        }
        try actionsOverride?.checkUniqueIdentifiers(field: "actionsOverride")
        self.request = request
        self.date = date
        self.scheduledDate = scheduledDate
        self.isLate = isLate
        self.actionsOverride = actionsOverride
    }

    /// The request's identifier, which identifies the delivered notification too.
    public var identifier: String {
        request.identifier
    }

    /// The same notification offering `actions` instead of its category's; `nil` restores the category's.
    ///
    /// - Throws: `ChimeError.duplicateActionIdentifier` when two actions share an identifier.
    public func replacingActions(_ actions: [NotificationAction]?) throws(ChimeError) -> DeliveredNotification {
        try DeliveredNotification(request: request, date: date, scheduledDate: scheduledDate, isLate: isLate, actionsOverride: actions)
    }

    /// The buttons this notification offers: its own override, else those of `category` (the registered
    /// category named by the content's `categoryIdentifier`), else none.
    public func actions(in category: NotificationCategory?) -> [NotificationAction] {
        actionsOverride ?? category?.actions ?? []
    }
}

extension DeliveredNotification: Codable {
    private enum CodingKeys: String, CodingKey { case request, date, scheduledDate, isLate, actionsOverride }

    /// `isLate` defaults to `false` when missing; the result is validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            request: container.decode(NotificationRequest.self, forKey: .request),
            date: container.decode(Date.self, forKey: .date),
            scheduledDate: container.decodeIfPresent(Date.self, forKey: .scheduledDate),
            isLate: container.decodeIfPresent(Bool.self, forKey: .isLate) ?? false,
            actionsOverride: container.decodeIfPresent([NotificationAction].self, forKey: .actionsOverride))
    }
}
