public import ChimeAPI
public import ChimeCore
public import ChimeEngine
import Foundation
import Synchronization

/// Starts an app's registered launch command so it can take its queued responses.
public protocol AppLaunching: Sendable {
    /// `reason` is `foreground` or `background`.
    func launch(_ command: [String], reason: String)
}

/// Every operation chimed's API offers, with typed inputs and outputs and no transport: the rules of the
/// daemon in one place. The HTTP layer (`APIHandler`) maps requests to these calls and errors to
/// statuses; tests call them directly.
///
/// Owns, beside the engine and its store: the app registry, the queue of responses waiting for apps, the
/// event streams (`EventHub`), which apps are connected and how (`AppPresence`), and the user's focus.
/// Errors are the engine's `ChimeError` or `APIError`; a call that throws changed nothing.
///
/// Threading: any task may call any method. Nothing here waits for a client: questions to apps and their
/// decisions have timeouts, and events go into bounded streams.
public final class NotificationService: Sendable {
    public struct Configuration: Sendable {
        /// How long a foreground app may take to say how to present a notification.
        public var presentationTimeout: Duration = .seconds(5)
        /// How long an app that decides its responses may take to acknowledge one.
        public var responseDecisionTimeout: Duration = .seconds(5)
        /// Questions in a row an app may leave unanswered before it is treated as in the background.
        public var missedAnswersLimit = 2
        /// Queued responses sent when an app opens its stream; the rest follow as it acknowledges them.
        public var replayBatch = 256
        public init() {}
    }

    /// What the status shows that only the daemon knows.
    public struct Identity: Sendable {
        public var storePath: String
        public var socketPath: String
        public var httpAddress: String?
        public var presenter: String
        /// Who answers permission questions (`StatusResult.authorization`).
        public var authorization: String
        public var notificationServer: @Sendable () async -> StatusResult.Server?
        /// The location source's state (`StatusResult.location`).
        public var location: @Sendable () async -> String?

        public init(
            storePath: String, socketPath: String, httpAddress: String?, presenter: String, authorization: String = "allow",
            notificationServer: @escaping @Sendable () async -> StatusResult.Server? = { nil }, location: @escaping @Sendable () async -> String? = { nil }
        ) {
            self.storePath = storePath
            self.socketPath = socketPath
            self.httpAddress = httpAddress
            self.presenter = presenter
            self.authorization = authorization
            self.notificationServer = notificationServer
            self.location = location
        }
    }

    let configuration: Configuration
    let engine: NotificationEngine
    let store: any NotificationStore
    let registry: AppRegistry
    let queue: any ResponseQueueStore
    public let events: EventHub
    let presence: AppPresence
    let questions = PresentationQuestions()
    let decisions = ResponseDecisions()
    let launcher: any AppLaunching
    /// The permission questions waiting for the user, when the engine asks through them.
    let permissionQuestions: AuthorizationQuestions?
    let log: any EngineLog
    let identity: Mutex<Identity>
    let statusCache = StatusCache()
    /// The engine holds app delegates weakly: the connected apps' bridges live here.
    let bridges = Mutex([String: AppBridge]())
    /// Per app, the replayed responses of a full batch not yet acknowledged (more wait in the queue).
    let replaying = Mutex([String: Set<String>]())
    /// The desktop's Do Not Disturb and lock state, when it says.
    let desktop = Mutex((inhibited: Bool?.none, locked: Bool?.none))
    /// The APNs-compatible endpoint's provider key and device tokens, when the daemon offers it.
    let apnsDoor: APNsDoorCredentials?
    /// The `apns-id`s the endpoint took lately, so a sender's repeat (after a lost answer) adds nothing.
    let takenAPNsIDs = Mutex(RecentSet(capacity: 4096))

    public init(
        engine: NotificationEngine, store: any NotificationStore, registry: AppRegistry, queue: any ResponseQueueStore, events: EventHub,
        launcher: any AppLaunching, identity: Identity, log: any EngineLog, permissionQuestions: AuthorizationQuestions? = nil,
        apnsDoor: APNsDoorCredentials? = nil, configuration: Configuration = Configuration()
    ) {
        self.apnsDoor = apnsDoor
        self.engine = engine
        self.store = store
        self.registry = registry
        self.queue = queue
        self.events = events
        self.launcher = launcher
        self.permissionQuestions = permissionQuestions
        self.identity = Mutex(identity)
        self.log = log
        self.configuration = configuration
        presence = AppPresence(missedAnswersLimit: configuration.missedAnswersLimit)
    }

    /// The loopback address, once the daemon serves one.
    public func setHTTPAddress(_ address: String?) {
        identity.withLock { $0.httpAddress = address }
    }

    /// The lists changed: the next status reads the counts again.
    public func listsChanged() {
        statusCache.invalidate()
    }

    // MARK: Apps

    public func apps() async throws -> AppList {
        let counts = try await queue.counts()
        let connected = presence.connectedApps
        var infos: [AppInfo] = []
        for app in try await allAppIdentifiers() {
            let record = try await store.app(app)
            infos.append(
                AppInfo(
                    entry: registry.entry(app) ?? AppEntry(identifier: app), settings: record?.settings ?? .notDetermined,
                    connected: connected.contains(app), queuedResponses: counts[app] ?? 0, badge: record?.badgeCount ?? 0,
                    authorizationQuestion: permissionQuestions?.question(for: app)))
        }
        return AppList(apps: infos)
    }

    /// - Throws: `APIError.notFound` for an app neither registered nor known to the store.
    public func app(_ app: String) async throws -> AppInfo {
        let record = try await store.app(app)
        guard record != nil || registry.entry(app) != nil else { throw APIError(.notFound, field: "app", "no app has that identifier") }
        return AppInfo(
            entry: registry.entry(app) ?? AppEntry(identifier: app), settings: record?.settings ?? .notDetermined,
            connected: presence.current(app) != nil, queuedResponses: try await queue.counts()[app] ?? 0, badge: record?.badgeCount ?? 0,
            authorizationQuestion: permissionQuestions?.question(for: app))
    }

    /// Adds or replaces the app's registry entry (display name, icon, launch command).
    public func registerApp(_ app: String, _ registration: AppRegistration) async throws -> AppInfo {
        if let command = registration.launchCommand, command.first?.isEmpty ?? true {
            throw APIError(.invalidParameters, field: "launchCommand", "a launch command needs a program")
        }
        try registry.register(
            AppEntry(identifier: app, displayName: registration.displayName, iconPath: registration.iconPath, launchCommand: registration.launchCommand))
        log.info("registered \(app)")
        statusCache.invalidate()
        appChanged(app)
        return try await self.app(app)
    }

    /// The app asks to notify (`requestAuthorization(options:)`): the user's stored decision, or the
    /// question put to the user now.
    public func requestAuthorization(_ app: String, _ request: AuthorizationRequest) async throws -> AuthorizationResult {
        try note(app)
        // The decision is stored by now (a question asked meanwhile was taken off the list before it was).
        defer { appChanged(app) }
        return AuthorizationResult(granted: try await engine.center(for: app).requestAuthorization(options: request.options))
    }

    /// The user allows or denies the app.
    public func decideAuthorization(_ app: String, _ decision: AuthorizationDecision) async throws -> NotificationSettings {
        try note(app)
        let asked = try await store.app(app)?.requestedOptions ?? []
        var options = asked.subtracting(.provisional)
        if options.isEmpty { options = [.alert, .sound, .badge] }
        let settings: NotificationSettings = decision.allowed ? .granted(options) : .denied(options)
        try await engine.center(for: app).updateSettings(settings)
        log.info("the user \(decision.allowed ? "allowed" : "denied") \(app)")
        appChanged(app)
        return settings
    }

    public func settings(_ app: String) async throws -> NotificationSettings {
        try await engine.center(for: app).notificationSettings()
    }

    public func updateSettings(_ app: String, _ settings: NotificationSettings) async throws -> NotificationSettings {
        try note(app)
        try await engine.center(for: app).updateSettings(settings)
        appChanged(app)
        return settings
    }

    public func categories(_ app: String) async throws -> CategoryList {
        CategoryList(categories: try await engine.center(for: app).notificationCategories())
    }

    public func setCategories(_ app: String, _ list: CategoryList) async throws -> CategoryList {
        try note(app)
        try await engine.center(for: app).setNotificationCategories(list.categories)
        appChanged(app)
        return list
    }

    public func setBadge(_ app: String, _ badge: BadgeCount) async throws -> BadgeCount {
        try await engine.center(for: app).setBadgeCount(badge.count)
        appChanged(app)
        return badge
    }

    /// Tells pages to read the app again.
    func appChanged(_ app: String) {
        events.publish(.appChanged, AppChangedEvent(app: app), to: .lists)
    }

    /// Lists the app in the registry (an app that talks to the daemon without registering).
    func note(_ app: String) throws {
        try registry.note(app)
    }

    func allAppIdentifiers() async throws -> [String] {
        var apps = registry.apps.map(\.identifier)
        var known = Set(apps)
        for record in try await store.allApps() where known.insert(record.appIdentifier).inserted { apps.append(record.appIdentifier) }
        return apps
    }

    // MARK: Focus and the desktop

    public func focus() -> FocusState {
        let (inhibited, locked) = desktop.withLock { $0 }
        return FocusState(on: registry.focus, desktopInhibited: inhibited, sessionLocked: locked)
    }

    public func setFocus(_ state: FocusState) async throws -> FocusState {
        try registry.setFocus(state.on)
        await applyEnvironment()
        statusCache.invalidate()
        log.info("focus \(state.on ? "on" : "off")")
        return focus()
    }

    /// The desktop's Do Not Disturb or lock state changed (`nil`: the desktop does not say).
    public func desktopChanged(inhibited: Bool?, locked: Bool?) async {
        desktop.withLock { $0 = (inhibited, locked) }
        await applyEnvironment()
    }

    /// The engine's focus is on while the user's switch (`chime focus on`) or the desktop's Do Not
    /// Disturb is on.
    public func applyEnvironment() async {
        let (inhibited, locked) = desktop.withLock { $0 }
        var environment = await engine.environment
        environment.focus = registry.focus || inhibited == true ? .on(allowsTimeSensitive: true) : .off
        if let locked { environment.isLocked = locked }
        let before = await engine.environment
        await engine.updateEnvironment(environment)
        if before.focus != environment.focus || before.isLocked != environment.isLocked {
            events.publish(.focusChanged, focus(), to: .lists)
        }
    }

    /// Re-reads the registry file (after someone edited it).
    public func reloadRegistry() async throws {
        try registry.reload()
        await applyEnvironment()
        statusCache.invalidate()
        log.info("reloaded \(registry.file.path): \(registry.apps.count) app(s), focus \(registry.focus ? "on" : "off")")
    }
}
