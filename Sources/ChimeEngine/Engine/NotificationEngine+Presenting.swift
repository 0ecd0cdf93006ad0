import ChimeCore
import Foundation

extension NotificationEngine {
    /// Decides how a recorded delivery is presented and hands it to the presenter; a foreground app's goes
    /// to that app's lane, to be presented once the app answered `willPresent` (or timed out), without
    /// holding anything else back. Failures are logged: the delivery itself is already recorded.
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
            if foregroundDelegates[appIdentifier]?.delegate != nil {
                askForeground(appIdentifier, notification)
                continue
            }
            let threadCount = state.threadCounts[notification.request.content.threadIdentifier] ?? 0
            await show(notification, app: state.app, threadCount: threadCount, foregroundOptions: nil)
        }
    }

    private func show(_ notification: DeliveredNotification, app: AppRecord, threadCount: Int, foregroundOptions: PresentationOptions?) async {
        let context = PresentationContext(
            notification: notification, app: app, environment: environment, foregroundOptions: foregroundOptions,
            threadCount: max(1, threadCount), localizer: localizers[app.appIdentifier] ?? NotificationLocalizer(tables: [:]))
        await presenter.present(PresentationPolicy().presentation(for: context))
    }

    /// Queues a notification of a foreground app behind the app's earlier ones, and starts the app's lane
    /// when it is idle. Each foreground app has a lane of its own, so the scheduler and the other apps
    /// never wait for an app's `willPresent` answer: a slow or stopped app delays only its own
    /// notifications, in their order.
    private func askForeground(_ appIdentifier: String, _ notification: DeliveredNotification) {
        foregroundLanes[appIdentifier, default: []].append(notification)
        guard foregroundLanes[appIdentifier]?.count == 1 else { return }
        Task { await self.drainForegroundLane(appIdentifier) }
    }

    /// Asks the app about each queued notification in turn, then presents it with the app's record and
    /// thread count as they are then.
    private func drainForegroundLane(_ appIdentifier: String) async {
        while let notification = foregroundLanes[appIdentifier]?.first {
            let options = await foregroundDelegates[appIdentifier]?.delegate?.willPresent(notification)
            do {
                let thread = notification.request.content.threadIdentifier
                let app = try await appRecord(appIdentifier)
                let threadCount = try await store.deliveredCounts(appIdentifier: appIdentifier, threadIdentifiers: [thread])[thread] ?? 0
                await show(notification, app: app, threadCount: threadCount, foregroundOptions: options)
            } catch {
                log.warning("notification \(appIdentifier)/\(notification.identifier) was recorded but not presented: \(error)")
            }
            foregroundLanes[appIdentifier]?.removeFirst()
        }
        foregroundLanes[appIdentifier] = nil
    }
}
