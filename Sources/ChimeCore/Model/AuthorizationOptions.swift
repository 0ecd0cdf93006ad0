/// What an app asks the user to allow (Apple's `UNAuthorizationOptions`, same raw values).
///
/// ```swift
/// let asked: AuthorizationOptions = [.badge, .sound, .alert, .provisional]
/// asked.rawValue  // 71
/// let settings = NotificationSettings.granted(asked)  // quietly, to the list only
/// ```
///
/// Encoded as the option names, `["badge", "sound", "alert"]`; decoding also accepts the raw value.
public struct AuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Update the app's badge.
    public static let badge = AuthorizationOptions(rawValue: 1 << 0)
    /// Play sounds.
    public static let sound = AuthorizationOptions(rawValue: 1 << 1)
    /// Show notifications: banners, the list, the lock screen.
    public static let alert = AuthorizationOptions(rawValue: 1 << 2)
    /// Show notifications in CarPlay.
    public static let carPlay = AuthorizationOptions(rawValue: 1 << 3)
    /// Play sounds and show alerts that bypass focus, Do Not Disturb and the mute switch.
    public static let criticalAlert = AuthorizationOptions(rawValue: 1 << 4)
    /// The app has its own notification settings screen, which the system may open.
    public static let providesAppNotificationSettings = AuthorizationOptions(rawValue: 1 << 5)
    /// Deliver quietly to the list without asking first; the user decides later from a notification.
    public static let provisional = AuthorizationOptions(rawValue: 1 << 6)
    /// Deprecated by Apple since iOS 15 (always included): let Siri read notifications aloud.
    public static let announcement = AuthorizationOptions(rawValue: 1 << 7)
    /// Deprecated by Apple in iOS 15 (replaced by an entitlement): let time-sensitive notifications
    /// break through a focus.
    public static let timeSensitive = AuthorizationOptions(rawValue: 1 << 8)

    static let codingNames: [(AuthorizationOptions, String)] = [
        (.badge, "badge"), (.sound, "sound"), (.alert, "alert"), (.carPlay, "carPlay"), (.criticalAlert, "criticalAlert"),
        (.providesAppNotificationSettings, "providesAppNotificationSettings"), (.provisional, "provisional"),
        (.announcement, "announcement"), (.timeSensitive, "timeSensitive"),
    ]
}

extension AuthorizationOptions: Codable {
    public init(from decoder: any Decoder) throws {
        self = try OptionSetCoding.decode(names: Self.codingNames, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OptionSetCoding.encode(self, names: Self.codingNames, to: encoder)
    }
}
