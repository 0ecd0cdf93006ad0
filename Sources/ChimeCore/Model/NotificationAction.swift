/// A button offered with a notification: tapping it sends the app a response with the action's
/// identifier (Apple's `UNNotificationAction` and `UNTextInputNotificationAction`).
///
/// One type plays both of Apple's classes: an action whose `textInput` is set asks the user for text,
/// and its response carries that text (Apple's `UNTextInputNotificationAction`, a subclass). A single
/// value type keeps categories a plain `[NotificationAction]` for the engine, the stores and the
/// presenters, and maps both ways: `textInput != nil` exactly when the Apple object is a
/// `UNTextInputNotificationAction`.
///
/// ```swift
/// let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like")
/// let unfollow = try NotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow",
///                                       options: [.authenticationRequired, .destructive])
/// let reply = try NotificationAction.textInput(identifier: "REPLY", title: "Reply",
///                                              buttonTitle: "Send", placeholder: "Message")
/// reply.isTextInput  // true
/// ```
///
/// **Titles.** A localized title is resolved when the notification is presented, in the user's language
/// then. An empty title is accepted, as Apple accepts it, so code written for iOS behaves the same; the
/// button then has no label, which is the app's bug to fix, not a reason to refuse the category.
public struct NotificationAction: Sendable, Hashable {
    /// What the response's `actionIdentifier` will be. Unique within a category; never empty, never one of
    /// `NotificationResponse.defaultActionIdentifier` or `.dismissActionIdentifier`.
    public let identifier: String
    /// The button's label.
    public let title: LocalizableText
    public let options: NotificationActionOptions
    public let icon: NotificationActionIcon?
    /// Set when the action asks for text; `nil` for a plain button.
    public let textInput: TextInputConfiguration?

    /// Apple's `UNNotificationAction(identifier:title:options:icon:)`, or a text-input action when
    /// `textInput` is given.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `identifier` is empty or is the default or dismiss
    ///   action identifier (a response to it could not be told from opening or dismissing the
    ///   notification), or when a localized title has an empty key.
    public init(
        identifier: String,
        title: LocalizableText,
        options: NotificationActionOptions = [],
        icon: NotificationActionIcon? = nil,
        textInput: TextInputConfiguration? = nil
    ) throws(ChimeError) {
        guard !identifier.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "identifier", "an action identifier must not be empty")
        }
        guard !NotificationResponse.reservedActionIdentifiers.contains(identifier) else {
            throw ChimeError(.invalidIdentifier, field: "identifier", "an action must not use the default or dismiss action identifier")
        }
        if title.key?.isEmpty == true {
            throw ChimeError(.invalidIdentifier, field: "title", "a localization key must not be empty")
        }
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        self.textInput = textInput
    }

    /// Apple's `UNTextInputNotificationAction(identifier:title:options:icon:textInputButtonTitle:textInputPlaceholder:)`.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` as `init(identifier:title:options:icon:textInput:)`
    ///   does, and for a localized button title or placeholder with an empty key.
    public static func textInput(
        identifier: String,
        title: LocalizableText,
        options: NotificationActionOptions = [],
        icon: NotificationActionIcon? = nil,
        buttonTitle: LocalizableText = .empty,
        placeholder: LocalizableText = .empty
    ) throws(ChimeError) -> NotificationAction {
        try NotificationAction(
            identifier: identifier, title: title, options: options, icon: icon,
            textInput: TextInputConfiguration(buttonTitle: buttonTitle, placeholder: placeholder))
    }

    /// Whether the action asks the user for text.
    public var isTextInput: Bool {
        textInput != nil
    }
}

extension NotificationAction: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, title, options, icon, textInput }

    /// Missing options are none, missing title is empty; the result is validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            identifier: container.decode(String.self, forKey: .identifier),
            title: container.decodeIfPresent(LocalizableText.self, forKey: .title) ?? .empty,
            options: container.decodeIfPresent(NotificationActionOptions.self, forKey: .options) ?? [],
            icon: container.decodeIfPresent(NotificationActionIcon.self, forKey: .icon),
            textInput: container.decodeIfPresent(TextInputConfiguration.self, forKey: .textInput))
    }
}

extension [NotificationAction] {
    /// Checks that no two actions share an identifier: a response names its action by identifier only.
    ///
    /// - Throws: `ChimeError.duplicateActionIdentifier`, with the position of the second one as field.
    func checkUniqueIdentifiers(field: String = "actions") throws(ChimeError) {
        var seen: Set<String> = []
        for (index, action) in enumerated() where !seen.insert(action.identifier).inserted {
            throw ChimeError(.duplicateActionIdentifier, field: "\(field)[\(index)]", "two actions share an identifier")
        }
    }
}
