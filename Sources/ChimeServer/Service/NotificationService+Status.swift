public import ChimeAPI
import ChimeEngine
import Foundation
import Synchronization

extension NotificationService {
    /// What `chime doctor` shows: the daemon, its store's counts, its presenter, its streams.
    public func status() async throws -> StatusResult {
        let generation = statusCache.generation
        let identity = identity.withLock { $0 }
        let apps = try await allAppIdentifiers()
        var status = StatusResult(
            version: WireFormat.version, processIdentifier: getpid(), storePath: identity.storePath, socketPath: identity.socketPath,
            httpAddress: identity.httpAddress, presenter: identity.presenter, notificationServer: await identity.notificationServer(),
            apps: apps.count, pending: try await engine.pendingTotal(appIdentifier: nil), delivered: try await engine.deliveredTotal(appIdentifier: nil),
            queuedResponses: try await queue.counts().values.reduce(0, +), focus: registry.focus, eventStreams: events.streamCount)
        let quarantined = try await store.quarantinedCount()
        status.quarantined = quarantined > 0 ? quarantined : nil
        status.authorization = identity.authorization
        status.location = await identity.location()
        statusCache.store(status, generation: generation)
        return status
    }

    /// The status as last read, while nothing it counts has changed since and it is at most a second old;
    /// `nil` otherwise. Lets the busiest route answer without touching the store.
    public func recentStatus() -> StatusResult? {
        statusCache.current()
    }
}

/// The last status read, dropped whenever something it counts changes (an add, a delivery, a response, a
/// stream) and after a second at most, for changes nobody reports (a missed fire skipped at start).
final class StatusCache: Sendable {
    private let state = Mutex((generation: 0, status: StatusResult?.none, generationOfStatus: -1, read: ContinuousClock.Instant.now))

    var generation: Int { state.withLock { $0.generation } }

    func invalidate() {
        state.withLock { $0.generation += 1 }
    }

    /// Keeps `status` unless something changed while it was read (`generation` is from before the read).
    func store(_ status: StatusResult, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.status = status
            state.generationOfStatus = generation
            state.read = .now
        }
    }

    func current() -> StatusResult? {
        state.withLock { state in
            guard state.generationOfStatus == state.generation, ContinuousClock.now - state.read < .seconds(1) else { return nil }
            return state.status
        }
    }
}
