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
    private var checking: Task<Void, Never>?
    private var retrying: Task<Void, Never>?
    private var lastState: GeoClueLocationSource.State = .stopped
    private let checkQueued = Mutex(false)

    /// A feed for `engine`, which it watches from now on (`watchLocationTriggers`); call `check()` once
    /// the engine runs. `desktopID` names the program to GeoClue.
    public init(engine: NotificationEngine, desktopID: String, bus: BusAddress = .system, log: any EngineLog, retryInterval: Duration = .seconds(60)) async {
        self.engine = engine
        self.desktopID = desktopID
        self.log = log
        self.retryInterval = retryInterval
        // The feed, for the source's fixes: set once the feed exists (a fix may end the last trigger). The
        // cycles this and the engine's watcher make are meant: the engine keeps its feed.
        let feed = Mutex<LocationFeed?>(nil)
        source = GeoClueLocationSource(bus: bus, desktopID: desktopID) { [engine, log] fix in
            do {
                try await engine.locationChanged(to: fix)
            } catch {
                log.warning("a position could not be checked against the location triggers: \(error)")
            }
            await feed.withLock { $0 }?.check()
        }
        feed.withLock { $0 = self }
        await engine.watchLocationTriggers { self.pendingChanged() }
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

    /// Looks at the pending list again soon (after an add or a removal): one check at a time however
    /// often it is asked, and one more for changes made while a check ran.
    nonisolated func pendingChanged() {
        guard checkQueued.withLock({ queued in defer { queued = true }; return !queued }) else { return }
        Task {
            checkQueued.withLock { $0 = false }
            await self.check()
        }
    }

    /// Starts or stops GeoClue as the pending list asks.
    public func check() async {
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

    public func stop() async {
        retrying?.cancel()
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
