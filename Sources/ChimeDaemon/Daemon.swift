import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeIPC
import ChimeSQLite
import Foundation
import Synchronization

/// `chimed`: one engine over the user's store, served to apps and the CLI on a Unix socket.
///
/// Owns the SQLite store, the engine (system clock), the presenter (desktop or log), the app registry,
/// the queue of responses waiting for apps, and the connections. An actor: connection readers hand it
/// lines, which it handles one at a time per connection, in order.
public actor Daemon {
    struct Session {
        let connection: ClientConnection
        var authenticated = false
        var app: String?
        var subscribed = false
    }

    let configuration: DaemonConfiguration
    let log: DaemonLog
    let paths: DaemonPaths
    let token: String
    let store: SQLiteNotificationStore
    let engine: NotificationEngine
    let registry: AppRegistry
    let queue: ResponseQueue
    let desktop: DesktopPresenter?
    let questions = PresentationQuestions()
    let decisions = ResponseDecisions()

    var sessions: [Int: Session] = [:]
    /// The connection that speaks for each subscribed app, and its delegate (the engine holds it weakly).
    var subscribers: [String: (connection: Int, bridge: AppBridge)] = [:]
    var desktopState = DesktopEnvironmentState()
    var nextConnection = 0

    init(
        configuration: DaemonConfiguration, log: DaemonLog, token: String, store: SQLiteNotificationStore, engine: NotificationEngine,
        registry: AppRegistry, queue: ResponseQueue, desktop: DesktopPresenter?
    ) {
        self.configuration = configuration
        self.log = log
        paths = configuration.paths
        self.token = token
        self.store = store
        self.engine = engine
        self.registry = registry
        self.queue = queue
        self.desktop = desktop
    }

    var presenterKind: String { desktop == nil ? "log" : "desktop" }

    // MARK: Connections

    func accept(_ socket: UnixSocket) {
        nextConnection += 1
        let connection = ClientConnection(id: nextConnection, socket: socket)
        sessions[connection.id] = Session(connection: connection)
        let (stream, continuation) = AsyncStream.makeStream(of: LineSplitter.Item.self, bufferingPolicy: .unbounded)
        let questions = questions
        connection.start(
            received: { item in
                // Answers to `willPresent` skip the queue: the scheduler waits for them.
                if case .line(let line) = item, let answer = Self.presentationAnswer(line) {
                    questions.answer(answer.question, with: answer.options)
                    return
                }
                continuation.yield(item)
            },
            ended: { continuation.finish() })
        Task {
            for await item in stream { await self.handle(item, on: connection.id) }
            await self.closed(connection.id)
        }
        log.debug("connection \(connection.id) opened")
    }

    private static func presentationAnswer(_ line: Data) -> PresentationOptionsParams? {
        let decoder = WireFormat.decoder()
        guard let head = try? decoder.decode(MessageHead.self, from: line), head.method == Method.presentationOptions.rawValue else { return nil }
        return try? decoder.decode(ParamsBody<PresentationOptionsParams>.self, from: line).params
    }

    private func closed(_ id: Int) async {
        guard let session = sessions.removeValue(forKey: id) else { return }
        session.connection.release()
        decisions.abandon(connection: id)
        if let app = session.app, subscribers[app]?.connection == id {
            subscribers[app] = nil
            await engine.setDelegate(nil, for: app)
            log.info("\(app) disconnected")
        }
        log.debug("connection \(id) closed")
    }

    func closeAll() {
        for session in sessions.values { session.connection.close() }
    }

    // MARK: Requests

    private func handle(_ item: LineSplitter.Item, on id: Int) async {
        guard let session = sessions[id] else { return }
        let connection = session.connection
        guard case .line(let line) = item else {
            reject(IPCError(.messageTooLarge, "a message is longer than \(WireFormat.maximumLineLength) bytes"), id: nil, on: session)
            return
        }
        let decoder = WireFormat.decoder()
        guard let head = try? decoder.decode(MessageHead.self, from: line) else {
            reject(IPCError(.malformedMessage, "a message must be one JSON object with an id and a method"), id: nil, on: session)
            return
        }
        guard let requestID = head.id else {
            reject(IPCError(.malformedMessage, field: "id", "a request needs a numeric id"), id: nil, on: session)
            return
        }
        guard let name = head.method, let method = Method(rawValue: name) else {
            reject(IPCError(.unknownMethod, field: "method", "the daemon has no such method"), id: requestID, on: session)
            return
        }
        guard session.authenticated || method == .hello else {
            reject(IPCError(.unauthenticated, "the first message must be hello with the token"), id: requestID, on: session)
            return
        }
        do {
            let reply = try await perform(method, line, session: session, id: id)
            connection.send(ResultMessage(id: requestID, result: reply))
            if method == .hello, let app = sessions[id]?.app, sessions[id]?.subscribed == true {
                await replay(app, to: connection)
            }
        } catch let error as IPCError {
            reject(error, id: requestID, on: session)
        } catch let error as ChimeError {
            connection.send(ErrorMessage(id: requestID, error: IPCError(error)))
        } catch {
            log.warning("\(method.rawValue) failed: \(error)")
            connection.send(ErrorMessage(id: requestID, error: IPCError(.internalError, "\(error)")))
        }
    }

    private func reject(_ error: IPCError, id: Int?, on session: Session) {
        session.connection.send(ErrorMessage(id: id, error: error))
        if !session.authenticated {
            log.warning("refused connection \(session.connection.id): \(error.name)")
            session.connection.close()
        }
    }

    private func params<P: Decodable>(_ type: P.Type, _ line: Data) throws -> P {
        do {
            return try WireFormat.decoder().decode(ParamsBody<P>.self, from: line).params
        } catch let error as ChimeError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw IPCError(.invalidParameters, field: key.stringValue, "a required parameter is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.dataCorrupted(context) {
            throw IPCError(.invalidParameters, field: context.codingPath.map(\.stringValue).joined(separator: "."), "a parameter has the wrong type or value")
        } catch {
            throw IPCError(.invalidParameters, "the parameters do not fit the method")
        }
    }

    private func app(_ given: String?, _ session: Session) throws -> String {
        guard let app = given ?? session.app, !app.isEmpty else { throw IPCError(.noApp, field: "app", "name the app, or say hello as one") }
        return app
    }

    /// Carries out one request and returns its result, encoded.
    private func perform(_ method: Method, _ line: Data, session: Session, id: Int) async throws -> AnyEncodable {
        switch method {
        case .hello:
            let hello = try params(Hello.self, line)
            guard Self.constantTimeEqual(hello.token, token) else {
                throw IPCError(.unauthenticated, field: "token", "the token does not match the daemon's token file")
            }
            sessions[id]?.authenticated = true
            if let app = hello.app {
                guard !app.isEmpty else { throw IPCError(.invalidParameters, field: "app", "an app identifier must not be empty") }
                try registry.note(app)
                sessions[id]?.app = app
                sessions[id]?.subscribed = hello.subscribe
                if hello.subscribe {
                    await subscribe(
                        app, connection: session.connection, foreground: hello.foreground ?? false, decidesResponses: hello.decidesResponses ?? false)
                }
            }
            return AnyEncodable(HelloResult(version: WireFormat.version))
        case .requestAuthorization:
            let p = try params(AuthorizationParams.self, line)
            return AnyEncodable(try await engine.center(for: try noted(app(p.app, session))).requestAuthorization(options: p.options))
        case .notificationSettings:
            let p = try params(AppParams.self, line)
            return AnyEncodable(try await engine.center(for: try app(p.app, session)).notificationSettings())
        case .updateSettings:
            let p = try params(SettingsParams.self, line)
            try await engine.center(for: try noted(app(p.app, session))).updateSettings(p.settings)
            return AnyEncodable(Empty())
        case .setCategories:
            let p = try params(CategoriesParams.self, line)
            try await engine.center(for: try noted(app(p.app, session))).setNotificationCategories(p.categories)
            return AnyEncodable(Empty())
        case .categories:
            let p = try params(AppParams.self, line)
            return AnyEncodable(try await engine.center(for: try app(p.app, session)).notificationCategories())
        case .add:
            let p = try params(AddParams.self, line)
            try await engine.center(for: try noted(app(p.app, session))).add(contentsOf: p.requests)
            return AnyEncodable(Empty())
        case .pendingRequests:
            let p = try params(ListParams.self, line)
            var items: [PendingItem] = []
            for app in try await apps(p, session) {
                items += try await store.pendingRequests(appIdentifier: app).map { PendingItem(app: app, request: $0.request, nextFireDate: $0.nextFireDate) }
            }
            return AnyEncodable(items)
        case .removePending:
            let p = try params(RemoveParams.self, line)
            let center = engine.center(for: try app(p.app, session))
            if let identifiers = p.identifiers {
                try await center.removePendingNotificationRequests(withIdentifiers: identifiers)
            } else {
                try await center.removeAllPendingNotificationRequests()
            }
            return AnyEncodable(Empty())
        case .deliveredNotifications:
            let p = try params(ListParams.self, line)
            var items: [DeliveredItem] = []
            for app in try await apps(p, session) {
                items += try await store.deliveredNotifications(appIdentifier: app).map { DeliveredItem(app: app, notification: $0) }
            }
            return AnyEncodable(items)
        case .removeDelivered:
            let p = try params(RemoveParams.self, line)
            let center = engine.center(for: try app(p.app, session))
            if let identifiers = p.identifiers {
                try await center.removeDeliveredNotifications(withIdentifiers: identifiers)
            } else {
                try await center.removeAllDeliveredNotifications()
            }
            return AnyEncodable(Empty())
        case .setBadgeCount:
            let p = try params(BadgeParams.self, line)
            try await engine.center(for: try app(p.app, session)).setBadgeCount(p.count)
            return AnyEncodable(Empty())
        case .respond:
            let p = try params(RespondParams.self, line)
            let action: UserAction =
                switch p.action {
                case .open: .open
                case .dismiss: .dismiss
                case .action(let identifier): .action(identifier)
                case .reply(let identifier, let text): .reply(action: identifier, text: text)
                }
            let outcome = try await engine.respond(appIdentifier: p.app, notificationIdentifier: p.notification, action: action)
            let queued = await afterResponse(app: p.app, outcome)
            return AnyEncodable(
                RespondResult(launch: Self.launchName(outcome.launch), response: outcome.response, deliveredToApp: outcome.deliveredToApp, queued: queued))
        case .apps:
            let counts = try await queue.counts()
            var infos: [AppInfo] = []
            for app in try await allApps() {
                let settings = try await store.app(app)?.settings ?? .notDetermined
                infos.append(
                    AppInfo(
                        entry: registry.entry(app) ?? AppEntry(identifier: app), settings: settings, connected: subscribers[app] != nil,
                        queuedResponses: counts[app] ?? 0))
            }
            return AnyEncodable(infos)
        case .registerApp:
            let entry = try params(AppEntry.self, line)
            guard !entry.identifier.isEmpty else { throw IPCError(.invalidParameters, field: "identifier", "an app identifier must not be empty") }
            if let command = entry.launchCommand, command.first?.isEmpty ?? true {
                throw IPCError(.invalidParameters, field: "launchCommand", "a launch command needs a program")
            }
            try registry.register(entry)
            log.info("registered \(entry.identifier)")
            return AnyEncodable(Empty())
        case .setAuthorization:
            let p = try params(SetAuthorizationParams.self, line)
            let asked = try await store.app(p.app)?.requestedOptions ?? []
            var options = asked.subtracting(.provisional)
            if options.isEmpty { options = [.alert, .sound, .badge] }
            let settings: NotificationSettings = p.allowed ? .granted(options) : .denied(options)
            try await engine.center(for: try noted(p.app)).updateSettings(settings)
            log.info("the user \(p.allowed ? "allowed" : "denied") \(p.app)")
            return AnyEncodable(settings)
        case .focus:
            let p = try params(FocusParams.self, line)
            if let on = p.on {
                try registry.setFocus(on)
                await applyEnvironment()
                log.info("focus \(on ? "on" : "off")")
            }
            return AnyEncodable(FocusResult(on: registry.focus, desktopInhibited: desktopState.notificationsInhibited))
        case .status:
            return AnyEncodable(try await status())
        case .acknowledge:
            let p = try params(AcknowledgeParams.self, line)
            guard let app = session.app else { throw IPCError(.noApp, field: "app", "only an app acknowledges its responses") }
            let removed = try await queue.remove(delivery: p.delivery, app: app)
            // A decision for a replayed response (the engine applied the standard behaviour when it was
            // queued) or one that came after the timeout finds nobody waiting.
            decisions.decide(p.delivery, with: p.disposition.map(ResponseDisposition.init) ?? .standard)
            guard removed else {
                throw IPCError(.notFound, field: "delivery", "no queued response of this app has that delivery identifier")
            }
            return AnyEncodable(Empty())
        case .presentationOptions:
            // Answers are normally taken on the reader thread; one that gets here came too late.
            let p = try params(PresentationOptionsParams.self, line)
            guard questions.answer(p.question, with: p.options) else {
                throw IPCError(.notFound, field: "question", "the question was answered or timed out")
            }
            return AnyEncodable(Empty())
        }
    }

    private func noted(_ app: String) throws -> String {
        try registry.note(app)
        return app
    }

    private func apps(_ p: ListParams, _ session: Session) async throws -> [String] {
        if p.all != true, let app = p.app ?? session.app { return [app] }
        return try await allApps()
    }

    private func allApps() async throws -> [String] {
        var apps = registry.apps.map(\.identifier)
        for record in try await store.allApps() where !apps.contains(record.appIdentifier) { apps.append(record.appIdentifier) }
        return apps
    }

    private func status() async throws -> StatusResult {
        var pending = 0, delivered = 0
        let apps = try await allApps()
        for app in apps {
            pending += try await store.pendingRequests(appIdentifier: app).count
            delivered += try await store.deliveredNotifications(appIdentifier: app).count
        }
        var server: StatusResult.Server?
        if let info = await desktop?.notificationServer() {
            server = StatusResult.Server(name: info.name, vendor: info.vendor, version: info.version, capabilities: info.capabilities)
        }
        return StatusResult(
            version: WireFormat.version, processIdentifier: getpid(), storePath: paths.storeFile.path, socketPath: paths.socketFile.path,
            presenter: presenterKind, notificationServer: server, apps: apps.count, pending: pending, delivered: delivered,
            queuedResponses: try await queue.counts().values.reduce(0, +), focus: registry.focus)
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func launchName(_ launch: ResponseOutcome.Launch) -> String {
        switch launch {
        case .none: "none"
        case .background: "background"
        case .foreground: "foreground"
        }
    }

    // MARK: Apps and responses

    private func subscribe(_ app: String, connection: ClientConnection, foreground: Bool, decidesResponses: Bool) async {
        let bridge = AppBridge(
            app: app, connection: connection, daemon: self, questions: questions, timeout: configuration.presentationTimeout,
            decisions: decidesResponses ? (decisions, configuration.responseDecisionTimeout) : nil, log: log)
        subscribers[app] = (connection.id, bridge)
        await engine.setDelegate(bridge, for: app, isForeground: foreground)
        log.info("\(app) connected\(foreground ? " in the foreground" : "")")
    }

    /// Sends the app's queued responses, oldest first; each stays queued until acknowledged.
    private func replay(_ app: String, to connection: ClientConnection) async {
        do {
            let entries = try await queue.entries(app: app)
            if !entries.isEmpty { log.info("replaying \(entries.count) queued response(s) to \(app)") }
            for entry in entries {
                connection.send(EventMessage(event: .response, params: ResponseEvent(delivery: entry.delivery, app: app, response: entry.response, launch: entry.launch)))
            }
        } catch {
            log.error("cannot read the queued responses of \(app): \(error)")
        }
    }

    /// Keeps a response for `app` until it acknowledges it; returns its delivery identifier, `nil` when it
    /// could not be kept.
    func keep(_ response: NotificationResponse, app: String, launch: String?) async -> String? {
        do {
            return try await queue.enqueue(app: app, response: response, launch: launch)
        } catch {
            log.error("cannot queue a response for \(app): \(error)")
            return nil
        }
    }

    /// A response for a running app: kept until it acknowledges it, then sent.
    func queueAndSend(_ response: NotificationResponse, app: String, launch: String?) async {
        do {
            let delivery = try await queue.enqueue(app: app, response: response, launch: launch)
            if let subscriber = subscribers[app], let session = sessions[subscriber.connection] {
                session.connection.send(EventMessage(event: .response, params: ResponseEvent(delivery: delivery, app: app, response: response, launch: launch)))
            }
        } catch {
            log.error("cannot queue a response for \(app): \(error)")
        }
    }

    /// What follows a user's action: a response the app did not receive is queued, and the app is launched
    /// with its registered command when the action asks for it. Returns whether it was queued.
    func afterResponse(app: String, _ outcome: ResponseOutcome) async -> Bool {
        guard let response = outcome.response, !outcome.deliveredToApp else { return false }
        let launch = outcome.launch == .none ? nil : Self.launchName(outcome.launch)
        await queueAndSend(response, app: app, launch: launch)
        if let launch, subscribers[app] == nil {
            if let command = registry.entry(app)?.launchCommand, !command.isEmpty {
                AppLauncher.launch(command, reason: launch, log: log)
            } else {
                log.info("a response for \(app) waits until it connects (no launch command registered)")
            }
        }
        return true
    }

    // MARK: Environment

    func desktopChanged(_ state: DesktopEnvironmentState) async {
        desktopState = state
        await applyEnvironment()
    }

    /// The engine's focus is on while the user's switch (`chime focus on`) or the desktop's Do Not
    /// Disturb is on.
    func applyEnvironment() async {
        var environment = await engine.environment
        environment.focus = registry.focus || desktopState.notificationsInhibited == true ? .on(allowsTimeSensitive: true) : .off
        if let locked = desktopState.sessionLocked { environment.isLocked = locked }
        await engine.updateEnvironment(environment)
    }

    func reload() async {
        do {
            try registry.reload()
            await applyEnvironment()
            log.info("reloaded \(paths.registryFile.path): \(registry.apps.count) app(s), focus \(registry.focus ? "on" : "off")")
        } catch {
            log.error("cannot reload \(paths.registryFile.path), keeping the registry as it was: \(error)")
        }
    }
}

/// Any encodable result, so `perform` returns one type.
struct AnyEncodable: Encodable {
    private let value: any Encodable

    init(_ value: some Encodable) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
