#if !canImport(Darwin)
import ChimeClient
import ChimeCore
import ChimeEngine
import ChimeIPC
import Foundation

/// A center's operations on `chimed` (client mode): one connection for the app's requests, and, while the
/// app has a delegate or a content extension, a subscribed connection that brings its events.
///
/// Events go to the same `DelegateBridge` the embedded engine calls, so delegates and content extensions
/// behave alike in both modes: `willPresent` is answered with the delegate's options; a response is
/// handed to the delegate (or the extension) and acknowledged once its completion handler was called,
/// with the disposition it decided, which the daemon applies (replaced or cleared buttons, kept on screen,
/// dismissed). Responses are handled one at a time, in the order the daemon sent them. A response the
/// daemon replays (queued while the app was not connected, or sent again on a new subscription) reaches
/// the delegate once per process.
///
/// Attachments: `add` sends the file's path; the daemon, on the same machine and as the same user, moves
/// the file into its own store as the embedded engine would, so the app sees the same result (the file
/// gone from where it was, the request pointing into the store).
///
/// If the daemon goes away, calls fail with `IPCError.notConnected`; the center does not reconnect.
final class DaemonCenter: CenterService {
    private struct Subscription {
        let client: DaemonClient
        let isForeground: Bool
        let listener: Task<Void, Never>

        func close() {
            listener.cancel()
            client.close()
        }
    }

    let appIdentifier: String
    let paths: DaemonPaths
    let log: any EngineLog
    let client: DaemonClient
    private let subscription = Locked<Subscription?>(nil)
    /// Deliveries already handed to the delegate (or being handled), so a replay does not repeat them.
    private let handled = Locked<Set<String>>([])

    private init(appIdentifier: String, paths: DaemonPaths, log: any EngineLog, client: DaemonClient) {
        self.appIdentifier = appIdentifier
        self.paths = paths
        self.log = log
        self.client = client
    }

    deinit {
        subscription.withLock { $0?.close() }
        client.close()
    }

    /// Connects to the daemon at `paths` for `appIdentifier` and says hello.
    ///
    /// - Throws: `IPCError.notConnected` when no daemon answers, `.unauthenticated` when the token is refused.
    static func connect(appIdentifier: String, paths: DaemonPaths, log: any EngineLog) async throws -> DaemonCenter {
        let client = try await DaemonClient.connect(appIdentifier: appIdentifier, paths: paths)
        return DaemonCenter(appIdentifier: appIdentifier, paths: paths, log: log, client: client)
    }

    // MARK: Delegate and events

    func setDelegate(_ delegate: (any NotificationCenterDelegate)?, isForeground: Bool) async throws {
        guard let delegate else {
            subscription.withLock { subscription in
                subscription?.close()
                subscription = nil
            }
            return
        }
        if subscription.withLock({ $0?.isForeground == isForeground }) { return }
        // The new subscription replaces the old one in the daemon before the old one closes, so no event
        // falls between them; what both carry is handled once (`handled`).
        let subscribed = try await DaemonClient.connect(
            appIdentifier: appIdentifier, subscribe: true, foreground: isForeground, decidesResponses: true, paths: paths)
        let listener = Task { [weak self, weak delegate] in
            for await event in subscribed.events {
                guard let self else { return }
                await self.handle(event, from: subscribed, delegate: delegate)
            }
        }
        let previous = subscription.withLock { subscription in
            defer { subscription = Subscription(client: subscribed, isForeground: isForeground, listener: listener) }
            return subscription
        }
        previous?.close()
    }

    private func handle(_ event: DaemonEvent, from connection: DaemonClient, delegate: (any NotificationCenterDelegate)?) async {
        switch event {
        case .willPresent(let question):
            // Not in line behind a response handler that takes its time: the daemon waits for this answer.
            Task {
                let options = await delegate?.willPresent(question.notification) ?? []
                connection.answer(question, options: options)
            }
        case .response(let event):
            guard let delegate else { return }  // stays queued in the daemon for the next subscription
            guard handled.withLock({ $0.insert(event.delivery).inserted }) else { return }
            let disposition = await delegate.didReceive(event.response)
            await acknowledge(event, disposition: WireDisposition(disposition), on: connection)
        }
    }

    /// Acknowledges on the connection that brought the event; if it closed meanwhile (a new subscription
    /// replaced it), on the request connection, so the daemon does not replay the response again.
    private func acknowledge(_ event: ResponseEvent, disposition: WireDisposition, on connection: DaemonClient) async {
        do {
            try await connection.acknowledge(event, disposition: disposition)
        } catch let error as IPCError where error.ipcCode == .notConnected {
            do {
                try await client.acknowledge(event, disposition: disposition)
            } catch {
                log.warning("UserNotifications: the response to notification \(event.response.notification.identifier) was not acknowledged: \(error)")
            }
        } catch {
            log.warning("UserNotifications: the response to notification \(event.response.notification.identifier) was not acknowledged: \(error)")
        }
    }

    // MARK: Operations

    func requestAuthorization(options: AuthorizationOptions) async throws -> Bool {
        try await client.requestAuthorization(options: options)
    }

    func notificationSettings() async throws -> NotificationSettings {
        try await client.notificationSettings()
    }

    func setNotificationCategories(_ categories: [NotificationCategory]) async throws {
        try await client.setCategories(categories)
    }

    func notificationCategories() async throws -> [NotificationCategory] {
        try await client.categories()
    }

    func setBadgeCount(_ count: Int) async throws {
        try await client.setBadgeCount(count)
    }

    func add(_ request: NotificationRequest) async throws {
        try await client.add([request])
    }

    func pendingNotificationRequests() async throws -> [NotificationRequest] {
        try await client.pendingRequests().map(\.request)
    }

    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
        try await client.removePending(identifiers)
    }

    func removeAllPendingNotificationRequests() async throws {
        try await client.removePending(nil)
    }

    func deliveredNotifications() async throws -> [DeliveredNotification] {
        try await client.deliveredNotifications().map(\.notification)
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws {
        try await client.removeDelivered(identifiers)
    }

    func removeAllDeliveredNotifications() async throws {
        try await client.removeDelivered(nil)
    }
}

extension WireDisposition {
    /// The engine's disposition as the acknowledgment carries it.
    init(_ disposition: ResponseDisposition) {
        let actions: [NotificationAction]? =
            switch disposition.actions {
            case .keep: nil
            case .replace(let actions): actions
            case .clear: []
            }
        let outcome: Outcome =
            switch disposition.outcome {
            case .standard: .standard
            case .keepOnScreen: .keepOnScreen
            case .dismiss: .dismiss
            case .performDefaultAction: .performDefaultAction
            }
        self.init(actions: actions, outcome: outcome)
    }
}
#endif
