import ChimeDesktop
import ChimeEngine
import ChimeIPC
import ChimeSQLite
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
        case .paths(let paths):
            print(DaemonCommand.describe(paths))
            return 0
        case .run(let configuration):
            let log = DaemonLog(verbose: configuration.verbose)
            do {
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

        try FileManager.default.createDirectory(at: paths.attachmentsDirectory, withIntermediateDirectories: true)
        try prepareRuntimeDirectory(paths.runtimeDirectory)
        try claimSocket(paths.socketFile, log: log)

        let registry = try AppRegistry(file: paths.registryFile)
        let store = try await SQLiteNotificationStore(path: paths.storeFile.path)
        let queue = try await ResponseQueue(path: paths.responseQueueFile.path)

        let sink = ResponseSink()
        var desktop: DesktopPresenter?
        if configuration.presenter != .log {
            let presenter = DesktopPresenter(
                configuration: .init(
                    apps: { identifier in
                        let entry = registry.entry(identifier)
                        let icon = entry?.iconPath.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0).absoluteString : $0 }
                        return DesktopAppInfo(displayName: entry?.displayName, iconName: icon)
                    },
                    callTimeout: .seconds(3),
                    // Without inline replies the server cannot take the text: say how to send it.
                    onReplyNeeded: { request in
                        log.warning(
                            "\(request.appIdentifier)/\(request.notificationIdentifier): “\(request.actionTitle)” takes a typed reply, which this notification server cannot collect; send it with: chime respond --app '\(request.appIdentifier)' --id '\(request.notificationIdentifier)' --action '\(request.actionIdentifier)' --text '…'")
                    },
                    onResponse: { app, outcome in sink.forward(app: app, outcome) }),
                log: log)
            if let server = await presenter.notificationServer() {
                log.info("showing notifications through \(server.name.isEmpty ? "the notification server" : server.name) (\(server.capabilities.joined(separator: ", ")))")
                desktop = presenter
            } else if configuration.presenter == .desktop {
                log.warning("no notification server answers on the session bus; notifications are dropped until one does")
                desktop = presenter
            } else {
                log.info("no notification server on the session bus: logging notifications instead")
            }
        }
        let presenter: any NotificationPresenter = desktop ?? LogPresenter(log: log)
        let authorization: any AuthorizationResolver = desktop ?? configuration.authorization.resolver

        var engineConfiguration = EngineConfiguration()
        engineConfiguration.attachmentsDirectory = paths.attachmentsDirectory
        let engine = NotificationEngine(
            store: store, clock: SystemClock(), presenter: presenter, authorization: authorization, log: log, configuration: engineConfiguration)

        let token = try writeToken(paths.tokenFile)
        let daemon = Daemon(
            configuration: configuration, log: log, token: token, store: store, engine: engine, registry: registry, queue: queue, desktop: desktop)
        sink.attach(daemon)
        await daemon.applyEnvironment()

        var monitorTask: Task<Void, Never>?
        var monitor: EnvironmentMonitor?
        if desktop != nil {
            let environmentMonitor = EnvironmentMonitor(log: log)
            monitor = environmentMonitor
            monitorTask = Task {
                await environmentMonitor.start()
                for await state in await environmentMonitor.updates() { await daemon.desktopChanged(state) }
            }
        }

        await engine.start()
        let listener = try SocketListener(path: paths.socketFile.path)
        let stopped = AsyncStream<Void>.makeStream()
        listener.start(accepted: { socket in Task { await daemon.accept(socket) } }, stopped: { stopped.continuation.finish() })
        log.info("chimed \(WireFormat.version) listening on \(paths.socketFile.path) (store \(paths.storeFile.path), presenter \(desktop == nil ? "log" : "desktop"))")

        for await signal in signals.stream {
            if signal == SIGHUP {
                await daemon.reload()
                continue
            }
            log.info("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            break
        }

        listener.stop()
        for await _ in stopped.stream {}
        unlink(paths.socketFile.path)
        listener.release()
        await daemon.closeAll()
        monitorTask?.cancel()
        await monitor?.stop()
        await engine.stop()
        await desktop?.idle()
        await queue.close()
        await store.close()
        log.info("stopped")
    }

    /// Creates the runtime folder with mode 0700, and refuses one that another user owns.
    static func prepareRuntimeDirectory(_ directory: URL) throws {
        let path = directory.path
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw DurableFile.posixError("cannot read \(path)") }
        guard info.st_uid == getuid() else { throw DaemonError("\(path) belongs to another user; refusing to use it") }
        chmod(path, 0o700)
    }

    /// Refuses to start when a daemon answers on the socket; removes a socket file nobody answers on.
    static func claimSocket(_ socket: URL, log: DaemonLog) throws {
        guard FileManager.default.fileExists(atPath: socket.path) else { return }
        if let live = try? UnixSocket.connect(to: socket.path) {
            live.close()
            throw DaemonError("another chimed is already running on \(socket.path)")
        }
        log.info("removing the stale socket \(socket.path)")
        unlink(socket.path)
    }

    /// 32 random bytes as hex, written atomically with mode 0600.
    static func writeToken(_ file: URL) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        try DurableFile.replace(file, with: Data(token.utf8), mode: 0o600)
        return token
    }
}

/// Hands the desktop presenter's response outcomes to the daemon, which exists only after the presenter.
final class ResponseSink: Sendable {
    private let daemon = Mutex<Daemon?>(nil)

    func attach(_ daemon: Daemon) {
        self.daemon.withLock { $0 = daemon }
    }

    func forward(app: String, _ outcome: ResponseOutcome) {
        guard let daemon = daemon.withLock({ $0 }) else { return }
        Task { _ = await daemon.afterResponse(app: app, outcome) }
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
