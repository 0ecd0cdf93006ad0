#if !canImport(Darwin)
import ChimeCore
import ChimeEngine

/// What a `UNUserNotificationCenter` runs its operations against: the embedded engine's
/// `AppNotificationCenter`, or `chimed` through `DaemonCenter` (client mode).
///
/// Both answer with the engine's values and throw the engine's `ChimeError` with the same codes, so the
/// center turns results and failures into Apple's types the same way in both modes.
protocol CenterService: Sendable {
    func requestAuthorization(options: AuthorizationOptions) async throws -> Bool
    func notificationSettings() async throws -> NotificationSettings
    /// Attaches the center's delegate bridge (`nil` detaches it); while `isForeground` it is asked how to
    /// present the app's notifications.
    func setDelegate(_ delegate: (any NotificationCenterDelegate)?, isForeground: Bool) async throws
    func setNotificationCategories(_ categories: [NotificationCategory]) async throws
    func notificationCategories() async throws -> [NotificationCategory]
    func setBadgeCount(_ count: Int) async throws
    func add(_ request: NotificationRequest) async throws
    func pendingNotificationRequests() async throws -> [NotificationRequest]
    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws
    func removeAllPendingNotificationRequests() async throws
    func deliveredNotifications() async throws -> [DeliveredNotification]
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws
    func removeAllDeliveredNotifications() async throws
}

extension AppNotificationCenter: CenterService {}
#endif
