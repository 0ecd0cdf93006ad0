public import ChimeCore
import Foundation

/// One app's notification center: everything Apple's `UNUserNotificationCenter` does for an app, over
/// the shared `NotificationEngine`.
///
/// A lightweight handle: any number may exist for one app, and all see the same state.
///
/// ```swift
/// let center = engine.center(for: "com.example.alarm")
/// guard try await center.requestAuthorization(options: [.alert, .sound]) else { return }
/// try await center.setNotificationCategories([alarmCategory])
/// try await center.add(request)
/// ```
public struct AppNotificationCenter: Sendable {
    public let appIdentifier: String
    public let engine: NotificationEngine

    init(appIdentifier: String, engine: NotificationEngine) {
        self.appIdentifier = appIdentifier
        self.engine = engine
    }

    // MARK: Authorization and settings

    /// Asks the user once whether the app may notify; afterwards answers from their stored decision.
    public func requestAuthorization(options: AuthorizationOptions) async throws -> Bool {
        try await engine.requestAuthorization(appIdentifier: appIdentifier, options: options)
    }

    public func notificationSettings() async throws -> NotificationSettings {
        try await engine.settings(appIdentifier: appIdentifier)
    }

    /// Records the user's change of the app's settings (the system settings screen's job, not the app's).
    public func updateSettings(_ settings: NotificationSettings) async throws {
        try await engine.updateSettings(appIdentifier: appIdentifier, settings)
    }

    // MARK: Delegate

    /// Attaches the app's delegate (held weakly). While `isForeground`, it chooses how the app's
    /// notifications are presented.
    public func setDelegate(_ delegate: (any NotificationCenterDelegate)?, isForeground: Bool = true) async {
        await engine.setDelegate(delegate, for: appIdentifier, isForeground: isForeground)
    }

    // MARK: Categories and badge

    /// Registers the app's categories, replacing those registered before.
    public func setNotificationCategories(_ categories: [NotificationCategory]) async throws {
        try await engine.setCategories(appIdentifier: appIdentifier, categories)
    }

    public func notificationCategories() async throws -> [NotificationCategory] {
        try await engine.categories(appIdentifier: appIdentifier)
    }

    public func setBadgeCount(_ count: Int) async throws {
        try await engine.setBadgeCount(appIdentifier: appIdentifier, count)
    }

    // MARK: Requests

    /// Schedules a request, replacing a pending one with the same identifier. Returns once it is durable.
    ///
    /// - Throws: `ChimeError.notificationsNotAllowed` when the user denied the app;
    ///   `.notificationInvalidNoDate` for a push trigger; `.attachmentMoveIntoDataStoreFailed` when an
    ///   attachment cannot be moved into the store. Nothing is scheduled then.
    public func add(_ request: NotificationRequest) async throws {
        try await engine.add(appIdentifier: appIdentifier, [request])
    }

    /// Schedules several requests at once, in one transaction: all or nothing. Same rules as `add(_:)`.
    ///
    /// - Returns: The requests as stored, with their first fire dates (what a daemon tells its client).
    @discardableResult
    public func add(contentsOf requests: [NotificationRequest]) async throws -> [PendingRequest] {
        try await engine.add(appIdentifier: appIdentifier, requests)
    }

    public func pendingNotificationRequests() async throws -> [NotificationRequest] {
        try await engine.pendingRequests(appIdentifier: appIdentifier)
    }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
        try await engine.removePending(appIdentifier: appIdentifier, identifiers: identifiers)
    }

    public func removeAllPendingNotificationRequests() async throws {
        try await engine.removePending(appIdentifier: appIdentifier, identifiers: nil)
    }

    // MARK: Delivered notifications

    /// The app's delivered notifications still in the list, newest first.
    public func deliveredNotifications() async throws -> [DeliveredNotification] {
        try await engine.deliveredNotifications(appIdentifier: appIdentifier)
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws {
        try await engine.removeDelivered(appIdentifier: appIdentifier, identifiers: identifiers)
    }

    public func removeAllDeliveredNotifications() async throws {
        try await engine.removeDelivered(appIdentifier: appIdentifier, identifiers: nil)
    }

    // MARK: Missed fires

    /// The fire dates that passed while nothing ran, and what was done about each (delivered late or
    /// skipped).
    public func missedNotifications() async throws -> [MissedFire] {
        try await engine.missedFires(appIdentifier: appIdentifier)
    }

    public func clearMissedNotifications() async throws {
        try await engine.clearMissedFires(appIdentifier: appIdentifier)
    }
}
