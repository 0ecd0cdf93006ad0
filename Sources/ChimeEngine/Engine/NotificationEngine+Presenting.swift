import ChimeCore
import Foundation

extension NotificationEngine {
    /// Decides how a recorded delivery is presented — asking the app when it is in the foreground — and
    /// hands it to the presenter. Failures are logged: the delivery itself is already recorded.
    func present(_ notification: DeliveredNotification, appIdentifier: String) async {
        await present([(appIdentifier, notification)])
    }

    /// Presents deliveries recorded together, in order.
    ///
    /// Each app's record and its threads' counts are read once for the batch, after the batch was
    /// recorded — what each presentation of the batch would read on its own — so a burst of fires costs
    /// two reads per app rather than two per notification.
    func present(_ batch: [(appIdentifier: String, notification: DeliveredNotification)]) async {
        var threadsByApp: [String: Set<String>] = [:]
        for (appIdentifier, notification) in batch {
            threadsByApp[appIdentifier, default: []].insert(notification.request.content.threadIdentifier)
        }
        var states: [String: (app: AppRecord, threadCounts: [String: Int])] = [:]
        for (appIdentifier, threads) in threadsByApp {
            do {
                states[appIdentifier] = (
                    try await appRecord(appIdentifier),
                    try await store.deliveredCounts(appIdentifier: appIdentifier, threadIdentifiers: threads))
            } catch {
                for (_, notification) in batch.lazy.filter({ $0.appIdentifier == appIdentifier }) {
                    log.warning("notification \(appIdentifier)/\(notification.identifier) was recorded but not presented: \(error)")
                }
            }
        }
        for (appIdentifier, notification) in batch {
            guard let state = states[appIdentifier] else { continue }
            var foregroundOptions: PresentationOptions?
            if let delegate = foregroundDelegates[appIdentifier]?.delegate {
                foregroundOptions = await delegate.willPresent(notification)
            }
            let threadCount = state.threadCounts[notification.request.content.threadIdentifier] ?? 0
            let context = PresentationContext(
                notification: notification, app: state.app, environment: environment, foregroundOptions: foregroundOptions,
                threadCount: max(1, threadCount), localizer: localizers[appIdentifier] ?? NotificationLocalizer(tables: [:]))
            await presenter.present(PresentationPolicy().presentation(for: context))
        }
    }
}
