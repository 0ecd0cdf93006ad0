/// What the user lets an app do with notifications: every property of Apple's `UNNotificationSettings`.
///
/// The user's decisions live in the notification center's store; apps read them as a value. Start from
/// one of the static members and change what the user changed:
///
/// ```swift
/// var settings = NotificationSettings.granted([.alert, .sound, .badge])
/// settings.authorizationStatus  // .authorized
/// settings.alertStyle           // .banner
/// settings.carPlaySetting       // .notSupported: not asked for
/// settings.showPreviewsSetting = .whenAuthenticated
/// ```
///
/// **Derived settings** (`granted(_:)`, `denied(_:)`), modelled on what iOS reports after the user's
/// decision:
///
/// - A setting whose option the app did not ask for is `.notSupported`. One it asked for is `.enabled`
///   when authorized, `.disabled` when provisional or denied.
/// - `notificationCenterSetting` and `lockScreenSetting` follow `.alert`, except that a provisional app's
///   notifications do go to the list: its `notificationCenterSetting` is `.enabled`.
/// - `timeSensitiveSetting` follows `.alert` or `.timeSensitive`: since iOS 15 time-sensitivity is an
///   entitlement, not a request, so any app that may alert may also break through a focus.
/// - `alertStyle` is `.banner` for an authorized app that asked for `.alert`, otherwise `.none`.
/// - `scheduledDeliverySetting` is `.disabled` (not held for a summary) when `.alert` was asked for,
///   otherwise `.notSupported`;
///   `directMessagesSetting` is `.notSupported` (Chime has no communication notifications);
///   `showPreviewsSetting` is `.always`, a desktop's usual default.
public struct NotificationSettings: Sendable, Hashable {
    public var authorizationStatus: AuthorizationStatus
    public var soundSetting: NotificationSetting
    public var badgeSetting: NotificationSetting
    /// Whether notifications are shown at all (banner, list or lock screen).
    public var alertSetting: NotificationSetting
    /// Whether notifications go to the notification list.
    public var notificationCenterSetting: NotificationSetting
    /// Whether notifications show while the session is locked.
    public var lockScreenSetting: NotificationSetting
    public var carPlaySetting: NotificationSetting
    public var alertStyle: AlertStyle
    public var showPreviewsSetting: ShowPreviewsSetting
    public var criticalAlertSetting: NotificationSetting
    /// Whether the app has its own notification settings screen (it asked with
    /// `.providesAppNotificationSettings`).
    public var providesAppNotificationSettings: Bool
    public var announcementSetting: NotificationSetting
    /// Whether time-sensitive notifications break through a focus.
    public var timeSensitiveSetting: NotificationSetting
    /// Whether notifications are held for a scheduled summary instead of delivered at once.
    public var scheduledDeliverySetting: NotificationSetting
    /// Whether direct-message notifications break through a focus.
    public var directMessagesSetting: NotificationSetting
    /// How the app's notifications stack in the list (Settings › Notifications › Notification Grouping).
    /// Chime's own: Apple's `UNNotificationSettings` does not report it.
    public var groupingSetting: NotificationGrouping

    /// Every parameter defaults to its value in `.notDetermined`.
    public init(
        authorizationStatus: AuthorizationStatus = .notDetermined,
        soundSetting: NotificationSetting = .notSupported,
        badgeSetting: NotificationSetting = .notSupported,
        alertSetting: NotificationSetting = .notSupported,
        notificationCenterSetting: NotificationSetting = .notSupported,
        lockScreenSetting: NotificationSetting = .notSupported,
        carPlaySetting: NotificationSetting = .notSupported,
        alertStyle: AlertStyle = .none,
        showPreviewsSetting: ShowPreviewsSetting = .always,
        criticalAlertSetting: NotificationSetting = .notSupported,
        providesAppNotificationSettings: Bool = false,
        announcementSetting: NotificationSetting = .notSupported,
        timeSensitiveSetting: NotificationSetting = .notSupported,
        scheduledDeliverySetting: NotificationSetting = .notSupported,
        directMessagesSetting: NotificationSetting = .notSupported,
        groupingSetting: NotificationGrouping = .automatic
    ) {
        self.authorizationStatus = authorizationStatus
        self.soundSetting = soundSetting
        self.badgeSetting = badgeSetting
        self.alertSetting = alertSetting
        self.notificationCenterSetting = notificationCenterSetting
        self.lockScreenSetting = lockScreenSetting
        self.carPlaySetting = carPlaySetting
        self.alertStyle = alertStyle
        self.showPreviewsSetting = showPreviewsSetting
        self.criticalAlertSetting = criticalAlertSetting
        self.providesAppNotificationSettings = providesAppNotificationSettings
        self.announcementSetting = announcementSetting
        self.timeSensitiveSetting = timeSensitiveSetting
        self.scheduledDeliverySetting = scheduledDeliverySetting
        self.directMessagesSetting = directMessagesSetting
        self.groupingSetting = groupingSetting
    }

    /// Before the app has asked: `.notDetermined`, every setting `.notSupported`, no alert style,
    /// previews always, grouped automatically.
    public static let notDetermined = NotificationSettings()

    /// What the app has once the user allows `options` — or, when `options` contains `.provisional`, what
    /// it has at once without asking: status `.provisional`, delivered quietly to the list only. (When the
    /// user later keeps a provisional app's notifications, pass the options without `.provisional`.)
    public static func granted(_ options: AuthorizationOptions) -> NotificationSettings {
        derived(options.contains(.provisional) ? .provisional : .authorized, asked: options)
    }

    /// What the app has once the user refuses `options`: status `.denied`, every setting asked for
    /// `.disabled`.
    public static func denied(_ options: AuthorizationOptions) -> NotificationSettings {
        derived(.denied, asked: options)
    }

    private static func derived(_ status: AuthorizationStatus, asked options: AuthorizationOptions) -> NotificationSettings {
        let allowed: NotificationSetting = status == .authorized ? .enabled : .disabled
        func setting(_ option: AuthorizationOptions) -> NotificationSetting {
            options.isDisjoint(with: option) ? .notSupported : allowed
        }
        let alerts = options.contains(.alert)
        return NotificationSettings(
            authorizationStatus: status,
            soundSetting: setting(.sound),
            badgeSetting: setting(.badge),
            alertSetting: setting(.alert),
            notificationCenterSetting: status == .provisional ? .enabled : setting(.alert),
            lockScreenSetting: setting(.alert),
            carPlaySetting: setting(.carPlay),
            alertStyle: status == .authorized && alerts ? .banner : .none,
            showPreviewsSetting: .always,
            criticalAlertSetting: setting(.criticalAlert),
            providesAppNotificationSettings: options.contains(.providesAppNotificationSettings),
            announcementSetting: setting(.announcement),
            timeSensitiveSetting: setting([.alert, .timeSensitive]),
            scheduledDeliverySetting: alerts ? .disabled : .notSupported,
            directMessagesSetting: .notSupported)
    }
}

extension NotificationSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case authorizationStatus, soundSetting, badgeSetting, alertSetting, notificationCenterSetting
        case lockScreenSetting, carPlaySetting, alertStyle, showPreviewsSetting, criticalAlertSetting
        case providesAppNotificationSettings, announcementSetting, timeSensitiveSetting, scheduledDeliverySetting
        case directMessagesSetting, groupingSetting
    }

    /// Missing keys take their `.notDetermined` values, so settings stored before a property existed
    /// still decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func setting(_ key: CodingKeys) throws -> NotificationSetting {
            try container.decodeIfPresent(NotificationSetting.self, forKey: key) ?? .notSupported
        }
        self.init(
            authorizationStatus: try container.decodeIfPresent(AuthorizationStatus.self, forKey: .authorizationStatus) ?? .notDetermined,
            soundSetting: try setting(.soundSetting),
            badgeSetting: try setting(.badgeSetting),
            alertSetting: try setting(.alertSetting),
            notificationCenterSetting: try setting(.notificationCenterSetting),
            lockScreenSetting: try setting(.lockScreenSetting),
            carPlaySetting: try setting(.carPlaySetting),
            alertStyle: try container.decodeIfPresent(AlertStyle.self, forKey: .alertStyle) ?? .none,
            showPreviewsSetting: try container.decodeIfPresent(ShowPreviewsSetting.self, forKey: .showPreviewsSetting) ?? .always,
            criticalAlertSetting: try setting(.criticalAlertSetting),
            providesAppNotificationSettings: try container.decodeIfPresent(Bool.self, forKey: .providesAppNotificationSettings) ?? false,
            announcementSetting: try setting(.announcementSetting),
            timeSensitiveSetting: try setting(.timeSensitiveSetting),
            scheduledDeliverySetting: try setting(.scheduledDeliverySetting),
            directMessagesSetting: try setting(.directMessagesSetting),
            groupingSetting: try container.decodeIfPresent(NotificationGrouping.self, forKey: .groupingSetting) ?? .automatic)
    }
}
