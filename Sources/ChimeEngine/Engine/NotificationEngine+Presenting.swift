import ChimeCore
import Foundation
import Synchronization

extension NotificationEngine {
    /// Decides how a recorded delivery is presented and hands it to the presenter; a foreground app's goes
    /// to that app's lane, to be presented once the app answered `willPresent` (or timed out), without
    /// holding anything else back. Failures are logged: the delivery itself is already recorded.
    func present(_ notification: DeliveredNotification, appIdentifier: String) async {
        await present([(appIdentifier, notification)])
    }

    /// Presents deliveries recorded together, in order.
    func present(_ batch: [(appIdentifier: String, notification: DeliveredNotification)]) async {
        for (appIdentifier, notification, state) in await presentationStates(batch) {
            guard let state else { continue }
            await present(notification, appIdentifier: appIdentifier, app: state.app, threadCount: state.threadCount)
        }
    }

    /// What presenting each delivery of a batch recorded together needs: its app's record and the size of
    /// the stack it joins; `nil` (and a warning) when they could not be read.
    ///
    /// Each app's record and its threads' counts are read once for the batch, after the batch was
    /// recorded — what each presentation of the batch would read on its own — so a burst of fires costs
    /// two reads per app rather than two per notification.
    func presentationStates(_ batch: [(appIdentifier: String, notification: DeliveredNotification)]) async
        -> [(appIdentifier: String, notification: DeliveredNotification, state: (app: AppRecord, threadCount: Int)?)]
    {
        var threadsByApp: [String: Set<String>] = [:]
        for (appIdentifier, notification) in batch {
            threadsByApp[appIdentifier, default: []].insert(notification.request.content.threadIdentifier)
        }
        var states: [String: (app: AppRecord, threadCounts: [String: Int])] = [:]
        for (appIdentifier, threads) in threadsByApp {
            do {
                let app = try await appRecord(appIdentifier)
                states[appIdentifier] = (app, try await stackCounts(app, threads: threads))
            } catch {
                for (_, notification) in batch.lazy.filter({ $0.appIdentifier == appIdentifier }) {
                    log.warning("notification \(appIdentifier)/\(notification.identifier) was recorded but not presented: \(error)")
                }
            }
        }
        return batch.map { appIdentifier, notification in
            let state = states[appIdentifier].map { state in
                (state.app, Self.stackCount(notification, in: state.threadCounts, grouping: state.app.settings.groupingSetting))
            }
            return (appIdentifier, notification, state)
        }
    }

    /// Presents one recorded delivery with the state read for it: a foreground app's goes to its lane.
    func present(_ notification: DeliveredNotification, appIdentifier: String, app: AppRecord, threadCount: Int) async {
        if foregroundDelegates[appIdentifier]?.delegate != nil {
            askForeground(appIdentifier, notification)
        } else {
            await show(notification, app: app, threadCount: threadCount, foregroundOptions: nil)
        }
    }

    /// How many delivered notifications each of `threads` stacks, by the app's grouping setting: per thread
    /// (automatic), the app's whole list under `""` (by app), nothing to count (off).
    func stackCounts(_ app: AppRecord, threads: Set<String>) async throws -> [String: Int] {
        switch app.settings.groupingSetting {
        case .automatic: try await store.deliveredCounts(appIdentifier: app.appIdentifier, threadIdentifiers: threads)
        case .byApp: ["": try await store.deliveredTotal(appIdentifier: app.appIdentifier)]
        case .off: [:]
        }
    }

    /// The size of the stack `notification` joins, from `stackCounts`.
    static func stackCount(_ notification: DeliveredNotification, in counts: [String: Int], grouping: NotificationGrouping) -> Int {
        guard let key = grouping.groupKey(threadIdentifier: notification.request.content.threadIdentifier) else { return 1 }
        return counts[key] ?? 0
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
            var options: PresentationOptions?
            if let delegate = foregroundDelegates[appIdentifier]?.delegate {
                options = await askWillPresent(delegate, notification, appIdentifier: appIdentifier)
            }
            do {
                let app = try await appRecord(appIdentifier)
                let counts = try await stackCounts(app, threads: [notification.request.content.threadIdentifier])
                let threadCount = Self.stackCount(notification, in: counts, grouping: app.settings.groupingSetting)
                await show(notification, app: app, threadCount: threadCount, foregroundOptions: options)
            } catch {
                log.warning("notification \(appIdentifier)/\(notification.identifier) was recorded but not presented: \(error)")
            }
            foregroundLanes[appIdentifier]?.removeFirst()
        }
        foregroundLanes[appIdentifier] = nil
    }

    /// The delegate's answer, or `nil` (the system presents) when it does not come within
    /// `willPresentTimeout` on the engine's clock, or the app stopped answering before.
    private func askWillPresent(_ delegate: any NotificationCenterDelegate, _ notification: DeliveredNotification, appIdentifier: String) async
        -> PresentationOptions?
    {
        guard unansweredWillPresent[appIdentifier, default: 0] < configuration.unansweredWillPresentLimit else { return nil }
        let timeout = configuration.willPresentTimeout
        let deadline = clock.now.addingTimeInterval(timeout)
        let options = await Self.firstAnswer(of: delegate, to: notification, clock: clock, deadline: deadline) { [weak self] in
            await self?.willPresentAnsweredLate(appIdentifier)
        }
        if options == nil {
            unansweredWillPresent[appIdentifier, default: 0] += 1
            log.warning("\(appIdentifier) did not answer how to present \(notification.identifier) within \(timeout) s; the system presents it")
        } else {
            unansweredWillPresent[appIdentifier] = nil
        }
        return options
    }

    private func willPresentAnsweredLate(_ appIdentifier: String) {
        unansweredWillPresent[appIdentifier] = nil
    }

    /// Races the delegate's answer against `deadline` on `clock`; calls `late` when the answer comes after
    /// it. The question itself is not cancelled (a delegate may not heed it); its answer is dropped.
    private nonisolated static func firstAnswer(
        of delegate: any NotificationCenterDelegate, to notification: DeliveredNotification, clock: any NotificationClock, deadline: Date,
        late: @escaping @Sendable () async -> Void
    ) async -> PresentationOptions? {
        let settled = SettledFlag()
        return await withCheckedContinuation { continuation in
            let timer = Task {
                do { try await clock.sleep(until: deadline) } catch { return }
                if settled.settle() { continuation.resume(returning: nil) }
            }
            Task {
                let options = await delegate.willPresent(notification)
                timer.cancel()
                if settled.settle() {
                    continuation.resume(returning: options)
                } else {
                    await late()
                }
            }
        }
    }
}

/// True for the first caller of `settle()` only.
private final class SettledFlag: Sendable {
    private let settled = Mutex(false)

    func settle() -> Bool {
        settled.withLock { settled in
            defer { settled = true }
            return !settled
        }
    }
}
