/// How an action behaves when the user picks it (Apple's `UNNotificationActionOptions`, same raw values).
///
/// ```swift
/// let unfollow = try NotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow",
///                                       options: [.authenticationRequired, .destructive])
/// NotificationActionOptions.foreground.rawValue  // 4
/// ```
///
/// Encoded as the option names, `["authenticationRequired", "destructive"]`; decoding also accepts the
/// raw value.
public struct NotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The action runs only on an unlocked session; the user is asked to unlock first.
    public static let authenticationRequired = NotificationActionOptions(rawValue: 1 << 0)
    /// The action deletes or undoes something; presenters show it in a warning style.
    public static let destructive = NotificationActionOptions(rawValue: 1 << 1)
    /// The action launches or raises the app. Without it the response is handled in the background.
    public static let foreground = NotificationActionOptions(rawValue: 1 << 2)

    static let codingNames: [(NotificationActionOptions, String)] = [
        (.authenticationRequired, "authenticationRequired"), (.destructive, "destructive"), (.foreground, "foreground"),
    ]
}

extension NotificationActionOptions: Codable {
    public init(from decoder: any Decoder) throws {
        self = try OptionSetCoding.decode(names: Self.codingNames, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try OptionSetCoding.encode(self, names: Self.codingNames, to: encoder)
    }
}
