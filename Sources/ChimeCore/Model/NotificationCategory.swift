/// A kind of notification the app sends, with the actions it offers and how it is shown
/// (Apple's `UNNotificationCategory`).
///
/// A notification belongs to the category named by its content's `categoryIdentifier`. The app registers
/// its categories with the notification center; presenters show the category's actions as buttons, in
/// order (Apple shows at most four on a banner, ten when expanded; Chime keeps them all and leaves the
/// cut to the presenter).
///
/// ```swift
/// let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like")
/// let dislike = try NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike")
/// let imagePosting = try NotificationCategory(
///     identifier: "CATEGORY_IMAGE_POSTING", actions: [like, dislike],
///     options: [.customDismissAction, .hiddenPreviewsShowTitle])
/// imagePosting.action(withIdentifier: "ACTION_LIKE")?.title  // "Like"
/// ```
public struct NotificationCategory: Sendable, Hashable {
    /// Unique among the app's categories; matches `NotificationContent.categoryIdentifier`. Never empty.
    public let identifier: String
    /// The buttons offered, in order. Identifiers are unique.
    public let actions: [NotificationAction]
    /// The SiriKit intents the category's notifications relate to (`INSendMessageIntent`, ...).
    public let intentIdentifiers: [String]
    /// Shown instead of the body when previews are hidden, for example `"%u new photos"`; `nil` for the
    /// presenter's own placeholder.
    public let hiddenPreviewsBodyPlaceholder: LocalizableText?
    /// The format of a group's summary, for example `"%u more photos from %@"`; `nil` for the presenter's
    /// own. Apple ignores it since iOS 15.
    public let categorySummaryFormat: LocalizableText?
    public let options: NotificationCategoryOptions

    /// Apple's `UNNotificationCategory(identifier:actions:intentIdentifiers:hiddenPreviewsBodyPlaceholder:categorySummaryFormat:options:)`.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `identifier` or an intent identifier is empty, or a
    ///   localized placeholder or summary format has an empty key; `ChimeError.duplicateActionIdentifier`
    ///   when two actions share an identifier. (Actions themselves are valid by construction: none uses
    ///   an empty or a reserved identifier.)
    public init(
        identifier: String,
        actions: [NotificationAction],
        intentIdentifiers: [String] = [],
        hiddenPreviewsBodyPlaceholder: LocalizableText? = nil,
        categorySummaryFormat: LocalizableText? = nil,
        options: NotificationCategoryOptions = []
    ) throws(ChimeError) {
        guard !identifier.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "identifier", "a category identifier must not be empty")
        }
        try actions.checkUniqueIdentifiers()
        guard !intentIdentifiers.contains("") else {
            throw ChimeError(.invalidIdentifier, field: "intentIdentifiers", "an intent identifier must not be empty")
        }
        if hiddenPreviewsBodyPlaceholder?.key?.isEmpty == true {
            throw ChimeError(.invalidIdentifier, field: "hiddenPreviewsBodyPlaceholder", "a localization key must not be empty")
        }
        if categorySummaryFormat?.key?.isEmpty == true {
            throw ChimeError(.invalidIdentifier, field: "categorySummaryFormat", "a localization key must not be empty")
        }
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }

    /// The action with `identifier`, or `nil` when the category has none.
    public func action(withIdentifier identifier: String) -> NotificationAction? {
        actions.first { $0.identifier == identifier }
    }
}

extension NotificationCategory: Codable {
    private enum CodingKeys: String, CodingKey {
        case identifier, actions, intentIdentifiers, hiddenPreviewsBodyPlaceholder, categorySummaryFormat, options
    }

    /// Missing lists are empty and missing options none; the result is validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            identifier: container.decode(String.self, forKey: .identifier),
            actions: container.decodeIfPresent([NotificationAction].self, forKey: .actions) ?? [],
            intentIdentifiers: container.decodeIfPresent([String].self, forKey: .intentIdentifiers) ?? [],
            hiddenPreviewsBodyPlaceholder: container.decodeIfPresent(LocalizableText.self, forKey: .hiddenPreviewsBodyPlaceholder),
            categorySummaryFormat: container.decodeIfPresent(LocalizableText.self, forKey: .categorySummaryFormat),
            options: container.decodeIfPresent(NotificationCategoryOptions.self, forKey: .options) ?? [])
    }
}
