#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// A kind of notification the app sends, with its actions and options (Apple's `UNNotificationCategory`).
///
/// ```swift
/// let imagePosting = UNNotificationCategory(identifier: "CATEGORY_IMAGE_POSTING", actions: [like, dislike],
///                                           intentIdentifiers: [], options: [.customDismissAction])
/// UNUserNotificationCenter.current().setNotificationCategories([imagePosting])
/// ```
///
/// Two categories are equal when all their properties are, so a `Set` keeps one of each.
// @unchecked Sendable: immutable.
public final class UNNotificationCategory: NSObject, NSCopying, @unchecked Sendable {
    public let identifier: String
    public let actions: [UNNotificationAction]
    public let intentIdentifiers: [String]
    public let options: UNNotificationCategoryOptions
    /// Shown instead of the body when previews are hidden (`"%u new photos"`); empty for the presenter's own.
    public let hiddenPreviewsBodyPlaceholder: String
    /// The format of a group's summary; empty for the presenter's own. Ignored by Apple since iOS 15.
    public let categorySummaryFormat: String

    init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String,
        categorySummaryFormat: String, options: UNNotificationCategoryOptions
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }

    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], options: UNNotificationCategoryOptions = []) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers, hiddenPreviewsBodyPlaceholder: "",
            categorySummaryFormat: "", options: options)
    }

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String,
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: "", options: options)
    }

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String?,
        categorySummaryFormat: String?, options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder ?? "", categorySummaryFormat: categorySummaryFormat ?? "", options: options)
    }

    convenience init(_ category: NotificationCategory) {
        self.init(
            identifier: category.identifier, actions: category.actions.map(UNNotificationAction.make), intentIdentifiers: category.intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder.map(DeferredLocalization.string) ?? "",
            categorySummaryFormat: category.categorySummaryFormat.map(DeferredLocalization.string) ?? "",
            options: UNNotificationCategoryOptions(rawValue: category.options.rawValue))
    }

    /// - Throws: `ChimeError` for an empty identifier, two actions with one identifier, or an action Chime
    ///   cannot offer.
    func notificationCategory() throws(ChimeError) -> NotificationCategory {
        var converted: [NotificationAction] = []
        for action in actions { converted.append(try action.notificationAction()) }
        return try NotificationCategory(
            identifier: identifier, actions: converted, intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder.isEmpty ? nil : DeferredLocalization.text(hiddenPreviewsBodyPlaceholder),
            categorySummaryFormat: categorySummaryFormat.isEmpty ? nil : DeferredLocalization.text(categorySummaryFormat),
            options: options.chime)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationCategory else { return false }
        return other.identifier == identifier && other.actions == actions && other.intentIdentifiers == intentIdentifiers
            && other.options == options && other.hiddenPreviewsBodyPlaceholder == hiddenPreviewsBodyPlaceholder
            && other.categorySummaryFormat == categorySummaryFormat
    }

    public override var hash: Int {
        identifier.hashValue
    }
}
#endif
