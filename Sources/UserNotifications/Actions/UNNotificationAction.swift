#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// The image beside an action's title (Apple's `UNNotificationActionIcon`).
// @unchecked Sendable: immutable.
public final class UNNotificationActionIcon: NSObject, NSCopying, @unchecked Sendable {
    let kind: NotificationActionIcon.Kind
    let name: String

    init(kind: NotificationActionIcon.Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// An image of the app, tinted by the presenter.
    public convenience init(templateImageName: String) {
        self.init(kind: .templateImage, name: templateImageName)
    }

    /// A symbol of the system (an SF Symbols name; Linux presenters map it to a freedesktop icon name).
    public convenience init(systemImageName: String) {
        self.init(kind: .systemImage, name: systemImageName)
    }

    func notificationActionIcon() throws(ChimeError) -> NotificationActionIcon {
        try NotificationActionIcon(kind, name: name)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationActionIcon else { return false }
        return other.kind == kind && other.name == name
    }

    public override var hash: Int {
        name.hashValue
    }
}

/// A button offered with a notification (Apple's `UNNotificationAction`).
///
/// ```swift
/// let like = UNNotificationAction(identifier: "ACTION_LIKE", title: "Like", options: [])
/// let unfollow = UNNotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow",
///                                     options: [.authenticationRequired, .destructive])
/// ```
///
/// As on Apple, creating one never fails. An action Chime cannot offer — an empty identifier, or one of
/// the default or dismiss action identifiers — is refused when its category is registered (see
/// `UNUserNotificationCenter.setNotificationCategories(_:)`). A title made with
/// `NSString.localizedUserNotificationString(forKey:arguments:)` is localized when presented.
// @unchecked Sendable: immutable.
public class UNNotificationAction: NSObject, NSCopying, @unchecked Sendable {
    struct Fields: Hashable {
        var identifier: String
        var title: String
        var options: UNNotificationActionOptions
        var icon: UNNotificationActionIcon?
        var textInput: (buttonTitle: String, placeholder: String)?

        static func == (lhs: Fields, rhs: Fields) -> Bool {
            lhs.identifier == rhs.identifier && lhs.title == rhs.title && lhs.options == rhs.options && lhs.icon == rhs.icon
                && lhs.textInput?.buttonTitle == rhs.textInput?.buttonTitle && lhs.textInput?.placeholder == rhs.textInput?.placeholder
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(identifier)
            hasher.combine(title)
        }
    }

    let fields: Fields

    /// The designated initializer every public one leads to; `UNTextInputNotificationAction` overrides it,
    /// so the inherited `init(identifier:title:options:)` makes a text-input action there, as on Apple.
    init(fields: Fields) {
        self.fields = fields
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(fields: Fields(identifier: identifier, title: title, options: options, icon: nil))
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?) {
        self.init(fields: Fields(identifier: identifier, title: title, options: options, icon: icon))
    }

    /// An action read back from the engine: a `UNTextInputNotificationAction` when it asks for text.
    static func make(_ action: NotificationAction) -> UNNotificationAction {
        let icon = action.icon.map { UNNotificationActionIcon(kind: $0.kind, name: $0.name) }
        var fields = Fields(
            identifier: action.identifier, title: DeferredLocalization.string(action.title), options: UNNotificationActionOptions(rawValue: action.options.rawValue),
            icon: icon)
        guard let textInput = action.textInput else { return UNNotificationAction(fields: fields) }
        fields.textInput = (DeferredLocalization.string(textInput.buttonTitle), DeferredLocalization.string(textInput.placeholder))
        return UNTextInputNotificationAction(fields: fields)
    }

    public var identifier: String { fields.identifier }
    public var title: String { fields.title }
    public var options: UNNotificationActionOptions { fields.options }
    public var icon: UNNotificationActionIcon? { fields.icon }

    /// - Throws: `ChimeError.invalidIdentifier` for an empty or reserved identifier, or an empty icon name.
    func notificationAction() throws(ChimeError) -> NotificationAction {
        let textInput = try fields.textInput.map { textInput throws(ChimeError) in
            try TextInputConfiguration(
                buttonTitle: DeferredLocalization.text(textInput.buttonTitle), placeholder: DeferredLocalization.text(textInput.placeholder))
        }
        return try NotificationAction(
            identifier: fields.identifier, title: DeferredLocalization.text(fields.title), options: fields.options.chime,
            icon: fields.icon?.notificationActionIcon(), textInput: textInput)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAction else { return false }
        return other.fields == fields
    }

    public override var hash: Int {
        fields.hashValue
    }
}

/// An action that asks the user for text; the response is a `UNTextInputNotificationResponse` with
/// `userText` (Apple's `UNTextInputNotificationAction`).
///
/// ```swift
/// let reason = UNTextInputNotificationAction(identifier: "meeting.reasonForDeclineInputAction",
///                                            title: "거절 사유", options: [.destructive, .foreground])
/// ```
// @unchecked Sendable: immutable.
public final class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    override init(fields: Fields) {
        var fields = fields
        if fields.textInput == nil { fields.textInput = ("", "") }
        super.init(fields: fields)
    }

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.init(
            fields: Fields(identifier: identifier, title: title, options: options, icon: nil, textInput: (textInputButtonTitle, textInputPlaceholder)))
    }

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?, textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.init(
            fields: Fields(identifier: identifier, title: title, options: options, icon: icon, textInput: (textInputButtonTitle, textInputPlaceholder)))
    }

    /// The title of the button that sends the text; empty for the presenter's own.
    public var textInputButtonTitle: String { fields.textInput?.buttonTitle ?? "" }
    /// The hint in the empty text field.
    public var textInputPlaceholder: String { fields.textInput?.placeholder ?? "" }
}
#endif
