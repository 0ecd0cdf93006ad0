/// How an app's notifications are stacked in the notification list: the choice iOS offers in Settings ›
/// Notifications › (app) › Notification Grouping. It is the user's, like the other settings, but Apple's
/// `UNNotificationSettings` does not report it, so `UserNotifications` leaves it out.
///
/// ```swift
/// NotificationGrouping.automatic.groupKey(threadIdentifier: "ann")  // "ann"
/// NotificationGrouping.byApp.groupKey(threadIdentifier: "ann")      // ""
/// NotificationGrouping.off.groupKey(threadIdentifier: "ann")        // nil
/// ```
///
/// Encoded as the case name (`"byApp"`).
public enum NotificationGrouping: Int, Sendable, Hashable, CaseIterable {
    /// By thread: notifications with the same `threadIdentifier` stack together, and those without one
    /// stack as the app's own group.
    case automatic = 0
    /// Every notification of the app in one stack, whatever its thread.
    case byApp = 1
    /// No stacks: each notification stands alone.
    case off = 2

    /// The stack a notification joins: a thread identifier (`""` is the app's own stack), or `nil` when it
    /// stands alone.
    public func groupKey(threadIdentifier: String) -> String? {
        switch self {
        case .automatic: threadIdentifier
        case .byApp: ""
        case .off: nil
        }
    }
}

extension NotificationGrouping: NamedCaseCodable {
    static let caseNames = ["automatic", "byApp", "off"]
}
