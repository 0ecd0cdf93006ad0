import ChimeAPI
import ChimeDelivery
import ChimeDesktop
import ChimeEngine
import ChimeSQLite
import ChimeServer
import Dispatch
import Foundation
import Synchronization

/// `chimed`'s whole life: parse, start, serve until SIGTERM or SIGINT, stop. Returns the exit code.
public enum DaemonMain {
    public static func run(_ arguments: [String]) async -> Int32 {
        let command: DaemonCommand
        do {
            command = try DaemonCommand.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("chimed: error: \(error)\nRun chimed --help for usage.\n".utf8))
            return 64
        }
        switch command {
        case .help:
            print(DaemonCommand.helpText)
            return 0
        case .version:
            print("chimed \(WireFormat.version)")
            return 0
        case .paths(let paths):
            print(DaemonCommand.describe(paths))
            return 0
        case .createTenant(let database, let tenant, let name):
            return await ServerModeMain.createTenant(database: database, tenant: tenant, name: name)
        case .run(let configuration):
            let log = DaemonLog(verbose: configuration.verbose)
            do {
                if configuration.serverMode {
                    try await ServerModeMain.serve(configuration, log: log)
                    return 0
                }
                try await serve(configuration, log: log)
                return 0
            } catch {
                log.error("\(error)")
                return 1
            }
        }
    }

    static func serve(_ configuration: DaemonConfiguration, log: DaemonLog) async throws {
        let paths = configuration.paths
        // Signals first, so an early SIGTERM is not lost; the default handlers must be off for the sources.
        let signals = SignalSources(log: log)

        do {
            try RuntimeDirectory.prepare(paths.runtimeDirectory)
        } catch {
            throw DaemonError("refusing the runtime folder: \(error)")
        }
        // Before anything else is written: of two daemons only the one holding the lock goes on.
        let lock = try InstanceLock(file: paths.lockFile)
        let descriptors = FileDescriptorLimit.raise()
        try prepareDataFolder(paths, log: log)

        let registry = try AppRegistry(file: paths.registryFile)
        let store = try await SQLiteNotificationStore(path: paths.storeFile.path)
        if store.foundEmptyFile {
            log.warning("\(paths.storeFile.path) was an empty file (0 bytes); a new store was started in it")
        }
        let queue = try await SQLiteResponseQueue(path: paths.responseQueueFile.path)

        var hubConfiguration = EventHub.Configuration()
        hubConfiguration.streamLimit = configuration.maximumEventStreams
        let events = EventHub(configuration: hubConfiguration)
        let sink = ServiceLink(log: log)
        store.onQuarantine { records in
            for record in records {
                log.warning("set aside a damaged \(record) (kept byte for byte in the quarantine table; everything else is served)")
            }
            sink.listsChanged()
        }
        let desktop = await desktopPresenter(configuration, registry: registry, sink: sink, log: log)
        let listEvents = ListEventsPresenter(events: events) { sink.listsChanged() }
        let browserPush = BrowserPushPresenter(
            book: BrowserPushBook(file: paths.webPushFile) { log.warning($0) },
            sender: WebhookSender(certificateAuthorities: configuration.outboundCertificateAuthorities),
            policy: OutboundAddressPolicy(operatorAllowed: configuration.webhookAllowed.compactMap(IPNetwork.init)), log: log)
        let presenter = PresenterFanOut([desktop ?? LogPresenter(log: log), listEvents, browserPush])
        // Whoever asks the user, every open question is also listed for the web center and the CLI.
        let questions = AuthorizationQuestions(asking: desktop ?? configuration.authorization.resolver, events: events)

        var engineConfiguration = EngineConfiguration()
        engineConfiguration.attachmentsDirectory = paths.attachmentsDirectory
        engineConfiguration.presentationJournal = URL(fileURLWithPath: paths.storeFile.path + "-presented")
        // The service bounds a connected app's answer itself (and says so); the engine's bound only backs it up.
        engineConfiguration.willPresentTimeout = Double(configuration.presentationTimeout.components.seconds) + 1
        let engine = NotificationEngine(
            store: store, clock: SystemClock(), presenter: presenter, authorization: questions, log: log, configuration: engineConfiguration)

        let locations = await LocationFeed(engine: engine, desktopID: "chimed", log: log)

        var serviceConfiguration = NotificationService.Configuration()
        serviceConfiguration.presentationTimeout = configuration.presentationTimeout
        serviceConfiguration.responseDecisionTimeout = configuration.responseDecisionTimeout
        let identity = NotificationService.Identity(
            storePath: paths.storeFile.path, socketPath: paths.socketFile.path, httpAddress: nil, presenter: desktop == nil ? "log" : "desktop",
            authorization: desktop == nil ? configuration.authorization.rawValue : "desktop",
            notificationServer: {
                await desktop?.notificationServer().map {
                    StatusResult.Server(name: $0.name, vendor: $0.vendor, version: $0.version, capabilities: $0.capabilities)
                }
            },
            location: { await locations.status })
        let apnsDoor: APNsDoorCredentials
        do {
            apnsDoor = try APNsDoorCredentials(file: paths.apnsFile)
        } catch {
            // Set aside, not fatal: the endpoint starts over (a key given again, new device tokens), and
            // everything else is served.
            let aside = paths.apnsFile.path + ".damaged"
            rename(paths.apnsFile.path, aside)
            log.warning(
                "\(paths.apnsFile.path) could not be read (\(error)); moved it to \(aside): give the APNs provider key again (chime apps apns-key set), "
                    + "and the apps' device tokens are new")
            apnsDoor = try APNsDoorCredentials(file: paths.apnsFile)
        }
        let service = NotificationService(
            engine: engine, store: store, registry: registry, queue: queue, events: events, launcher: AppLauncher(log: log), identity: identity,
            log: log, permissionQuestions: questions, apnsDoor: apnsDoor, configuration: serviceConfiguration)
        sink.attach(service)
        await service.applyEnvironment()

        var monitorTask: Task<Void, Never>?
        var monitor: EnvironmentMonitor?
        if desktop != nil {
            let environmentMonitor = EnvironmentMonitor(log: log)
            monitor = environmentMonitor
            monitorTask = Task {
                await environmentMonitor.start()
                for await state in await environmentMonitor.updates() {
                    await service.desktopChanged(inhibited: state.doNotDisturb, locked: state.sessionLocked)
                }
            }
        }

        // The token, then the socket: a client that finds the socket finds this daemon's token beside it.
        let token = try writeToken(paths.tokenFile)
        let handler = APIHandler(
            service: service, access: .init(token: token, userID: getuid(), hosts: [], procRoot: configuration.procRoot), log: log, browserPush: browserPush)
        var server = HTTPServer.Configuration()
        // Each listener may hold this many; the rest of the descriptors stay for the store, the bus, launches.
        server.connectionLimit = max(16, min(configuration.maximumConnections, (descriptors - 128) / (configuration.http == nil ? 1 : 2)))
        server.idleTimeout = configuration.idleTimeout
        server.maximumBodySize = WireFormat.maximumBodySize

        await engine.start()
        // GeoClue may take seconds to answer: the API does not wait for it.
        let locationStart = Task { await locations.check() }
        // The engine takes answers now: buttons of what the last run showed work again.
        await desktop?.restoreShownNotifications()
        unlink(paths.socketFile.path)  // a killed daemon's: the lock says nobody serves it
        let socketServer = try HTTPServer(listening: try ListeningSocket.unix(path: paths.socketFile.path), configuration: server, handler: handler, log: log)
        var tcpServer: HTTPServer?
        var address = ""
        if let http = configuration.http {
            if !http.isLoopback {
                log.warning(
                    "serving the API and the web center on \(http), which other machines can reach, over plain HTTP (--http-allow-remote): "
                        + "anyone on the network path can read notifications and take over a session")
            }
            let socket = try Self.listen(http, rememberedIn: paths.httpPortFile, log: log)
            let port = socket.port ?? http.port
            handler.allowHosts(http.isLoopback ? ["\(http.host):\(port)", "localhost:\(port)"] : ["\(http.host):\(port)"], webOrigin: "http://\(http.host):\(port)")
            browserPush.serve(origin: "http://\(http.host):\(port)")
            tcpServer = try HTTPServer(listening: socket, configuration: server, handler: handler, log: log)
            address = "\(http.host):\(port)"
            service.setHTTPAddress(address)
            sink.webLinks { fragment in handler.webLoginURL(fragment: fragment) }
            try DurableFile.replace(paths.httpAddressFile, with: Data("http://\(address)\n".utf8), mode: 0o600)
        }
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                events.heartbeat()
            }
        }
        log.info(
            "chimed \(WireFormat.version) listening on \(paths.socketFile.path)\(address.isEmpty ? "" : " and http://\(address)") (store \(paths.storeFile.path), presenter \(desktop == nil ? "log" : "desktop"), \(server.connectionLimit) connections)"
        )

        for await signal in signals.stream {
            if signal == SIGHUP {
                do {
                    try await service.reloadRegistry()
                } catch {
                    log.error("cannot reload \(paths.registryFile.path), keeping the registry as it was: \(error)")
                }
                continue
            }
            log.info("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            break
        }

        // No new clients find it from here on; the streams end so their connections can close.
        unlink(paths.socketFile.path)
        unlink(paths.tokenFile.path)
        unlink(paths.httpAddressFile.path)
        heartbeat.cancel()
        events.closeAll()
        await socketServer.stop()
        await tcpServer?.stop()
        monitorTask?.cancel()
        await monitor?.stop()
        locationStart.cancel()
        await locations.stop()
        await engine.stop()
        await desktop?.idle()
        await desktop?.saveShownNotifications()
        await queue.close()
        await store.close()
        withExtendedLifetime(lock) {}
        log.info("stopped")
    }

    /// The TCP listener on `http`; when any port will do (port 0), first on the port the last run had, so
    /// the web center keeps its address. That port is remembered for the next run.
    static func listen(_ http: HTTPAddress, rememberedIn file: URL, log: DaemonLog) throws -> ListeningSocket {
        var socket: ListeningSocket?
        if http.port == 0, let text = try? String(contentsOf: file, encoding: .utf8), let port = UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            port > 0
        {
            socket = try? ListeningSocket.tcp(host: http.host, port: port)
            if socket == nil { log.info("port \(port), the web center's last address, is taken: chimed serves another (pages and pushes of the old address end)") }
        }
        let listening = try socket ?? ListeningSocket.tcp(host: http.host, port: http.port)
        if http.port == 0, let port = listening.port {
            try? DurableFile.replace(file, with: Data("\(port)\n".utf8), mode: 0o600)
        }
        return listening
    }

    /// The desktop presenter, when one should be used: `desktop`, or `auto` and a notification server
    /// answers on the session bus.
    /// Creates the data folder private to the user, and makes one that earlier versions left readable by
    /// others private, saying so.
    static func prepareDataFolder(_ paths: DaemonPaths, log: DaemonLog) throws {
        do {
            try PrivateFiles.makeFolder(paths.attachmentsDirectory)
        } catch {
            throw DaemonError("cannot prepare the data folder: \(error)")
        }
        let repaired = PrivateFiles.repair(paths.dataDirectory)
        if repaired > 0 {
            log.warning("\(paths.dataDirectory.path) was readable by other users; made it private (\(repaired) files and folders now 0600/0700)")
        }
    }

    static func desktopPresenter(_ configuration: DaemonConfiguration, registry: AppRegistry, sink: ServiceLink, log: DaemonLog) async -> DesktopPresenter? {
        guard configuration.presenter != .log else { return nil }
        var desktopConfiguration = DesktopPresenter.Configuration(
            apps: { identifier in
                let entry = registry.entry(identifier)
                let icon = entry?.iconPath.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0).absoluteString : $0 }
                return DesktopAppInfo(displayName: entry?.displayName, iconName: icon)
            },
            callTimeout: .seconds(3),
            // Without inline replies the server cannot take the text: a dialog asks for it (ReplyPrompt).
            onReplyNeeded: { request in sink.replyNeeded(request) },
            onResponse: { app, outcome in sink.forward(app: app, outcome) })
        desktopConfiguration.shownFile = configuration.paths.dataDirectory.appendingPathComponent("desktop-shown.json")
        let presenter = DesktopPresenter(configuration: desktopConfiguration, log: log)
        sink.replies(
            ReplyPrompt(
                searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", log: log,
                send: { request, text in await sink.reply(request, text: text) },
                notice: { [weak presenter] summary, body in presenter?.notice(summary: summary, body: body) }))
        if let server = await presenter.notificationServer() {
            log.info("showing notifications through \(server.name.isEmpty ? "the notification server" : server.name) (\(server.capabilities.joined(separator: ", ")))")
            return presenter
        }
        if configuration.presenter == .desktop {
            log.warning("no notification server answers on the session bus; notifications are dropped until one does")
            return presenter
        }
        log.info("no notification server on the session bus: logging notifications instead")
        return nil
    }

    /// 32 random bytes as hex, written atomically with mode 0600 (only the lock's holder writes it).
    static func writeToken(_ file: URL) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        try DurableFile.replace(file, with: Data(token.utf8), mode: 0o600)
        return token
    }
}

/// Hands what the desktop presenter hears (the user's answers) and what the list presenter sees to the
/// service, which exists only after the presenters.
final class ServiceLink: Sendable {
    private let service = Mutex<NotificationService?>(nil)
    private let prompt = Mutex<ReplyPrompt?>(nil)
    private let log: DaemonLog

    init(log: DaemonLog) {
        self.log = log
    }

    func replies(_ prompt: ReplyPrompt) {
        self.prompt.withLock { $0 = prompt }
    }

    /// The web center's links, once it is served: the reply prompt opens it at the reply box.
    func webLinks(_ link: @escaping @Sendable (String) -> String?) {
        prompt.withLock { $0?.webLink = link }
    }

    /// The server cannot take a typed reply: the prompt asks for it.
    func replyNeeded(_ request: ReplyRequest) {
        prompt.withLock { $0 }?.handle(request)
    }

    /// Sends a reply typed in the prompt, as the user's response.
    func reply(_ request: ReplyRequest, text: String) async {
        guard let service = service.withLock({ $0 }) else { return }
        do {
            _ = try await service.respond(
                request.appIdentifier, notification: request.notificationIdentifier, action: .reply(action: request.actionIdentifier, text: text))
        } catch {
            log.warning("the reply typed for \(request.appIdentifier)/\(request.notificationIdentifier) was not sent: \(error)")
        }
    }

    func attach(_ service: NotificationService) {
        self.service.withLock { $0 = service }
    }

    func forward(app: String, _ outcome: ResponseOutcome) {
        guard let service = service.withLock({ $0 }) else { return }
        Task { await service.afterResponse(app: app, outcome) }
    }

    func listsChanged() {
        service.withLock { $0 }?.listsChanged()
    }
}

/// SIGTERM, SIGINT and SIGHUP as a stream: default handlers ignored, DispatchSource handlers that only
/// yield the signal number.
final class SignalSources: Sendable {
    let stream: AsyncStream<Int32>
    // DispatchSource is thread-safe; the sources are only kept alive here and never mutated.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    init(log: DaemonLog) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .unbounded)
        self.stream = stream
        let queue = DispatchQueue(label: "chimed.signals")
        sources = [SIGTERM, SIGINT, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }
}
