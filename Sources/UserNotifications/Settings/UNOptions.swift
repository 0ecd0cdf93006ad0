#if !canImport(Darwin)
import ChimeCore

/// What an app asks the user to allow (Apple's `UNAuthorizationOptions`, same raw values).
///
/// ```swift
/// center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in ... }
/// center.requestAuthorization(options: [.alert, .provisional]) { _, _ in }   // quietly, without asking
/// ```
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    /// Critical alerts play and show through focus and Do Not Disturb.
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    /// The app has its own notification settings screen (`userNotificationCenter(_:openSettingsFor:)`).
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Deliver quietly to the list at once, without asking; the user decides later.
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
    /// Deprecated by Apple in iOS 15 (always granted).
    public static let announcement = UNAuthorizationOptions(rawValue: 1 << 7)
    /// Deprecated by Apple in iOS 15 (an entitlement now).
    public static let timeSensitive = UNAuthorizationOptions(rawValue: 1 << 8)

    var chime: AuthorizationOptions { AuthorizationOptions(rawValue: rawValue) }
}

/// How a notification is presented while its app is in the foreground: the answer to
/// `userNotificationCenter(_:willPresent:withCompletionHandler:)` (Apple's
/// `UNNotificationPresentationOptions`, same raw values).
public struct UNNotificationPresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    /// Deprecated by Apple in iOS 14: means `[.banner, .list]`.
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)

    var chime: PresentationOptions { PresentationOptions(rawValue: rawValue) }
}

/// How an action behaves when chosen (Apple's `UNNotificationActionOptions`, same raw values).
public struct UNNotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Runs only on an unlocked session.
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    /// Shown in a warning style.
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    /// Launches or raises the app; without it the app handles the response in the background.
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)

    var chime: NotificationActionOptions { NotificationActionOptions(rawValue: rawValue) }
}

/// How notifications of a category are handled (Apple's `UNNotificationCategoryOptions`, same raw values).
public struct UNNotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Report an explicit dismissal with `UNNotificationDismissActionIdentifier`.
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    /// Show the title even when previews are hidden.
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    /// Show the subtitle even when previews are hidden.
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    /// Deprecated by Apple in iOS 15.
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)

    var chime: NotificationCategoryOptions { NotificationCategoryOptions(rawValue: rawValue) }
}

/// Whether the user lets the app notify (Apple's `UNAuthorizationStatus`, same raw values).
public enum UNAuthorizationStatus: Int, Sendable, Hashable {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    case provisional = 3
    case ephemeral = 4

    init(_ status: AuthorizationStatus) {
        self = UNAuthorizationStatus(rawValue: status.rawValue) ?? .notDetermined
    }
}

/// The state of one notification setting (Apple's `UNNotificationSetting`, same raw values).
public enum UNNotificationSetting: Int, Sendable, Hashable {
    case notSupported = 0
    case disabled = 1
    case enabled = 2

    init(_ setting: NotificationSetting) {
        self = UNNotificationSetting(rawValue: setting.rawValue) ?? .notSupported
    }
}

/// How notifications appear on arrival (Apple's `UNAlertStyle`, same raw values).
public enum UNAlertStyle: Int, Sendable, Hashable {
    case none = 0
    case banner = 1
    case alert = 2

    init(_ style: AlertStyle) {
        self = UNAlertStyle(rawValue: style.rawValue) ?? .none
    }
}

/// When notification text may be shown (Apple's `UNShowPreviewsSetting`, same raw values).
public enum UNShowPreviewsSetting: Int, Sendable, Hashable {
    case always = 0
    case whenAuthenticated = 1
    case never = 2

    init(_ setting: ShowPreviewsSetting) {
        self = UNShowPreviewsSetting(rawValue: setting.rawValue) ?? .always
    }
}

/// How strongly a notification may interrupt (Apple's `UNNotificationInterruptionLevel`, same raw values).
public enum UNNotificationInterruptionLevel: UInt, Sendable, Hashable {
    case passive = 0
    case active = 1
    case timeSensitive = 2
    case critical = 3

    init(_ level: InterruptionLevel) {
        self = UNNotificationInterruptionLevel(rawValue: UInt(level.rawValue)) ?? .active
    }

    var chime: InterruptionLevel { InterruptionLevel(rawValue: Int(rawValue)) ?? .active }
}

/// The action identifier of a response to opening the notification (Apple's constant, same string).
public let UNNotificationDefaultActionIdentifier: String = NotificationResponse.defaultActionIdentifier
/// The action identifier of a response to an explicit dismissal, sent only for categories with
/// `.customDismissAction` (Apple's constant, same string).
public let UNNotificationDismissActionIdentifier: String = NotificationResponse.dismissActionIdentifier
#endif
