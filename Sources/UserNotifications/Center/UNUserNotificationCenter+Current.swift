#if !canImport(Darwin)
import ChimeCore
import ChimeDesktop
public import ChimeEngine
public import ChimeAPI
import ChimeSQLite
public import Foundation

extension UNUserNotificationCenter {
    /// The center bound by `withCurrent(_:operation:)`, and inside this center's callbacks.
    @TaskLocal static var bound: UNUserNotificationCenter?

    /// The notification center of this process's app (Apple's `current()`).
    ///
    /// Inside `withCurrent(_:operation:)` — and inside completion handlers and delegate calls of a center —
    /// it is that center. Otherwise it is the process's center, made on first use, which runs the app's
    /// notifications either with `chimed` or with an embedded engine:
    ///
    /// - **Mode**: decided once per process, at the first call that needs it, as `CHIME_MODE` asks:
    ///   `auto` (the default) uses `chimed` when its socket and token are found (`DaemonPaths`: XDG rules)
    ///   and it answers `hello`, else the embedded engine; `daemon` always uses `chimed`, and without it
    ///   every call fails with `APIError.notConnected` (nothing is embedded silently); `embedded` never
    ///   tries the daemon. An unknown value counts as `auto`, with a warning. An app that gave
    ///   `configureEmbedded` a presenter of its own (a terminal app) runs embedded under `auto`. The choice
    ///   is logged at debug level (`CHIME_DEBUG=1`).
    /// - **Client mode** (`chimed`): the daemon owns the store, fires notifications while the app is not
    ///   running, and moves attachments into its own store; every call behaves as in embedded mode, with the
    ///   same errors. Setting a delegate (or registering a content extension) subscribes to the app's
    ///   events: responses queued while the app was not running reach the delegate once, in order, and the
    ///   app's decisions (a content extension's new buttons, keep on screen, dismiss) reach the daemon's
    ///   engine. `configureEmbedded` does not apply in this mode.
    ///
    /// In embedded mode:
    ///
    /// - **App identity**: `CHIME_APP_ID`, else the identifier given to `configureEmbedded`, else the main
    ///   bundle's identifier, else the executable's name. No app bundle is needed.
    /// - **Store**: SQLite at `$XDG_DATA_HOME/chime/apps/<app identifier>.sqlite` (default
    ///   `~/.local/share/chime/`; folders are created), one file per app so embedded engines in different
    ///   processes never present each other's notifications; attachments moved to
    ///   `$XDG_DATA_HOME/chime/attachments`.
    /// - **Engine**: the system clock; the presenter and authorization given to `configureEmbedded`; by
    ///   default the desktop's notification server when one answers on the session bus (notifications
    ///   with buttons, and the permission question as a notification), else one line per notification on
    ///   standard error with every request allowed; strings tables
    ///   from the main bundle's `.lproj` folders. It opens and starts on the first call that needs it; if
    ///   the store cannot be opened, that call fails (and the next one tries again).
    ///
    /// Never crashes for lack of a bundle, a home directory, a daemon or a writable disk: those failures
    /// reach the calls, as errors where they have one, in the log where they have none.
    public static func current() -> UNUserNotificationCenter {
        bound ?? EmbeddedCenter.shared
    }

    /// A center for `appIdentifier` in client mode, on the `chimed` found at `paths` (Chime; `current()`
    /// chooses the mode by itself).
    ///
    /// ```swift
    /// let center = UNUserNotificationCenter(appIdentifier: "com.example.alarm", daemon: DaemonPaths())
    /// try await center.add(request)   // throws APIError.notConnected when chimed is not running
    /// ```
    ///
    /// It connects on its first call; a call while no daemon answers fails, and the next call tries again.
    public convenience init(appIdentifier: String, daemon paths: DaemonPaths, log: any EngineLog = StandardErrorLog()) {
        let backend = CenterBackend {
            try await DaemonCenter.connect(appIdentifier: appIdentifier, paths: paths, log: log)
        }
        self.init(appIdentifier: appIdentifier, clock: EmbeddedCenter.clock, log: log, backend: backend)
    }

    /// Runs `operation` with `current()` answering `center`, also in tasks it creates, in `center`'s
    /// completion handlers and in its delegate calls (Chime; for tests of iOS code that calls `current()`).
    ///
    /// ```swift
    /// let center = UNUserNotificationCenter(appIdentifier: "com.example.alarm", engine: engine, clock: clock)
    /// UNUserNotificationCenter.withCurrent(center) {
    ///     appDelegate.application(application, didFinishLaunchingWithOptions: nil)
    /// }
    /// ```
    ///
    /// Work the code hands to `DispatchQueue`s or threads of its own does not see the binding.
    public static func withCurrent<Result>(_ center: UNUserNotificationCenter, operation: () throws -> Result) rethrows -> Result {
        try $bound.withValue(center, operation: operation)
    }

    /// The `async` form of `withCurrent(_:operation:)`.
    public static func withCurrent<Result>(
        _ center: UNUserNotificationCenter, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $bound.withValue(center, operation: operation, isolation: isolation)
    }

    /// The clock of `current()`, without making the embedded center.
    static var currentClock: any NotificationClock {
        bound?.clock ?? EmbeddedCenter.clock
    }

    /// Configures the embedded center `current()` makes on first use (Chime): the app identifier when the
    /// process has no bundle identifier worth using, the presenter (a desktop or terminal presenter instead
    /// of standard error), how authorization requests are answered, the data directory, and work to do
    /// on the engine once it is made.
    ///
    /// ```swift
    /// let terminal = TerminalPresenter()
    /// UNUserNotificationCenter.configureEmbedded(appIdentifier: "com.example.tea", presenter: terminal, authorization: terminal)
    /// ```
    ///
    /// - Parameter engineOpened: Runs once, when the engine is made and before its scheduler starts:
    ///   for what the user, not the app, decides — settings changed in a settings screen, a focus or lock
    ///   monitor calling `updateEnvironment`. The call that opened the engine waits for it.
    /// - Returns: `false`, changing nothing, once `current()` has made the embedded center.
    @discardableResult
    public static func configureEmbedded(
        appIdentifier: String? = nil, presenter: (any NotificationPresenter)? = nil, authorization: (any AuthorizationResolver)? = nil,
        dataDirectory: URL? = nil, engineOpened: (@Sendable (NotificationEngine) async -> Void)? = nil
    ) -> Bool {
        EmbeddedCenter.configuration.withLock { state in
            guard !state.made else { return false }
            state.configuration = EmbeddedCenter.Configuration(
                appIdentifier: appIdentifier, presenter: presenter, authorization: authorization, dataDirectory: dataDirectory,
                engineOpened: engineOpened)
            // CoreLocation's permission request names the app as its notifications do.
            if let appIdentifier, !appIdentifier.isEmpty { AppIdentity.declare(appIdentifier) }
            return true
        }
    }
}

/// The process's embedded center behind `current()`.
enum EmbeddedCenter {
    struct Configuration: Sendable {
        var appIdentifier: String?
        var presenter: (any NotificationPresenter)?
        var authorization: (any AuthorizationResolver)?
        var dataDirectory: URL?
        var engineOpened: (@Sendable (NotificationEngine) async -> Void)?
        /// Where to look for a desktop notification server when no presenter is given.
        var desktopBus = BusAddress.session
    }

    static let configuration = Locked<(configuration: Configuration, made: Bool)>((Configuration(), false))
    static let clock = SystemClock()

    static let shared: UNUserNotificationCenter = {
        let given = configuration.withLock { state in
            state.made = true
            return state.configuration
        }
        let environment = ProcessInfo.processInfo.environment
        return make(
            given, appIdentifier: AppIdentity.current(explicit: given.appIdentifier),
            mode: CenterMode.requested(in: environment)?.forApp(configuringPresenter: given.presenter != nil),
            daemonPaths: DaemonPaths(environment: environment), log: StandardErrorLog())
    }()

    /// A center that decides, at its first call, between `chimed` at `daemonPaths` and the embedded engine
    /// of `configuration`, as `mode` asks (`nil`: an unknown `CHIME_MODE`, treated as `auto`). Once decided,
    /// the mode stays; a failed open is tried again by the next call, in the mode decided.
    static func make(
        _ configuration: Configuration, appIdentifier: String, mode: CenterMode?, daemonPaths: DaemonPaths, log: any EngineLog
    ) -> UNUserNotificationCenter {
        let decided = Locked<CenterMode.Resolution?>(nil)
        let backend = CenterBackend {
            if mode == nil, decided.withLock({ $0 }) == nil {
                log.warning("UserNotifications: CHIME_MODE must be daemon, embedded or auto; using auto")
            }
            let requested = mode ?? .auto
            if requested.triesDaemon, decided.withLock({ $0 }) != .embedded {
                do {
                    let center = try await DaemonCenter.connect(appIdentifier: appIdentifier, paths: daemonPaths, log: log)
                    decided.withLock { $0 = .daemon }
                    log.debug("UserNotifications: \(appIdentifier) uses chimed at \(daemonPaths.socketFile.path) (CHIME_MODE \(requested.rawValue))")
                    return center
                } catch {
                    guard requested.resolve(daemonAnswered: false) == .embedded else {
                        decided.withLock { $0 = .daemonUnavailable }
                        throw APIError(.notConnected, "CHIME_MODE is daemon, but chimed does not answer at \(daemonPaths.socketFile.path): \(error)")
                    }
                    log.debug("UserNotifications: no chimed answers at \(daemonPaths.socketFile.path) (\(error)); \(appIdentifier) uses the embedded engine")
                }
            } else if decided.withLock({ $0 }) == nil {
                log.debug("UserNotifications: \(appIdentifier) uses the embedded engine (CHIME_MODE \(requested.rawValue))")
            }
            decided.withLock { $0 = .embedded }
            return try await openLogged(configuration, appIdentifier: appIdentifier, log: log)
        }
        return UNUserNotificationCenter(appIdentifier: appIdentifier, clock: clock, log: log, backend: backend)
    }

    /// A center on the embedded engine of `configuration`, opened on first use.
    static func make(_ configuration: Configuration, appIdentifier: String) -> UNUserNotificationCenter {
        let log = StandardErrorLog()
        let backend = CenterBackend {
            try await openLogged(configuration, appIdentifier: appIdentifier, log: log)
        }
        return UNUserNotificationCenter(appIdentifier: appIdentifier, clock: clock, log: log, backend: backend)
    }

    private static func openLogged(_ configuration: Configuration, appIdentifier: String, log: any EngineLog) async throws -> AppNotificationCenter {
        do {
            return try await open(configuration, appIdentifier: appIdentifier, log: log)
        } catch {
            log.warning("UserNotifications: the embedded notification store could not be opened: \(error)")
            throw error
        }
    }

    /// The presenter given to `configureEmbedded`; else the desktop's notification server when one answers
    /// (which also asks the user for permission, with a notification); else one line per notification on
    /// standard error, every request allowed.
    private static func presenter(
        for configuration: Configuration, log: any EngineLog
    ) async -> (any NotificationPresenter, any AuthorizationResolver) {
        if let presenter = configuration.presenter { return (presenter, FixedAuthorization.allowAll) }
        let desktop = DesktopPresenter(configuration: .init(bus: configuration.desktopBus, callTimeout: .seconds(2)), log: log)
        if let server = await desktop.notificationServer() {
            log.debug("UserNotifications: notifications show through \(server.name.isEmpty ? "the desktop's notification server" : server.name)")
            return (desktop, desktop)
        }
        return (StandardErrorPresenter(), FixedAuthorization.allowAll)
    }

    private static func open(_ configuration: Configuration, appIdentifier: String, log: any EngineLog) async throws -> AppNotificationCenter {
        let directory = configuration.dataDirectory
            ?? DaemonPaths.dataDirectory(environment: ProcessInfo.processInfo.environment)
        let attachments = EmbeddedPaths.attachments(in: directory)
        let storeFile = EmbeddedPaths.store(in: directory, appIdentifier: appIdentifier)
        try PrivateFiles.makeFolder(attachments)
        try PrivateFiles.makeFolder(storeFile.deletingLastPathComponent())
        let repaired = PrivateFiles.repair(directory)
        if repaired > 0 {
            log.warning("UserNotifications: \(directory.path) was readable by other users; made it private (\(repaired) files and folders now 0600/0700)")
        }
        let store = try await SQLiteNotificationStore(path: storeFile.path)
        if store.foundEmptyFile {
            log.warning("UserNotifications: \(storeFile.path) was an empty file (0 bytes); a new store was started in it")
        }
        store.onQuarantine { records in
            for record in records {
                log.warning("UserNotifications: set aside a damaged \(record) (kept byte for byte in the quarantine table)")
            }
        }
        var engineConfiguration = EngineConfiguration()
        engineConfiguration.attachmentsDirectory = attachments
        engineConfiguration.presentationJournal = URL(fileURLWithPath: storeFile.path + "-presented")
        let (presenter, asker) = await presenter(for: configuration, log: log)
        let engine = NotificationEngine(
            store: store, clock: clock, presenter: presenter, authorization: configuration.authorization ?? asker, log: log,
            configuration: engineConfiguration)
        if let resources = Bundle.main.resourceURL, let localizer = try? NotificationLocalizer(contentsOf: resources), !localizer.tables.isEmpty {
            await engine.setLocalizer(localizer, for: appIdentifier)
        }
        await configuration.engineOpened?(engine)
        await engine.start()
        // Location triggers get positions from GeoClue, asked in the app's own name, while one is pending.
        let locations = await LocationFeed(engine: engine, desktopID: appIdentifier, log: log)
        Task { await locations.check() }
        return engine.center(for: appIdentifier)
    }
}
#endif
