#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// What the user lets the app do with notifications (Apple's `UNNotificationSettings`).
///
/// ```swift
/// center.getNotificationSettings { settings in
///     guard settings.authorizationStatus == .authorized else { return }
///     if settings.soundSetting == .enabled { ... }
/// }
/// ```
// @unchecked Sendable: immutable.
public final class UNNotificationSettings: NSObject, NSCopying, @unchecked Sendable {
    let settings: NotificationSettings

    init(_ settings: NotificationSettings) {
        self.settings = settings
    }

    public var authorizationStatus: UNAuthorizationStatus { UNAuthorizationStatus(settings.authorizationStatus) }
    public var soundSetting: UNNotificationSetting { UNNotificationSetting(settings.soundSetting) }
    public var badgeSetting: UNNotificationSetting { UNNotificationSetting(settings.badgeSetting) }
    public var alertSetting: UNNotificationSetting { UNNotificationSetting(settings.alertSetting) }
    public var notificationCenterSetting: UNNotificationSetting { UNNotificationSetting(settings.notificationCenterSetting) }
    public var lockScreenSetting: UNNotificationSetting { UNNotificationSetting(settings.lockScreenSetting) }
    public var carPlaySetting: UNNotificationSetting { UNNotificationSetting(settings.carPlaySetting) }
    public var alertStyle: UNAlertStyle { UNAlertStyle(settings.alertStyle) }
    public var showPreviewsSetting: UNShowPreviewsSetting { UNShowPreviewsSetting(settings.showPreviewsSetting) }
    public var criticalAlertSetting: UNNotificationSetting { UNNotificationSetting(settings.criticalAlertSetting) }
    public var providesAppNotificationSettings: Bool { settings.providesAppNotificationSettings }
    public var announcementSetting: UNNotificationSetting { UNNotificationSetting(settings.announcementSetting) }
    public var timeSensitiveSetting: UNNotificationSetting { UNNotificationSetting(settings.timeSensitiveSetting) }
    public var scheduledDeliverySetting: UNNotificationSetting { UNNotificationSetting(settings.scheduledDeliverySetting) }
    public var directMessagesSetting: UNNotificationSetting { UNNotificationSetting(settings.directMessagesSetting) }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationSettings)?.settings == settings
    }

    public override var hash: Int {
        settings.hashValue
    }
}
#endif
