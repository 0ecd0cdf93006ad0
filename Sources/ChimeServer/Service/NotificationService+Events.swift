public import ChimeAPI
import ChimeCore
import ChimeEngine
import Foundation
import Synchronization

extension NotificationService {
    /// Opens an app's event stream: while it is open the app is connected, and responses reach it live.
    ///
    /// A stream that does not resume from its `Last-Event-ID` starts with the app's queued responses,
    /// oldest first (at most `replayBatch`; the rest follow as the app acknowledges them). Responses are
    /// sent at least once: a response queued while the stream opens may come twice, and apps recognise
    /// responses by their delivery identifier.
    ///
    /// - Parameters:
    ///   - foreground: The app is in the foreground: it is asked how to present its notifications.
    ///   - decidesResponses: The app acknowledges each live response with its decision, and the engine
    ///     waits for it (within the timeout) before applying it.
    /// - Throws: `APIError.tooManyRequests` when the daemon holds as many streams as it allows.
    public func openAppStream(_ app: String, foreground: Bool, decidesResponses: Bool, lastEventID: String?) async throws -> EventHub.Subscription {
        try note(app)
        let batch = configuration.replayBatch
        let queued = try await queue.entries(app: app, limit: batch)
        let initial: [(EventKind, any Encodable & Sendable)] = queued.map { (.response, Self.event($0)) }
        let subscription = try events.subscribe(.app(app), lastEventID: lastEventID, initial: initial) { [weak self] id in
            guard let self else { return }
            Task { await self.appStreamClosed(app, stream: id) }
        }
        if !subscription.resumed && queued.count == batch { replaying.withLock { $0[app] = Set(queued.map(\.delivery)) } }
        presence.opened(AppPresence.Stream(id: subscription.id, foreground: foreground, decidesResponses: decidesResponses), app: app)
        // One connection speaks for an app: a newer one replaces the others, which are told so.
        let replaced = events.end(.app(app), except: subscription.id, with: .replaced, ReplacedEvent(app: app))
        if replaced > 0 { log.info("\(app) opened a new event stream; the \(replaced == 1 ? "older one was" : "\(replaced) older ones were") told it was replaced and closed") }
        let bridge = bridges.withLock { bridges in
            if let bridge = bridges[app] { return bridge }
            let bridge = AppBridge(app: app, service: self)
            bridges[app] = bridge
            return bridge
        }
        await engine.setDelegate(bridge, for: app, isForeground: foreground)
        statusCache.invalidate()
        log.info("\(app) connected\(foreground ? " in the foreground" : "")")
        if !subscription.resumed {
            // A response queued between the read above and the subscription was published to no stream.
            let sent = Set(queued.map(\.delivery))
            for entry in try await queue.entries(app: app, limit: batch) where !sent.contains(entry.delivery) {
                events.publish(.response, Self.event(entry), to: .app(app))
            }
            if !queued.isEmpty { log.info("replaying \(queued.count) queued response(s) to \(app)") }
        }
        return subscription
    }

    /// Opens the stream of every app's list changes (pages). A stream that cannot resume from its
    /// `Last-Event-ID` starts with `reset`.
    public func openListStream(lastEventID: String?) throws(APIError) -> EventHub.Subscription {
        let initial: [(EventKind, any Encodable & Sendable)] = lastEventID == nil ? [] : [(.reset, ResetEvent())]
        let subscription = try events.subscribe(.lists, lastEventID: lastEventID, initial: initial) { _ in }
        statusCache.invalidate()
        return subscription
    }

    /// After an acknowledgment: once the app has acknowledged a whole replayed batch, the next one, so a
    /// long queue goes out a batch at a time.
    func replayMore(to app: String, acknowledged delivery: String) async {
        let caughtUp = replaying.withLock { replaying -> Bool in
            guard replaying[app]?.remove(delivery) != nil else { return false }
            return replaying[app]?.isEmpty ?? false
        }
        guard caughtUp, presence.current(app) != nil else { return }
        let entries = (try? await queue.entries(app: app, limit: configuration.replayBatch)) ?? []
        replaying.withLock { $0[app] = entries.count == configuration.replayBatch ? Set(entries.map(\.delivery)) : nil }
        for entry in entries { events.publish(.response, Self.event(entry), to: .app(app)) }
    }

    private func appStreamClosed(_ app: String, stream: Int) async {
        statusCache.invalidate()
        guard let current = presence.closed(stream, app: app) else {
            bridges.withLock { _ = $0.removeValue(forKey: app) }
            replaying.withLock { _ = $0.removeValue(forKey: app) }
            await engine.setDelegate(nil, for: app)
            questions.abandon(app: app)
            decisions.abandon(app: app)
            log.info("\(app) disconnected")
            return
        }
        if let bridge = bridges.withLock({ $0[app] }) {
            await engine.setDelegate(bridge, for: app, isForeground: current.foreground)
        }
    }

    static func event(_ entry: QueuedResponse) -> ResponseEvent {
        ResponseEvent(delivery: entry.delivery, app: entry.app, response: entry.response, launch: entry.launch)
    }
}
