import ChimeCore
import Foundation

extension NotificationEngine {
    /// Decides how a recorded delivery is presented — asking the app when it is in the foreground — and
    /// hands it to the presenter. Failures are logged: the delivery itself is already recorded.
    func present(_ notification: DeliveredNotification, appIdentifier: String) async {
        do {
            let app = try await appRecord(appIdentifier)
            var foregroundOptions: PresentationOptions?
            if let delegate = foregroundDelegates[appIdentifier]?.delegate {
                foregroundOptions = await delegate.willPresent(notification)
            }
            let threadCount = try await store.deliveredCount(
                appIdentifier: appIdentifier, threadIdentifier: notification.request.content.threadIdentifier)
            let context = PresentationContext(
                notification: notification, app: app, environment: environment, foregroundOptions: foregroundOptions,
                threadCount: max(1, threadCount), localizer: localizers[appIdentifier] ?? NotificationLocalizer(tables: [:]))
            await presenter.present(PresentationPolicy().presentation(for: context))
        } catch {
            log.warning("notification \(appIdentifier)/\(notification.identifier) was recorded but not presented: \(error)")
        }
    }
}
