public import ChimeCore

/// A button a presenter offers with a notification: a `NotificationAction` with its texts resolved in the
/// user's language.
///
/// Picking it sends the app a response with `identifier`. The flags tell the presenter how: a
/// `requiresUnlock` action runs only on an unlocked session (ask to unlock first), a `launchesApp` action
/// raises or launches the app, the others are handled in the background; `isDestructive` is drawn in a
/// warning style.
///
/// ```swift
/// let unfollow = presentation.actions[2]
/// unfollow.title           // "Unfollow"
/// unfollow.isDestructive   // true
/// unfollow.requiresUnlock  // true
/// ```
public struct PresentationAction: Sendable, Hashable {
    /// The texts of an action that asks the user for text.
    public struct TextInput: Sendable, Hashable {
        /// The send button's title; empty for the presenter's own ("Send").
        public var buttonTitle: String
        /// The hint in the empty text field; empty for none.
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    /// The response's `actionIdentifier`.
    public var identifier: String
    /// The button's label, resolved.
    public var title: String
    /// `NotificationActionOptions.destructive`.
    public var isDestructive: Bool
    /// `NotificationActionOptions.foreground`: picking it launches or raises the app.
    public var launchesApp: Bool
    /// `NotificationActionOptions.authenticationRequired`: it runs only on an unlocked session.
    public var requiresUnlock: Bool
    public var icon: NotificationActionIcon?
    /// Set when the action asks for text; `nil` for a plain button.
    public var textInput: TextInput?

    public init(
        identifier: String, title: String, isDestructive: Bool = false, launchesApp: Bool = false,
        requiresUnlock: Bool = false, icon: NotificationActionIcon? = nil, textInput: TextInput? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.isDestructive = isDestructive
        self.launchesApp = launchesApp
        self.requiresUnlock = requiresUnlock
        self.icon = icon
        self.textInput = textInput
    }

    /// `action` with its title (and text-input texts) passed through `resolve`.
    init(_ action: NotificationAction, resolve: (LocalizableText) -> String) {
        self.init(
            identifier: action.identifier,
            title: resolve(action.title),
            isDestructive: action.options.contains(.destructive),
            launchesApp: action.options.contains(.foreground),
            requiresUnlock: action.options.contains(.authenticationRequired),
            icon: action.icon,
            textInput: action.textInput.map {
                TextInput(buttonTitle: resolve($0.buttonTitle), placeholder: resolve($0.placeholder))
            })
    }
}
