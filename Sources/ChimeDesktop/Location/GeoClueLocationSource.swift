public import ChimeCore
import Foundation
import Synchronization

/// Positions from GeoClue 2 (`org.freedesktop.GeoClue2` on the system bus), the location service Linux
/// desktops, their apps and xdg-desktop-portal use: one client, started on demand and stopped when no
/// longer needed, its fixes handed to `onFix`.
///
/// Starting creates a client (`Manager.CreateClient`), names the program (`DesktopId`, which GeoClue's
/// configuration and agent decide on), asks for exact accuracy (GeoClue gives what the user allows and the
/// hardware has), follows `LocationUpdated` from GeoClue's own connection only (another peer cannot fake a
/// position), and calls `Start`. Each update's `Location` object is read in one `GetAll`: latitude,
/// longitude, accuracy and timestamp. When GeoClue is not there or refuses, `start` says which and nothing
/// runs; the caller may try again later. When GeoClue goes away while running (it exits or restarts, or
/// the bus does), the source stops by itself and calls `onLost`.
///
/// Starts and stops run one at a time, in the order they were asked for.
public actor GeoClueLocationSource {
    public enum State: Sendable, Hashable {
        case stopped
        /// A client is started; fixes arrive as GeoClue has them.
        case running
        /// GeoClue cannot be reached: not installed, not activatable, or no system bus.
        case unavailable(String)
        /// GeoClue refused this program (its configuration or agent denies location).
        case denied(String)
    }

    static let service = "org.freedesktop.GeoClue2"
    static let managerPath = "/org/freedesktop/GeoClue2/Manager"
    static let managerInterface = "org.freedesktop.GeoClue2.Manager"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"
    static let locationInterface = "org.freedesktop.GeoClue2.Location"
    /// GeoClue's `GCLUE_ACCURACY_LEVEL_EXACT`.
    static let exactAccuracy: UInt32 = 8

    private let bus: BusAddress
    private let desktopID: String
    private let timeout: Duration
    private let startTimeout: Duration
    private let onFix: @Sendable (LocationFix) async -> Void
    private let onLost: @Sendable () async -> Void

    private var connection: BusConnection?
    private var client: String?
    private var matches: [MatchToken] = []
    private var listener: Task<Void, Never>?
    /// From when the client's signals are matched until it is torn down: fixes are taken (one may come
    /// before `Start` answers).
    private var listening = false
    /// The last start or stop asked for, which the next one waits for.
    private var lastOperation: Task<Void, Never>?
    /// Counts clients, so a listener of one torn down never ends a later one.
    private var generation = 0
    /// The connection of a start under way, which `abandonStarts` closes from outside the actor, and
    /// whether starts are abandoned for good.
    private let starting = Mutex<(connection: BusConnection?, abandoned: Bool)>((nil, false))
    public private(set) var state = State.stopped

    /// - Parameters:
    ///   - bus: where GeoClue is: the system bus, or a test's private one.
    ///   - desktopID: the program's desktop file name without `.desktop`, as GeoClue's configuration
    ///     (`/etc/geoclue/geoclue.conf`) and agent know it.
    ///   - timeout: how long any call to GeoClue may take, but `Start`.
    ///   - startTimeout: how long `Start` may take: GeoClue answers it once its agent has asked the user,
    ///     who is given two minutes, as CoreLocation's permission prompt waits for the user.
    public init(
        bus: BusAddress = .system, desktopID: String, timeout: Duration = .seconds(5), startTimeout: Duration = .seconds(120),
        onFix: @escaping @Sendable (LocationFix) async -> Void, onLost: @escaping @Sendable () async -> Void = {}
    ) {
        self.bus = bus
        self.desktopID = desktopID
        self.timeout = timeout
        self.startTimeout = max(timeout, startTimeout)
        self.onFix = onFix
        self.onLost = onLost
    }

    /// Starts a client, unless one runs; returns the state it ends in.
    @discardableResult
    public func start() async -> State {
        await inTurn { await $0.startNow() }
        return state
    }

    /// Stops and deletes the client; no fix is handed on after this returns but one already being handed.
    public func stop() async {
        await inTurn { await $0.stopNow() }
    }

    /// Ends a start under way at once, as if GeoClue could not be reached, and every later one: a `Start`
    /// may wait minutes for the user to answer GeoClue's agent, which a program shutting down does not
    /// wait out. A client already running is left for `stop()` to end; one whose `Start` has just been
    /// answered may be cut off instead, which ends it as if GeoClue had gone.
    public nonisolated func abandonStarts() {
        starting.withLock {
            $0.abandoned = true
            $0.connection?.close()
        }
    }

    /// Runs `operation` after every start and stop asked for before it.
    private func inTurn(_ operation: @escaping @Sendable (GeoClueLocationSource) async -> Void) async {
        let previous = lastOperation
        let turn = Task {
            await previous?.value
            await operation(self)
        }
        lastOperation = turn
        await turn.value
    }

    private func startNow() async {
        if state == .running { return }
        do throws(DesktopError) {
            let connection = try await BusConnection.open(bus, name: "chime.geoclue", timeout: timeout)
            self.connection = connection
            let abandoned = starting.withLock {
                $0.connection = connection
                return $0.abandoned
            }
            defer { starting.withLock { $0.connection = nil } }
            if abandoned { connection.close() }
            // On the well-known name, so the bus starts GeoClue if it is activatable and not running.
            let created = try await connection.call(
                destination: Self.service, path: Self.managerPath, interface: Self.managerInterface, member: "CreateClient", timeout: timeout)
            guard let client = created.values.first?.string else { throw DesktopError(.invalidMessage, "CreateClient did not return a path") }
            self.client = client
            let owner = try await connection.nameOwner(Self.service, timeout: timeout)
            try await set("DesktopId", .string(desktopID), on: client, owner: owner, connection)
            try await set("RequestedAccuracyLevel", .uint32(Self.exactAccuracy), on: client, owner: owner, connection)
            let sink = SignalSink()
            matches.append(
                try await connection.addMatch(SignalRule(sender: owner, path: client, interface: Self.clientInterface, member: "LocationUpdated"), to: sink))
            // GeoClue exiting or restarting ends this client with it.
            matches.append(
                try await connection.addMatch(
                    SignalRule(
                        sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                        arg0: Self.service), to: sink))
            listening = true
            generation += 1
            let mine = generation
            listener = Task { [weak self] in
                for await signal in sink.signals {
                    guard let self else { return }
                    if signal.member == "NameOwnerChanged" { break }
                    guard let location = signal.arguments.dropFirst().first?.string else { continue }
                    await self.read(location, owner: owner)
                }
                // The stream ended (the bus went away) or GeoClue's owner changed, unless this was stopped.
                guard !Task.isCancelled else { return }
                await self?.lost(generation: mine)
            }
            _ = try await connection.call(destination: owner, path: client, interface: Self.clientInterface, member: "Start", timeout: startTimeout)
            state = .running
        } catch {
            let reason = error.code == .remote ? "\(error.name ?? "an error"): \(error.message)" : error.message
            let denied = error.code == .remote && (error.name == "org.freedesktop.DBus.Error.AccessDenied" || error.name == "org.freedesktop.DBus.Error.AuthFailed")
            await tearDown()
            state = denied ? .denied(reason) : .unavailable(reason)
        }
    }

    private func stopNow() async {
        await tearDown()
        state = .stopped
    }

    /// GeoClue went away under the running client of `generation`.
    private func lost(generation: Int) async {
        guard listening, generation == self.generation else { return }
        await inTurn { source in await source.tearDownLost(generation: generation) }
        await onLost()
    }

    private func tearDownLost(generation: Int) async {
        guard listening, generation == self.generation else { return }
        await tearDown()
        state = .unavailable("GeoClue went away")
    }

    private func tearDown() async {
        listening = false
        listener?.cancel()
        listener = nil
        if let connection {
            for match in matches { connection.removeMatch(match) }
            if let client {
                _ = try? await connection.call(destination: Self.service, path: client, interface: Self.clientInterface, member: "Stop", timeout: timeout)
                _ = try? await connection.call(
                    destination: Self.service, path: Self.managerPath, interface: Self.managerInterface, member: "DeleteClient",
                    arguments: [.objectPath(client)], timeout: timeout)
            }
            connection.close()
        }
        (connection, client, matches) = (nil, nil, [])
    }

    private func set(_ property: String, _ value: BusValue, on client: String, owner: String, _ connection: BusConnection) async throws(DesktopError) {
        _ = try await connection.call(
            destination: owner, path: client, interface: "org.freedesktop.DBus.Properties", member: "Set",
            arguments: [.string(Self.clientInterface), .string(property), .variant(value)], timeout: timeout)
    }

    /// Reads a `Location` object and hands on its fix; one without a valid position is dropped.
    private func read(_ location: String, owner: String) async {
        guard listening, let connection else { return }
        guard
            let reply = try? await connection.call(
                destination: owner, path: location, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                arguments: [.string(Self.locationInterface)], timeout: timeout),
            let properties = reply.values.first?.dictionary,
            let latitude = properties["Latitude"]?.double, let longitude = properties["Longitude"]?.double,
            let accuracy = properties["Accuracy"]?.double
        else { return }
        var timestamp = Date()
        if case .structure(let fields)? = properties["Timestamp"], fields.count == 2, let seconds = fields[0].uint64, let micros = fields[1].uint64 {
            timestamp = Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
        }
        let fix = LocationFix(latitude: latitude, longitude: longitude, accuracy: accuracy, timestamp: timestamp)
        guard fix.isValid, listening else { return }
        await onFix(fix)
    }
}
