public import ChimeEngine
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Watches the desktop session for what the engine's `UserEnvironment` needs: Do Not Disturb (the
/// notification server's `Inhibited` property, dunst's `paused`, or GNOME's `show-banners` setting; session
/// bus) and the screen lock
/// (logind's `LockedHint`, system bus), and reports each change.
///
/// ```swift
/// let monitor = EnvironmentMonitor()
/// await monitor.start()
/// let updating = monitor.keepUpdated(engine)      // the engine's focus and lock state follow the desktop
/// // ...
/// updating.cancel(); await monitor.stop()
/// ```
///
/// Either source may be missing, and the monitor carries on without it: a server without `Inhibited`
/// (GNOME, dunst, most others), no notification server, no system bus (containers), no logind or no
/// session to be found all read as `nil` — "the desktop does not say" — with a note in the log. When a
/// server or logind restarts, the monitor follows the new one.
///
/// Threading: an actor; each bus has a connection with its own thread (see `BusConnection`).
public actor EnvironmentMonitor {
    private let sessionBus: BusAddress
    private let systemBus: BusAddress?
    private let sessionID: String?
    private let timeout: Duration
    private let log: any EngineLog

    /// What the desktop says now; all `nil` until `start()`.
    public private(set) var state = DesktopEnvironmentState()
    private var connections: [BusConnection] = []
    private var watches: [PropertyWatch] = []
    private var bannerWatch: GnomeBannerWatch?
    private let environment: [String: String]
    private var subscribers: [UUID: AsyncStream<DesktopEnvironmentState>.Continuation] = [:]
    private var started = false

    /// - Parameters:
    ///   - sessionBus: Where the notification server is.
    ///   - systemBus: Where logind is; `nil` not to watch the lock state.
    ///   - sessionID: logind's id of the user's session; by default `XDG_SESSION_ID`. Without one the
    ///     monitor asks logind for this process's session, then for the user's display session.
    ///   - callTimeout: The longest any call waits for an answer.
    ///   - environment: Where the desktop's name (`XDG_CURRENT_DESKTOP`) and `PATH` are read, and what
    ///     `gsettings` runs with; by default this process's.
    ///   - log: Where the notes about missing sources go.
    public init(
        sessionBus: BusAddress = .session, systemBus: BusAddress? = .system,
        sessionID: String? = EnvironmentMonitor.sessionIDFromEnvironment, callTimeout: Duration = .seconds(5),
        environment: [String: String]? = nil, log: any EngineLog = StandardErrorLog()
    ) {
        self.environment = environment ?? ProcessInfo.processInfo.environment
        self.sessionBus = sessionBus
        self.systemBus = systemBus
        self.sessionID = sessionID
        self.timeout = callTimeout
        self.log = log
    }

    /// `XDG_SESSION_ID`: the session logind started this process in, if it did.
    public static var sessionIDFromEnvironment: String? {
        ProcessInfo.processInfo.environment["XDG_SESSION_ID"]
    }

    /// Connects and reads the first values; returns once `state` holds them. Later calls do nothing.
    public func start() async {
        guard !started else { return }
        started = true
        if let connection = await open(sessionBus, what: "Do Not Disturb") {
            let target = PropertyWatch.Target(
                service: NotificationServerLink.name, interface: NotificationServerLink.interface, property: "Inhibited",
                resolvePath: { _, _ in NotificationServerLink.path })
            await watch(target, on: connection) { $0.notificationsInhibited = $1 }
            // dunst has no Inhibited but a pause of its own, which is its Do Not Disturb.
            let paused = PropertyWatch.Target(
                service: NotificationServerLink.name, interface: "org.dunstproject.cmd0", property: "paused",
                resolvePath: { _, _ in NotificationServerLink.path })
            await watch(paused, on: connection) { $0.notificationsPaused = $1 }
            if let gsettings = GnomeBannerWatch.gsettingsPath(environment: environment) {
                let banners = GnomeBannerWatch(connection: connection, gsettings: gsettings, environment: environment) { [weak self] value in
                    await self?.change { $0.bannersShown = value }
                }
                bannerWatch = banners
                await banners.start()
            }
        }
        if let systemBus, let connection = await open(systemBus, what: "the screen lock") {
            let (sessionID, timeout) = (sessionID, timeout)
            let target = PropertyWatch.Target(
                service: LoginSession.service, interface: LoginSession.sessionInterface, property: "LockedHint",
                resolvePath: { connection, owner in
                    await LoginSession.path(
                        on: connection, owner: owner, sessionID: sessionID, processID: UInt32(getpid()), userID: getuid(), timeout: timeout)
                })
            await watch(target, on: connection) { $0.sessionLocked = $1 }
        }
        if state.doNotDisturb == nil { log.info("the desktop does not say whether its Do Not Disturb is on (no Inhibited, dunst pause or GNOME show-banners)") }
        if state.sessionLocked == nil { log.info("logind does not say whether the session is locked") }
    }

    /// Stops watching: closes the connections and ends every `updates()` stream.
    public func stop() {
        for connection in connections { connection.close() }
        connections = []
        watches = []
        bannerWatch = nil
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers = [:]
    }

    /// The state now, then each change, until `stop()` or the end of the task that iterates it.
    public func updates() -> AsyncStream<DesktopEnvironmentState> {
        let (stream, continuation) = AsyncStream.makeStream(of: DesktopEnvironmentState.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        subscribers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// Keeps `engine`'s environment in step with the desktop: its focus and lock state follow `updates()`,
    /// its languages stay as they are. A value the desktop stops saying (the server quit) turns the focus
    /// off, or leaves the lock state as it was. Cancel the task to stop.
    public nonisolated func keepUpdated(_ engine: NotificationEngine, focusAllowsTimeSensitive: Bool = true) -> Task<Void, Never> {
        Task {
            var previous = DesktopEnvironmentState()
            for await state in await self.updates() {
                var environment = state.applied(to: await engine.environment, focusAllowsTimeSensitive: focusAllowsTimeSensitive)
                if previous.doNotDisturb != nil && state.doNotDisturb == nil { environment.focus = .off }
                previous = state
                await engine.updateEnvironment(environment)
            }
        }
    }

    // MARK: - Private

    private func open(_ address: BusAddress, what: String) async -> BusConnection? {
        do {
            let connection = try await BusConnection.open(address, name: "chime.desktop.environment", timeout: timeout)
            connections.append(connection)
            return connection
        } catch {
            log.info("cannot reach the \(BusLoop.describe(address)), so \(what) is unknown: \(error.message)")
            return nil
        }
    }

    private func watch(
        _ target: PropertyWatch.Target, on connection: BusConnection, set: @escaping @Sendable (inout DesktopEnvironmentState, Bool?) -> Void
    ) async {
        let watch = PropertyWatch(connection: connection, target: target, timeout: timeout) { [weak self] value in
            await self?.change { set(&$0, value) }
        }
        watches.append(watch)
        await watch.start()
    }

    private func change(_ body: (inout DesktopEnvironmentState) -> Void) {
        var new = state
        body(&new)
        guard new != state else { return }
        state = new
        for subscriber in subscribers.values { subscriber.yield(new) }
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
