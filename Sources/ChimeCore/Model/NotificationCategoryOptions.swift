/// How notifications of a category are handled (Apple's `UNNotificationCategoryOptions`, same raw values).
///
/// ```swift
/// let options: NotificationCategoryOptions = [.customDismissAction, .hiddenPreviewsShowTitle]
/// options.rawValue  // 5
/// ```
///
/// Encoded as the option names, `["customDismissAction", "hiddenPreviewsShowTitle"]`; decoding also
/// accepts the raw value.
public struct NotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Send the app a response with `NotificationResponse.dismissActionIdentifier` when the user
    /// explicitly dismisses the notification. Without it, dismissing is not reported.
    public static let customDismissAction = NotificationCategoryOptions(rawValue: 1 << 0)
    /// Show notifications of this category in CarPlay.
    public static let allowInCarPlay = NotificationCategoryOptions(rawValue: 1 << 1)
    /// Show the title even when the user has turned previews off.
    public static let hiddenPreviewsShowTitle = NotificationCategoryOptions(rawValue: 1 << 2)
    /// Show the subtitle even when the user has turned previews off.
    public static let hiddenPreviewsShowSubtitle = NotificationCategoryOptions(rawValue: 1 << 3)
    /// Deprecated by Apple since iOS 15 (announcement is always allowed): let Siri read notifications
    /// of this category aloud.
    public static let allowAnnouncement = NotificationCategoryOptions(rawValue: 1 << 4)

    static let codingNames: [(NotificationCategoryOptions, String)] = [
        (.customDismissAction, "customDismissAction"), (.allowInCarPlay, "allowInCarPlay"),
        (.hiddenPreviewsShowTitle, "hiddenPreviewsShowTitle"), (.hiddenPreviewsShowSubtitle, "hiddenPreviewsShowSubtitle"),
        (.allowAnnouncement, "allowAnnouncement"),
    ]
}

extension NotificationCategoryOptions: Codable {
    public init(from decoder: any Decoder) throws {
        self = try OptionSetCoding.decode(names: Self.codingNames, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OptionSetCoding.encode(self, names: Self.codingNames, to: encoder)
    }
}
