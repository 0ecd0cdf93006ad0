/// How to present a notification that arrives while its app is in the foreground: the app's answer to
/// `willPresent` (Apple's `UNNotificationPresentationOptions`, same raw values).
///
/// ```swift
/// func willPresent(_ notification: DeliveredNotification) -> PresentationOptions {
///     [.banner, .sound]
/// }
/// PresentationOptions.alert.showsBanner  // true: .alert means banner and list
/// ```
///
/// An empty set presents nothing: the notification is delivered silently, to the app only.
///
/// Encoded as the option names, `["sound", "banner"]`; decoding also accepts the raw value.
public struct PresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Apply the notification's badge.
    public static let badge = PresentationOptions(rawValue: 1 << 0)
    /// Play the notification's sound.
    public static let sound = PresentationOptions(rawValue: 1 << 1)
    /// Deprecated by Apple since iOS 14: show the notification. Treated as `[.banner, .list]`.
    public static let alert = PresentationOptions(rawValue: 1 << 2)
    /// Put the notification in the notification list.
    public static let list = PresentationOptions(rawValue: 1 << 3)
    /// Show the notification as a banner.
    public static let banner = PresentationOptions(rawValue: 1 << 4)

    /// Whether to show a banner: `.banner`, or the deprecated `.alert`.
    public var showsBanner: Bool {
        !isDisjoint(with: [.banner, .alert])
    }

    /// Whether to put the notification in the list: `.list`, or the deprecated `.alert`.
    public var showsInList: Bool {
        !isDisjoint(with: [.list, .alert])
    }

    static let codingNames: [(PresentationOptions, String)] = [
        (.badge, "badge"), (.sound, "sound"), (.alert, "alert"), (.list, "list"), (.banner, "banner"),
    ]
}

extension PresentationOptions: Codable {
    public init(from decoder: any Decoder) throws {
        self = try OptionSetCoding.decode(names: Self.codingNames, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OptionSetCoding.encode(self, names: Self.codingNames, to: encoder)
    }
}
