public import ChimeCore

/// What an app implements to take part in its notifications while it runs (Apple's
/// `UNUserNotificationCenterDelegate`).
///
/// Every method has a default, so an app implements only what it needs.
public protocol NotificationCenterDelegate: AnyObject, Sendable {
    /// A notification arrives while the app is in the foreground: choose how it is presented. The
    /// default presents nothing, as on iOS.
    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions

    /// The user acted on a notification: opened it, dismissed it (only with `customDismissAction`), chose
    /// an action or typed a reply. Return what should happen to the notification on screen; the default
    /// leaves it as the system would (see `ResponseDisposition.standard`).
    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition

    /// The user asked to see the app's own notification settings (the app requested
    /// `.providesAppNotificationSettings`); `notification` is the one they came from, if any.
    func openSettings(for notification: DeliveredNotification?) async
}

extension NotificationCenterDelegate {
    public func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions { [] }
    public func didReceive(_ response: NotificationResponse) async -> ResponseDisposition { .standard }
    public func openSettings(for notification: DeliveredNotification?) async {}
}

/// What happens to a delivered notification after the app handled a response — what an iOS content
/// extension decides with `extensionContext.notificationActions` and its completion option.
///
/// ```swift
/// // The seeds' rating example: "Rate" turns into three star buttons, and the notification stays.
/// return .replaceActions([oneStar, twoStars, threeStars])
/// ```
public struct ResponseDisposition: Sendable, Hashable {
    /// What to do with the notification's buttons.
    public enum Actions: Sendable, Hashable {
        /// Leave them as they are.
        case keep
        /// Show these instead, for this notification only.
        case replace([NotificationAction])
        /// Show none.
        case clear
    }

    /// What to do with the notification itself.
    public enum Outcome: Sendable, Hashable {
        /// The system's default: an action or the default action removes the notification from the screen
        /// (it stays in the delivered list); a text reply or a dismissal removes it too.
        case standard
        /// Keep it on screen (re-presented with its new buttons, if any).
        case keepOnScreen
        /// Dismiss it: remove it from the screen and from the delivered list.
        case dismiss
        /// Dismiss it and open the app as if the user had tapped it (the default action).
        case performDefaultAction
    }

    public var actions: Actions
    public var outcome: Outcome

    public init(actions: Actions = .keep, outcome: Outcome = .standard) {
        self.actions = actions
        self.outcome = outcome
    }

    public static let standard = ResponseDisposition()
    public static let keepOnScreen = ResponseDisposition(outcome: .keepOnScreen)
    public static let dismiss = ResponseDisposition(outcome: .dismiss)
    public static let performDefaultAction = ResponseDisposition(outcome: .performDefaultAction)

    /// New buttons, keeping the notification on screen.
    public static func replaceActions(_ actions: [NotificationAction]) -> ResponseDisposition {
        ResponseDisposition(actions: .replace(actions), outcome: .keepOnScreen)
    }

    /// No buttons any more, keeping the notification on screen.
    public static let clearActions = ResponseDisposition(actions: .clear, outcome: .keepOnScreen)
}
