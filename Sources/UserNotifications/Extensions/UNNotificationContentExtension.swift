#if !canImport(Darwin)
public import Foundation

/// How a content extension wants its notification handled after a response (Apple's
/// `UNNotificationContentExtensionResponseOption`, same raw values).
public enum UNNotificationContentExtensionResponseOption: UInt, Sendable, Hashable {
    /// Keep the notification on screen (with the actions the extension set).
    case doNotDismiss = 0
    /// Dismiss the notification.
    case dismiss = 1
    /// Dismiss the notification and hand the response to the app's delegate.
    case dismissAndForwardAction = 2
}

/// A category's notification content extension: code that handles the category's action responses and
/// can change the notification's actions while it is shown (Apple's `UNNotificationContentExtension`).
///
/// On iOS the extension is a view controller in an app extension, named for its categories in the
/// extension's Info.plist. Chime has no custom notification UI, but keeps the logic: register a factory
/// with `UNUserNotificationCenter.registerContentExtension(forCategoryIdentifiers:_:)`, and port the view
/// controller by replacing `UIViewController` with `NSObject`:
///
/// ```swift
/// final class RatingExtension: NSObject, UNNotificationContentExtension {
///     func didReceive(_ notification: UNNotification) {}
///     func didReceive(_ response: UNNotificationResponse,
///                     completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
///         if response.actionIdentifier == "rate-action" {
///             extensionContext?.notificationActions = [oneStar, twoStars, threeStars]
///         }
///         completion(.doNotDismiss)
///     }
/// }
/// center.registerContentExtension(forCategoryIdentifiers: ["rating"]) { RatingExtension() }
/// ```
///
/// **How it maps onto iOS.**
/// - One extension object is made per delivered notification, when the first action response for it
///   arrives (on iOS, when the user expands the notification), and `didReceive(_ notification:)` is called
///   on it first. It lives while the notification stays on screen.
/// - Responses to the category's actions (and to actions the extension set) go to the extension's
///   `didReceive(_:completionHandler:)`; opening and dismissing go to the app's delegate, as on iOS.
/// - `extensionContext.notificationActions` starts as the notification's current actions; setting it
///   replaces them for this notification only (`[]` removes them) — the engine's
///   `ResponseDisposition.replace` / `.clear`.
/// - The completion option: `.doNotDismiss` keeps the notification on screen (`.keepOnScreen`),
///   `.dismiss` removes it (`.dismiss`), `.dismissAndForwardAction` hands the response to the app's delegate
///   and removes it. `extensionContext.performNotificationDefaultAction()` hands the app's delegate a
///   default-action response and opens the app (`.performDefaultAction`);
///   `dismissNotificationContentExtension()` removes the notification.
/// - When `didReceive` returns without having called its completion handler, the notification stays on
///   screen with the actions set so far. A later call of the completion handler, `dismiss…` or
///   `performNotificationDefaultAction()` still takes effect; actions set later do not (the engine applies
///   actions only in answer to a response).
///
/// Methods are called on the center's delegate queue, one at a time.
public protocol UNNotificationContentExtension: AnyObject {
    /// The extension is loaded for `notification`: set up its state (and actions) here.
    func didReceive(_ notification: UNNotification)

    /// The user chose one of the notification's actions.
    func didReceive(
        _ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void)
}

extension UNNotificationContentExtension {
    public func didReceive(_ notification: UNNotification) {}

    /// Without this method, iOS forwards action responses to the app: so does Chime.
    public func didReceive(
        _ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        completion(.dismissAndForwardAction)
    }

    /// The context of the notification this extension was loaded for (what `UIViewController.extensionContext`
    /// gives an iOS extension); `nil` before it is loaded.
    public var extensionContext: UNNotificationContentExtensionContext? {
        UNNotificationContentExtensionContext.context(of: self)
    }
}

/// What a content extension changes about its notification (the notification part of Apple's
/// `NSExtensionContext`, which Linux Foundation does not have).
///
/// Thread-safe; meant to be used from the extension's methods.
// @unchecked Sendable: every field sits behind `state`'s lock.
public final class UNNotificationContentExtensionContext: NSObject, @unchecked Sendable {
    struct State {
        var actions: [UNNotificationAction]
        /// The actions the engine shows now; a difference is applied with the next disposition.
        var appliedActions: [UNNotificationAction]
        var performsDefaultAction = false
        var dismisses = false
        /// Set once the extension's `didReceive` has returned: later requests are applied at once.
        var lateRequests: (@Sendable (LateRequest) -> Void)?
    }

    enum LateRequest {
        case dismiss, performDefaultAction
    }

    let state: Locked<State>

    init(actions: [UNNotificationAction]) {
        state = Locked(State(actions: actions, appliedActions: actions))
    }

    /// The notification's actions; setting them replaces the buttons for this notification.
    public var notificationActions: [UNNotificationAction] {
        get { state.withLock { $0.actions } }
        set { state.withLock { $0.actions = newValue } }
    }

    /// Opens the app as if the user had opened the notification: the app's delegate receives a response
    /// with `UNNotificationDefaultActionIdentifier`, and the notification is dismissed.
    public func performNotificationDefaultAction() {
        let late = state.withLock { state in
            state.performsDefaultAction = true
            return state.lateRequests
        }
        late?(.performDefaultAction)
    }

    /// Dismisses the notification.
    public func dismissNotificationContentExtension() {
        let late = state.withLock { state in
            state.dismisses = true
            return state.lateRequests
        }
        late?(.dismiss)
    }

    /// Media playback has no meaning without the extension's UI; kept so iOS code compiles.
    public func mediaPlayingStarted() {}

    /// Media playback has no meaning without the extension's UI; kept so iOS code compiles.
    public func mediaPlayingPaused() {}

    // MARK: The extension ↔ context registry

    private struct Entry {
        weak var owner: AnyObject?
        let context: UNNotificationContentExtensionContext
    }

    private static let registry = Locked<[ObjectIdentifier: Entry]>([:])

    static func context(of owner: AnyObject) -> UNNotificationContentExtensionContext? {
        registry.withLock { registry in
            guard let entry = registry[ObjectIdentifier(owner)], entry.owner === owner else { return nil }
            return entry.context
        }
    }

    static func attach(_ context: UNNotificationContentExtensionContext, to owner: AnyObject) {
        registry.withLock { registry in
            registry = registry.filter { $0.value.owner != nil }
            registry[ObjectIdentifier(owner)] = Entry(owner: owner, context: context)
        }
    }

    static func detach(from owner: AnyObject) {
        registry.withLock { registry in registry[ObjectIdentifier(owner)] = nil }
    }
}
#endif
