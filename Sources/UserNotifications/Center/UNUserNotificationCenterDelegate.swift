#if !canImport(Darwin)
public import Foundation

/// What an app implements to take part in its notifications (Apple's `UNUserNotificationCenterDelegate`).
///
/// Every method is optional, as on Apple. Implement each callback in *one* form, completion handler or
/// `async`:
///
/// ```swift
/// extension AppDelegate: UNUserNotificationCenterDelegate {
///     func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
///                                 withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
///         completionHandler([.banner, .sound])
///     }
///     func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
///         if response.actionIdentifier == "snooze" { await snooze() }
///     }
/// }
/// ```
///
/// **Which form is called.** The center calls the completion-handler form, as Apple does. Its default
/// implementation calls the `async` form in a new task and completes with its result; the default `async`
/// form answers what Apple does for a method an app does not implement: `willPresent` presents nothing
/// (`[]`), `didReceive` does nothing. So an app may implement either form; when it implements both, the
/// completion-handler form wins and the `async` one is never called. A method whose signature does not
/// match exactly is a different method and is not called — the compiler warns that it "nearly matches".
///
/// **Threads.** Delegate methods are called on the center's delegate queue, a serial background queue,
/// not on the main thread: a Linux process need not run a main loop. (An `@MainActor` delegate's `async`
/// methods do hop to the main actor, so that process must run one — `dispatchMain()`, or an async `main`.)
/// Inside a callback, `UNUserNotificationCenter.current()` is the center that called.
///
/// **Completion handlers.** Call each exactly once. A second call is ignored. Until `willPresent`'s
/// handler is called, that notification's presentation waits; until `didReceive`'s is, the engine counts
/// the response as unfinished and logs it after its timeout (30 s by default).
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// A notification arrives while the app is in the foreground: choose how it is presented.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)

    /// The `async` form of `userNotificationCenter(_:willPresent:withCompletionHandler:)`.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions

    /// The user responded to a notification: opened it, dismissed it (with `.customDismissAction`), chose an
    /// action or sent text.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void)

    /// The `async` form of `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async

    /// The user asked for the app's own notification settings (the app asked for
    /// `.providesAppNotificationSettings`); `notification` is the one they came from, if any.
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        let call = Unchecked((self as any UNUserNotificationCenterDelegate, center, notification))
        Task {
            let (delegate, center, notification) = call.value
            completionHandler(await delegate.userNotificationCenter(center, willPresent: notification))
        }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        []
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        let call = Unchecked((self as any UNUserNotificationCenterDelegate, center, response))
        Task {
            let (delegate, center, response) = call.value
            await delegate.userNotificationCenter(center, didReceive: response)
            completionHandler()
        }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}

    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {}
}
#endif
