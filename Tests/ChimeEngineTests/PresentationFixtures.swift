import ChimeCore
import ChimeEngine
import Foundation

/// Values the presentation tests share: one app, one delivery instant, settings as the user left them.
enum PresentationFixtures {
    static let deliveryDate = Date(timeIntervalSince1970: 1_764_572_400)  // 2025-12-01T07:00:00Z
    static let appIdentifier = "com.example.photos"

    /// What an app that asked for alerts, sounds, badges and critical alerts has once the user allowed
    /// them: every destination, time-sensitive and critical alerts allowed.
    static let allowed = NotificationSettings.granted([.alert, .sound, .badge, .criticalAlert])

    /// `allowed` with one change the user made.
    static func allowed(_ change: (inout NotificationSettings) -> Void) -> NotificationSettings {
        var settings = allowed
        change(&settings)
        return settings
    }

    static func content(
        level: InterruptionLevel = .active, sound: NotificationSound? = .default, badge: Int? = 5,
        category: String = "", thread: String = ""
    ) -> NotificationContent {
        NotificationContent(
            title: "New Photo", subtitle: "Album: Trip", body: "Jane Doe posted a new photo", badge: badge, sound: sound,
            categoryIdentifier: category, threadIdentifier: thread, interruptionLevel: level)
    }

    static func delivered(_ content: NotificationContent, identifier: String = "photo-1") throws -> DeliveredNotification {
        let request = try NotificationRequest(identifier: identifier, content: content, trigger: nil)
        return try DeliveredNotification(request: request, date: deliveryDate)
    }

    static func app(_ settings: NotificationSettings = allowed, categories: [NotificationCategory] = []) -> AppRecord {
        AppRecord(appIdentifier: appIdentifier, settings: settings, categories: categories)
    }

    /// The presentation of `content` for an app with `settings`, with the policy's defaults.
    static func present(
        _ content: NotificationContent, settings: NotificationSettings = allowed, categories: [NotificationCategory] = [],
        environment: UserEnvironment = UserEnvironment(), foreground: PresentationOptions? = nil, threadCount: Int = 1,
        localizer: NotificationLocalizer = NotificationLocalizer(tables: [:])
    ) throws -> Presentation {
        let context = PresentationContext(
            notification: try delivered(content), app: app(settings, categories: categories), environment: environment,
            foregroundOptions: foreground, threadCount: threadCount, localizer: localizer)
        return PresentationPolicy().presentation(for: context)
    }

    /// An attachment as a store restores it: validated once, not read again.
    static func photo() throws -> NotificationAttachment {
        try NotificationAttachment(
            identifier: "photo", url: URL(fileURLWithPath: "/var/lib/chime/attachments/photo.png"), type: .png, fileSize: 2048)
    }
}
