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

    /// Presents one delivery. The delivered list is Notification Center's, as on Apple: a presentation
    /// without `.list` (a foreground app's `willPresent` left it out, or the user's settings keep the app
    /// out of the list) takes the notification out of it before it shows; the fire stays recorded, and
    /// the banner's buttons still reach the app while it is up (`unlisted`).
    private func show(_ notification: DeliveredNotification, app: AppRecord, threadCount: Int, foregroundOptions: PresentationOptions?) async {
        let appIdentifier = app.appIdentifier
        let context = PresentationContext(
            notification: notification, app: app, environment: environment, foregroundOptions: foregroundOptions,
            threadCount: max(1, threadCount), localizer: localizers[appIdentifier] ?? NotificationLocalizer(tables: [:]))
        let presentation = PresentationPolicy().presentation(for: context)
        if presentation.destinations.contains(.list) {
            unlisted.remove(appIdentifier: appIdentifier, identifiers: [notification.identifier])
        } else {
            do {
                try await store.removeDelivered(appIdentifier: appIdentifier, identifiers: [notification.identifier])
            } catch {
                log.warning("notification \(appIdentifier)/\(notification.identifier) is not for the list but could not be taken out of it: \(error)")
            }
            if let evicted = unlisted.insert(notification, appIdentifier: appIdentifier) {
                try? await removeAttachmentsNoLongerUsed(appIdentifier: appIdentifier, identifiers: [evicted])
            }
        }
        await presenter.present(presentation)
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
