import ChimeCore
public import ChimeEngine
import Foundation
import Synchronization

/// An engine's location source: GeoClue runs while some location trigger is pending and is stopped once
/// none is, and each of its fixes goes to the engine, which fires the triggers whose regions it crosses.
/// chimed has one for every app; an app in embedded mode, its own.
///
/// When GeoClue is absent or refuses the program, the triggers stay pending, `status` says why, and the
/// feed asks again when the pending list next changes, or after `retryInterval`.
public actor LocationFeed {
    private let engine: NotificationEngine
    private let log: any EngineLog
    private let desktopID: String
    private let retryInterval: Duration
    private let source: GeoClueLocationSource
    private var wanted = false
    /// The one check running; a check asked for meanwhile marks `dirty`, and the running one goes again.
    private var checking: Task<Void, Never>?
    private var dirty = false
    private var retrying: Task<Void, Never>?
    private var stopped = false
    private var lastState: GeoClueLocationSource.State = .stopped

    /// A feed for `engine`, which it watches from now on (`watchLocationTriggers`); call `check()` once
    /// the engine runs. `desktopID` names the program to GeoClue.
    public init(engine: NotificationEngine, desktopID: String, bus: BusAddress = .system, log: any EngineLog, retryInterval: Duration = .seconds(60)) async {
        self.engine = engine
        self.desktopID = desktopID
        self.log = log
        self.retryInterval = retryInterval
        // The feed, for a GeoClue that went away: set once the feed exists. The cycles this and the
        // engine's watcher make are meant: the engine keeps its feed.
        let feed = Mutex<LocationFeed?>(nil)
        source = GeoClueLocationSource(
            bus: bus, desktopID: desktopID,
            onFix: { [engine, log] fix in
                do {
                    try await engine.locationChanged(to: fix)
                } catch {
                    log.warning("a position could not be checked against the location triggers: \(error)")
                }
            },
            onLost: {
                log.warning("GeoClue went away while location triggers wait; asking it again")
                await feed.withLock { $0 }?.check()
            })
        feed.withLock { $0 = self }
        // The engine says when location triggers come and go, and when one fired (the last one may be spent).
        await engine.watchLocationTriggers { Task { await self.check() } }
    }

    /// What `chime doctor` shows: `nil` while no location trigger is pending.
    public var status: String? {
        guard wanted else { return nil }
        switch lastState {
        case .running: return "running"
        case .stopped: return "starting"
        case .unavailable(let why): return "unavailable: GeoClue cannot be reached (\(why)); location triggers stay pending"
        case .denied(let why): return "denied: GeoClue refused \(desktopID) (\(why)); location triggers stay pending"
        }
    }

    /// Starts or stops GeoClue as the pending list asks; returns once it has. Checks run one at a time: one
    /// asked for while another runs makes that one look again.
    public func check() async {
        guard !stopped else { return }
        dirty = true
        if let checking { return await checking.value }
        let worker = Task {
            while self.takeDirty() { await self.checkOnce() }
        }
        checking = worker
        await worker.value
    }

    /// Whether the worker goes again; when not, it is done, in the same turn, so a check asked for
    /// after this starts a new one.
    private func takeDirty() -> Bool {
        if dirty && !stopped {
            dirty = false
            return true
        }
        checking = nil
        return false
    }

    private func checkOnce() async {
        do {
            wanted = try await engine.hasLocationTriggers()
        } catch {
            log.warning("cannot tell whether location triggers are pending: \(error)")
            return
        }
        let state = await source.state
        if wanted, state != .running {
            let started = await source.start()
            // A start abandoned by `stop()` is not a GeoClue to report or to ask again.
            guard !stopped else { return }
            report(started)
            if started != .running { retryLater() }
        } else if !wanted, state == .running {
            await source.stop()
            log.info("no location trigger is pending: stopped asking GeoClue for positions")
            lastState = .stopped
        }
    }

    /// Stops GeoClue for good: checks asked for later do nothing.
    public func stop() async {
        stopped = true
        retrying?.cancel()
        source.abandonStarts()
        await checking?.value
        await source.stop()
    }

    private func report(_ state: GeoClueLocationSource.State) {
        defer { lastState = state }
        guard state != lastState else { return }
        switch state {
        case .running: log.info("location triggers are pending: GeoClue gives positions")
        case .unavailable(let why): log.warning("location triggers are pending but GeoClue cannot be reached (\(why)); they stay pending")
        case .denied(let why): log.warning("location triggers are pending but GeoClue refused \(desktopID) (\(why)); they stay pending")
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
