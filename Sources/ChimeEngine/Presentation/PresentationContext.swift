public import ChimeCore

/// Everything `PresentationPolicy` needs to decide how one delivered notification is presented.
///
/// The engine builds one right after it has recorded a delivery, from what it already holds: the
/// notification, the app's record (the user's settings, the app's categories), the user's environment,
/// the app's answer to `willPresent` when it is in the foreground, and the size of the notification's
/// thread.
///
/// ```swift
/// // Right after recording `delivered`, so the thread's count includes it.
/// let thread = delivered.request.content.threadIdentifier
/// let threadCount = try await store.deliveredNotifications(appIdentifier: record.appIdentifier)
///     .count(where: { $0.request.content.threadIdentifier == thread })
/// let context = PresentationContext(
///     notification: delivered, app: record,
///     environment: UserEnvironment(isLocked: session.isLocked, preferredLanguages: ["ko-KR"]),
///     foregroundOptions: nil,  // or the foreground app's willPresent answer
///     threadCount: threadCount, localizer: localizer)
/// let presentation = PresentationPolicy().presentation(for: context)
/// ```
public struct PresentationContext: Sendable {
    public var notification: DeliveredNotification
    /// The app's record: its settings (authorization status included) and registered categories.
    public var app: AppRecord
    public var environment: UserEnvironment
    /// What the app answered to `willPresent`: `nil` when the app is not in the foreground, so the system
    /// presents by the user's settings alone. An app in the foreground whose delegate does not implement
    /// `willPresent` answers `[]`, as on iOS: nothing is shown.
    public var foregroundOptions: PresentationOptions?
    /// How many delivered notifications of the app share this notification's thread identifier, this one
    /// included: the count a group summary states. (An engine that honours the deprecated
    /// `summaryArgumentCount` passes the thread's sum of it instead.) At least 1.
    public var threadCount: Int
    /// The app's strings, for localized titles, bodies, placeholders, summaries and action titles.
    public var localizer: NotificationLocalizer

    /// - Precondition: `threadCount` is at least 1: the thread holds this notification.
    public init(
        notification: DeliveredNotification,
        app: AppRecord,
        environment: UserEnvironment = UserEnvironment(),
        foregroundOptions: PresentationOptions? = nil,
        threadCount: Int = 1,
        localizer: NotificationLocalizer = NotificationLocalizer(tables: [:])
    ) {
        precondition(threadCount >= 1, "a notification's thread holds at least the notification itself")
        self.notification = notification
        self.app = app
        self.environment = environment
        self.foregroundOptions = foregroundOptions
        self.threadCount = threadCount
        self.localizer = localizer
    }

    /// The registered category named by the content's `categoryIdentifier`, or `nil` when it names none
    /// or one the app has not registered (then the notification has no actions but its own override).
    public var category: NotificationCategory? {
        let identifier = notification.request.content.categoryIdentifier
        guard !identifier.isEmpty else { return nil }
        return app.categories.first { $0.identifier == identifier }
    }
}
