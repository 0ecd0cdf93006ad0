#if !canImport(Darwin)
import ChimeClient
import ChimeCore
import ChimeEngine
import ChimeAPI
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
/// If the daemon goes away (chimed restarts), the next call connects again and is retried once — every
/// operation is idempotent (an add replaces by identifier, removals and settings are absolute), so a
/// request the old daemon may already have applied does not apply twice — and the subscription connects
/// again by itself, waiting longer between tries (up to 5 s) while no daemon answers; the daemon then
/// replays the responses the app has not acknowledged. Calls fail with `APIError.notConnected` only while
/// no daemon answers at all.
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
    /// The connection for the app's requests, replaced when the daemon restarts.
    private let requests: Locked<DaemonClient>
    private let subscription = Locked<Subscription?>(nil)
    /// Deliveries already handed to the delegate (or being handled), so a replay does not repeat them.
    private let handled = Locked<Set<String>>([])

    private init(appIdentifier: String, paths: DaemonPaths, log: any EngineLog, client: DaemonClient) {
        self.appIdentifier = appIdentifier
        self.paths = paths
        self.log = log
        self.requests = Locked(client)
    }

    deinit {
        subscription.withLock { $0?.close() }
        requests.withLock { $0 }.close()
    }

    /// Runs `body` on the request connection, connecting again once if the daemon went away.
    private func call<T: Sendable>(_ body: @Sendable (DaemonClient) async throws -> T) async throws -> T {
        let current = requests.withLock { $0 }
        do {
            return try await body(current)
        } catch let error as APIError where error.apiCode == .notConnected || error.apiCode == .unauthenticated {
            // The daemon went away, or another one answers now with a token of its own.
            let fresh = try await DaemonClient.connect(appIdentifier: appIdentifier, paths: paths)
            requests.withLock { $0 = fresh }
            current.close()
            log.debug("UserNotifications: \(appIdentifier) connected to chimed again")
            return try await body(fresh)
        }
    }

    /// Connects to the daemon at `paths` for `appIdentifier` and says hello.
    ///
    /// - Throws: `APIError.notConnected` when no daemon answers, `.unauthenticated` when the token is refused.
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
        try await subscribe(delegate, isForeground: isForeground)
    }

    /// Opens a subscribed connection and makes it the subscription. The new one replaces the old one in
    /// the daemon before the old one closes, so no event falls between them; what both carry is handled
    /// once (`handled`).
    private func subscribe(_ delegate: any NotificationCenterDelegate, isForeground: Bool) async throws {
        let subscribed = try await DaemonClient.connect(
            appIdentifier: appIdentifier, subscribe: true, foreground: isForeground, decidesResponses: true, paths: paths)
        let listener = Task { [weak self, weak delegate] in
            var replaced = false
            for await event in subscribed.events {
                guard let self else { return }
                if case .replaced = event {
                    replaced = true
                    continue
                }
                await self.handle(event, from: subscribed, delegate: delegate)
            }
            // The events ended: closed by this center (the task is cancelled), replaced by a newer stream
            // of this app (this center's own, or another process's: taking it back would make the two
            // take turns), or the daemon went away.
            guard !Task.isCancelled, let self, let delegate else { return }
            if replaced {
                self.log.debug("UserNotifications: a newer connection of \(self.appIdentifier) took its events from chimed")
                return
            }
            await self.resubscribe(delegate, isForeground: isForeground, replacing: subscribed)
        }
        let previous = subscription.withLock { subscription in
            defer { subscription = Subscription(client: subscribed, isForeground: isForeground, listener: listener) }
            return subscription
        }
        previous?.close()
    }

    /// Subscribes again after the daemon went away, until one answers, while `lost` is still the
    /// subscription (the app may have removed its delegate or changed its foreground state meanwhile).
    private func resubscribe(_ delegate: any NotificationCenterDelegate, isForeground: Bool, replacing lost: DaemonClient) async {
        var pause = Duration.milliseconds(200)
        while !Task.isCancelled, subscription.withLock({ $0?.client === lost }) {
            do {
                try await subscribe(delegate, isForeground: isForeground)
                log.debug("UserNotifications: \(appIdentifier) subscribed to chimed again")
                return
            } catch {
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    private func handle(_ event: DaemonEvent, from connection: DaemonClient, delegate: (any NotificationCenterDelegate)?) async {
        switch event {
        case .replaced:
            break
        case .willPresent(let question):
            // Not in line behind a response handler that takes its time: the daemon waits for this answer.
            Task {
                let options = await delegate?.willPresent(question.notification) ?? []
                await connection.answer(question, options: options)
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
        } catch let error as APIError where error.apiCode == .notConnected {
            do {
                try await call { try await $0.acknowledge(event, disposition: disposition) }
            } catch {
                log.warning("UserNotifications: the response to notification \(event.response.notification.identifier) was not acknowledged: \(error)")
            }
        } catch {
            log.warning("UserNotifications: the response to notification \(event.response.notification.identifier) was not acknowledged: \(error)")
        }
    }

    // MARK: Operations

    func requestAuthorization(options: AuthorizationOptions) async throws -> Bool {
        // chimed answers at once unless it asks the user, on the desktop, which may be out of sight: an app
        // run from a terminal would then look frozen, so say what it waits for and where to answer.
        let notice = Task { [log, appIdentifier] in
            try await Task.sleep(for: Self.waitingNoticeDelay)
            log.info(
                "UserNotifications: waiting for your answer: may \(appIdentifier) show notifications? Answer the question on your desktop "
                    + "or in the web center ('chime web'), "
                    + "or run 'chime apps allow \(appIdentifier)' (or deny) in another terminal")
        }
        defer { notice.cancel() }
        return try await call { try await $0.requestAuthorization(options: options) }
    }

    /// How long an authorization request waits for chimed before the app says it waits for the user.
    static let waitingNoticeDelay: Duration = .milliseconds(500)

    func notificationSettings() async throws -> NotificationSettings {
        try await call { try await $0.notificationSettings() }
    }

    func setNotificationCategories(_ categories: [NotificationCategory]) async throws {
        try await call { try await $0.setCategories(categories) }
    }

    func notificationCategories() async throws -> [NotificationCategory] {
        try await call { try await $0.categories() }
    }

    func setBadgeCount(_ count: Int) async throws {
        try await call { try await $0.setBadgeCount(count) }
    }

    func add(_ request: NotificationRequest) async throws {
        _ = try await call { try await $0.add([request]) }
    }

    func pendingNotificationRequests() async throws -> [NotificationRequest] {
        try await call { try await $0.pendingRequests().map(\.request) }
    }

    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
        _ = try await call { try await $0.removePending(identifiers) }
    }

    func removeAllPendingNotificationRequests() async throws {
        _ = try await call { try await $0.removePending(nil) }
    }

    func deliveredNotifications() async throws -> [DeliveredNotification] {
        try await call { try await $0.deliveredNotifications().map(\.notification) }
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws {
        _ = try await call { try await $0.removeDelivered(identifiers) }
    }

    func removeAllDeliveredNotifications() async throws {
        _ = try await call { try await $0.removeDelivered(nil) }
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
