public import ChimeEngine
public import Foundation

/// How the desktop names and draws one app: what its notifications show as their sender.
///
/// ```swift
/// DesktopAppInfo(displayName: "Photos", iconName: "org.example.Photos")
/// ```
public struct DesktopAppInfo: Sendable, Hashable {
    /// The name shown as the sender (`app_name`); `nil` shows the app identifier.
    public var displayName: String?
    /// `app_icon`: an icon name from the theme, or a `file://` URI; `nil` lets the server choose (most
    /// use the desktop entry's icon).
    public var iconName: String?
    /// The app's desktop file ID without `.desktop` (`org.example.Photos`), for the `desktop-entry` hint
    /// and the launcher badge's `application://` URI; `nil` uses the app identifier, which is the desktop
    /// file ID by the freedesktop convention for reverse-DNS names.
    public var desktopEntry: String?

    public init(displayName: String? = nil, iconName: String? = nil, desktopEntry: String? = nil) {
        self.displayName = displayName
        self.iconName = iconName
        self.desktopEntry = desktopEntry
    }
}

/// A text-input action was pressed on a server that has no text field (no `inline-reply` capability).
///
/// The presenter cannot collect the text, so it hands this to `DesktopPresenter.Configuration.onReplyNeeded`
/// (a daemon can open a dialog, a web page or a terminal prompt) and sends nothing to the app: the
/// notification stays in the app's delivered list, where any front end can answer it with
/// `NotificationEngine.respond(appIdentifier:notificationIdentifier:action: .reply(action:text:))`.
public struct ReplyRequest: Sendable, Hashable {
    public let appIdentifier: String
    public let notificationIdentifier: String
    /// The text-input action's identifier, which the reply names.
    public let actionIdentifier: String
    /// The button's label.
    public let actionTitle: String
    /// The hint for the empty text field; empty for none.
    public let placeholder: String

    public init(appIdentifier: String, notificationIdentifier: String, actionIdentifier: String, actionTitle: String, placeholder: String) {
        self.appIdentifier = appIdentifier
        self.notificationIdentifier = notificationIdentifier
        self.actionIdentifier = actionIdentifier
        self.actionTitle = actionTitle
        self.placeholder = placeholder
    }
}

extension DesktopPresenter {
    /// How the presenter connects and what it shows; every field has a default.
    public struct Configuration: Sendable {
        /// The bus the notification server is on: the session bus, or a private one in tests.
        public var bus: BusAddress
        /// Names and icons of apps, by app identifier.
        public var apps: @Sendable (String) -> DesktopAppInfo
        /// The file of an app's named sound (`PresentationSound.named("chime.oga")`), sent as the
        /// `sound-file` hint; `nil` when the app has none, and the server's default sound plays.
        public var soundFile: @Sendable (_ appIdentifier: String, _ name: String) -> URL?
        /// The longest the presenter waits for any answer from the bus or the server.
        public var callTimeout: Duration
        /// Called, on no particular thread, when a text-input action was pressed on a server without
        /// text fields (see `ReplyRequest`). `nil` logs it instead.
        public var onReplyNeeded: (@Sendable (ReplyRequest) -> Void)?
        /// Called, on no particular thread, with what came of each answer the user gave on the desktop:
        /// a daemon launches or raises the app for `ResponseOutcome.launch` and queues responses the app
        /// did not receive (`deliveredToApp == false`).
        public var onResponse: (@Sendable (_ appIdentifier: String, _ outcome: ResponseOutcome) -> Void)?
        /// Where the presenter keeps which server notification shows which of ours (mode 0600), so that
        /// a button pressed after a restart still reaches the app (`restoreShownNotifications()`); `nil`
        /// keeps it in memory only.
        public var shownFile: URL?

        public init(
            bus: BusAddress = .session,
            apps: @escaping @Sendable (String) -> DesktopAppInfo = { _ in DesktopAppInfo() },
            soundFile: @escaping @Sendable (_ appIdentifier: String, _ name: String) -> URL? = { _, _ in nil },
            callTimeout: Duration = .seconds(5),
            onReplyNeeded: (@Sendable (ReplyRequest) -> Void)? = nil,
            onResponse: (@Sendable (_ appIdentifier: String, _ outcome: ResponseOutcome) -> Void)? = nil
        ) {
            self.bus = bus
            self.apps = apps
            self.soundFile = soundFile
            self.callTimeout = callTimeout
            self.onReplyNeeded = onReplyNeeded
            self.onResponse = onResponse
        }

        /// `apps` from a table of display names.
        public static func appNames(_ names: [String: String]) -> @Sendable (String) -> DesktopAppInfo {
            { DesktopAppInfo(displayName: names[$0]) }
        }
    }
}
