/// The image shown beside an action's title (Apple's `UNNotificationActionIcon`).
///
/// A *system image* is a symbol the presenter provides: an SF Symbols name on Apple, which Linux
/// presenters map to a freedesktop icon name or use as one. A *template image* is an image of the app,
/// tinted by the presenter.
///
/// ```swift
/// let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like",
///                                   icon: NotificationActionIcon(systemImageName: "hand.thumbsup"))
/// ```
///
/// Encoded as `{"kind": "systemImage", "name": "hand.thumbsup"}`.
public struct NotificationActionIcon: Sendable, Hashable {
    /// Where the image comes from.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A symbol of the system (`UNNotificationActionIcon(systemImageName:)`).
        case systemImage
        /// An image of the app (`UNNotificationActionIcon(templateImageName:)`).
        case templateImage
    }

    public let kind: Kind
    /// The symbol or image name. Never empty.
    public let name: String

    /// - Throws: `ChimeError.invalidIdentifier` when `name` is empty.
    public init(_ kind: Kind, name: String) throws(ChimeError) {
        guard !name.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "icon.name", "an icon name must not be empty")
        }
        self.kind = kind
        self.name = name
    }

    /// A symbol of the system.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `systemImageName` is empty.
    public init(systemImageName: String) throws(ChimeError) {
        try self.init(.systemImage, name: systemImageName)
    }

    /// An image of the app, tinted by the presenter.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `templateImageName` is empty.
    public init(templateImageName: String) throws(ChimeError) {
        try self.init(.templateImage, name: templateImageName)
    }
}

extension NotificationActionIcon: Codable {
    private enum CodingKeys: String, CodingKey { case kind, name }

    /// Decodes and re-validates; a missing name is rejected like an empty one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            container.decode(Kind.self, forKey: .kind),
            name: container.decodeIfPresent(String.self, forKey: .name) ?? "")
    }
}
