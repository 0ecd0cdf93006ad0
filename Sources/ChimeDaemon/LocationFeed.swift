import ChimeCore
import ChimeDesktop
import ChimeEngine
import Foundation
import Synchronization

/// The daemon's one location source, shared by every app: GeoClue runs while some location trigger is
/// pending and is stopped once none is, and each of its fixes goes to the engine, which fires the
/// triggers whose regions it crosses.
///
/// When GeoClue is absent or refuses chimed, the triggers stay pending, `chime doctor` says why, and the
/// feed asks again at the next change of the pending list, or after `retryInterval`.
actor LocationFeed {
    private let engine: NotificationEngine
    private let log: DaemonLog
    private let retryInterval: Duration
    private let source: GeoClueLocationSource
    private var wanted = false
    private var checking: Task<Void, Never>?
    private var retrying: Task<Void, Never>?
    private var lastState: GeoClueLocationSource.State = .stopped

    init(engine: NotificationEngine, bus: BusAddress = .system, log: DaemonLog, retryInterval: Duration = .seconds(60)) {
        self.engine = engine
        self.log = log
        self.retryInterval = retryInterval
        // The feed, for the source's fixes: set once the feed exists (a fix may end the last trigger). The
        // cycle this makes is meant: the feed lives as long as the daemon.
        let feed = Mutex<LocationFeed?>(nil)
        source = GeoClueLocationSource(bus: bus, desktopID: "chimed") { [engine, log] fix in
            do {
                try await engine.locationChanged(to: fix)
            } catch {
                log.warning("a position could not be checked against the location triggers: \(error)")
            }
            await feed.withLock { $0 }?.check()
        }
        feed.withLock { $0 = self }
    }

    /// What `chime doctor` shows: `nil` while no location trigger is pending.
    var status: String? {
        guard wanted else { return nil }
        switch lastState {
        case .running: return "running"
        case .stopped: return "starting"
        case .unavailable(let why): return "unavailable: GeoClue cannot be reached (\(why)); location triggers stay pending"
        case .denied(let why): return "denied: GeoClue refused chimed (\(why)); location triggers stay pending"
        }
    }

    /// Looks at the pending list again soon (after an add or a removal), once however often it is asked.
    nonisolated func pendingChanged() {
        Task { await self.check() }
    }

    /// Starts or stops GeoClue as the pending list asks.
    func check() async {
        do {
            wanted = try await engine.hasLocationTriggers()
        } catch {
            log.warning("cannot tell whether location triggers are pending: \(error)")
            return
        }
        let state = await source.state
        if wanted, state != .running {
            let started = await source.start()
            report(started)
            if started != .running { retryLater() }
        } else if !wanted, state == .running {
            await source.stop()
            log.info("no location trigger is pending: stopped asking GeoClue for positions")
            lastState = .stopped
        }
    }

    func stop() async {
        retrying?.cancel()
        await source.stop()
    }

    private func report(_ state: GeoClueLocationSource.State) {
        defer { lastState = state }
        guard state != lastState else { return }
        switch state {
        case .running: log.info("location triggers are pending: GeoClue gives positions")
        case .unavailable(let why): log.warning("location triggers are pending but GeoClue cannot be reached (\(why)); they stay pending")
        case .denied(let why): log.warning("location triggers are pending but GeoClue refused chimed (\(why)); they stay pending")
        case .stopped: break
        }
    }

    private func retryLater() {
        retrying?.cancel()
        retrying = Task { [retryInterval] in
            try? await Task.sleep(for: retryInterval)
            guard !Task.isCancelled else { return }
            await self.check()
        }
    }
}
