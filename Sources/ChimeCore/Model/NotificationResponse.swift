/// What the user did with a delivered notification: opened it, dismissed it, or picked one of its
/// actions, with the text they typed for a text-input action (Apple's `UNNotificationResponse` and
/// `UNTextInputNotificationResponse`).
///
/// ```swift
/// switch response.actionIdentifier {
/// case NotificationResponse.defaultActionIdentifier: openPhoto()
/// case NotificationResponse.dismissActionIdentifier: markSeen()
/// case "meeting.reasonForDeclineInputAction": decline(reason: response.userText ?? "")
/// default: break
/// }
///
/// // Engine and test code build responses by case:
/// NotificationResponse.defaultAction(for: delivered)
/// NotificationResponse.dismiss(for: delivered)
/// try NotificationResponse.action("ACTION_LIKE", for: delivered)
/// try NotificationResponse.textInput("On holiday", action: "meeting.reasonForDeclineInputAction", for: delivered)
/// ```
///
/// The response does not check that the action belongs to the notification's category: categories live
/// in the notification center, which checks before it routes a response.
public struct NotificationResponse: Sendable, Hashable {
    /// The user opened the notification (tapped or clicked its body). Apple's
    /// `UNNotificationDefaultActionIdentifier`, same string.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The user explicitly dismissed the notification. Reported only for categories with
    /// `.customDismissAction`. Apple's `UNNotificationDismissActionIdentifier`, same string.
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    static let reservedActionIdentifiers: Set<String> = [defaultActionIdentifier, dismissActionIdentifier]

    /// The notification the user responded to.
    public let notification: DeliveredNotification
    /// The identifier of the chosen action, or the default or dismiss action identifier.
    public let actionIdentifier: String
    /// What the user typed, for a text-input action; `nil` otherwise (Apple's
    /// `UNTextInputNotificationResponse.userText`). May be empty.
    public let userText: String?

    /// - Throws: `ChimeError.invalidIdentifier` when `actionIdentifier` is empty, or when `userText` is
    ///   given with the default or dismiss action identifier (only an action's response carries text).
    public init(notification: DeliveredNotification, actionIdentifier: String, userText: String? = nil) throws(ChimeError) {
        guard !actionIdentifier.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "actionIdentifier", "an action identifier must not be empty")
        }
        if userText != nil, Self.reservedActionIdentifiers.contains(actionIdentifier) {
            throw ChimeError(.invalidIdentifier, field: "actionIdentifier", "only an action's response carries user text")
        }
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }

    private init(unchecked notification: DeliveredNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        userText = nil
    }

    /// The user opened `notification`.
    public static func defaultAction(for notification: DeliveredNotification) -> NotificationResponse {
        NotificationResponse(unchecked: notification, actionIdentifier: defaultActionIdentifier)
    }

    /// The user dismissed `notification` (sent only for categories with `.customDismissAction`).
    public static func dismiss(for notification: DeliveredNotification) -> NotificationResponse {
        NotificationResponse(unchecked: notification, actionIdentifier: dismissActionIdentifier)
    }

    /// The user picked the action `identifier` on `notification`.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `identifier` is empty.
    public static func action(_ identifier: String, for notification: DeliveredNotification) throws(ChimeError) -> NotificationResponse {
        try NotificationResponse(notification: notification, actionIdentifier: identifier)
    }

    /// The user typed `text` into the text-input action `identifier` on `notification` and sent it.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `identifier` is empty, or is the default or dismiss
    ///   action identifier.
    public static func textInput(_ text: String, action identifier: String, for notification: DeliveredNotification) throws(ChimeError) -> NotificationResponse {
        try NotificationResponse(notification: notification, actionIdentifier: identifier, userText: text)
    }

    /// Whether the user opened the notification.
    public var isDefaultAction: Bool {
        actionIdentifier == Self.defaultActionIdentifier
    }

    /// Whether the user dismissed the notification.
    public var isDismissAction: Bool {
        actionIdentifier == Self.dismissActionIdentifier
    }

    /// Whether this answers a text-input action (Apple's `response is UNTextInputNotificationResponse`).
    public var isTextInput: Bool {
        userText != nil
    }
}

extension NotificationResponse: Codable {
    private enum CodingKeys: String, CodingKey { case notification, actionIdentifier, userText }

    /// Decodes and re-validates.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            notification: container.decode(DeliveredNotification.self, forKey: .notification),
            actionIdentifier: container.decode(String.self, forKey: .actionIdentifier),
            userText: container.decodeIfPresent(String.self, forKey: .userText))
    }
}
