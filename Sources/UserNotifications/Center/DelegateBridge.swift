#if !canImport(Darwin)
import ChimeCore
import ChimeEngine
import Foundation

/// The engine's delegate for one `UNUserNotificationCenter`: turns the engine's calls into the app's
/// `UNUserNotificationCenterDelegate` and content-extension calls, and their answers into
/// `PresentationOptions` and `ResponseDisposition`.
///
/// The center owns it; the engine holds it weakly, as it holds every delegate.
// @unchecked Sendable: `center` is set once, in the center's initializer, before the bridge is shared.
final class DelegateBridge: NotificationCenterDelegate, @unchecked Sendable {
    weak var center: UNUserNotificationCenter?

    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions {
        guard let center else { return [] }
        return await center.askDelegateToPresent(notification).chime
    }

    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        guard let center else { return .standard }
        return await center.route(response)
    }

    func openSettings(for notification: DeliveredNotification?) async {
        await center?.tellDelegateToOpenSettings(for: notification)
    }
}

extension UNUserNotificationCenter {
    /// Asks the delegate's `willPresent` (completion-handler form) and waits for its answer.
    func askDelegateToPresent(_ delivered: DeliveredNotification) async -> UNNotificationPresentationOptions {
        guard let delegate else { return [] }
        let call = Unchecked(delegate)
        let notification = UNNotification(delivered, clock: clock)
        return await withCheckedContinuation { continuation in
            let once = OnceContinuation(continuation)
            onDelegateQueue {
                call.value.userNotificationCenter(self, willPresent: notification) { options in
                    once.resume(returning: options)
                }
            }
        }
    }

    /// Hands `response` to the delegate's `didReceive` (completion-handler form) and waits until it
    /// completes; returns at once without a delegate.
    func tellDelegate(_ response: UNNotificationResponse) async {
        guard let delegate else { return }
        let call = Unchecked(delegate)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = OnceContinuation(continuation)
            onDelegateQueue {
                call.value.userNotificationCenter(self, didReceive: response) {
                    once.resume(returning: ())
                }
            }
        }
    }

    func tellDelegateToOpenSettings(for delivered: DeliveredNotification?) async {
        guard let delegate else { return }
        let call = Unchecked(delegate)
        let notification = delivered.map { UNNotification($0, clock: clock) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onDelegateQueue {
                call.value.userNotificationCenter(self, openSettingsFor: notification)
                continuation.resume()
            }
        }
    }

    /// Routes a response: actions of a category with a content extension go to the extension, everything
    /// else to the delegate with the standard disposition.
    func route(_ response: NotificationResponse) async -> ResponseDisposition {
        let unResponse = UNNotificationResponse.make(response, clock: clock)
        let category = response.notification.request.content.categoryIdentifier
        let factory = state.withLock { $0.extensionFactories[category] }
        if let factory, !response.isDefaultAction, !response.isDismissAction {
            return await routeToExtension(unResponse, delivered: response.notification, factory: factory)
        }
        await tellDelegate(unResponse)
        return .standard
    }
}
#endif
