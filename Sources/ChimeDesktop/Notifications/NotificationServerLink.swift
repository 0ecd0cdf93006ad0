import ChimeEngine

/// The freedesktop notification server as one connection sees it: who owns
/// `org.freedesktop.Notifications` now, what it can do, and the signals it sends.
///
/// - The connection is opened on first use and again after it ended (the bus went away).
/// - The server is looked up on first use: its unique name (`GetNameOwner`; if nobody owns the name,
///   one `GetCapabilities` call gives D-Bus activation a chance to start a server), then its
///   capabilities, read once. Its signals are matched on that unique name, so a peer that merely sends
///   signals on the same path and interface is ignored.
/// - `NameOwnerChanged` for the name tells when the server quits or is replaced: the link forgets it
///   (and its capabilities), reports `.serverChanged`, and looks again on next use.
actor NotificationServerLink {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"

    /// The server in use.
    struct Server: Sendable, Hashable {
        /// Its unique name on the bus.
        let owner: String
        let capabilities: ServerCapabilities
        /// The name `GetServerInformation` gives (`dunst`, `gnome-shell`); empty when it did not say.
        var name = ""

        /// Whether a notification sent without a banner (low urgency) stays in the server's own list
        /// without popping up. GNOME Shell does; dunst, mako and most others show whatever they are sent,
        /// so there a notification meant for the list only is not sent at all.
        var listsQuietNotificationsQuietly: Bool { name == "gnome-shell" }
    }

    enum Event: Sendable, Hashable {
        case signal(ServerSignal)
        /// The server quit, or another took its place: its notifications are gone.
        case serverChanged
    }

    /// The server's signals and changes, in the order they came; ends when the link is released.
    nonisolated let events: AsyncStream<Event>
    private nonisolated let eventContinuation: AsyncStream<Event>.Continuation
    private let address: BusAddress
    private let timeout: Duration
    private let log: any EngineLog

    private var connection: BusConnection?
    private var server: Server?
    private var serverMatch: MatchToken?
    /// The lookup in progress, which concurrent callers share.
    private var lookup: Task<(BusConnection, Server)?, Never>?
    /// Why the last lookup found no bus or no server, for the warning about what was dropped.
    private(set) var lastFailure: String?

    init(address: BusAddress, timeout: Duration, log: any EngineLog) {
        self.address = address
        self.timeout = timeout
        self.log = log
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    deinit {
        eventContinuation.finish()
        connection?.close()
    }

    /// The connection and the server, or `nil` when there is no bus or no server (`lastFailure` says
    /// which).
    func current() async -> (BusConnection, Server)? {
        if let connection, connection.isConnected, let server { return (connection, server) }
        if let lookup { return await lookup.value }
        let task = Task { await self.look() }
        lookup = task
        let result = await task.value
        lookup = nil
        return result
    }

    /// Calls a method of the server's interface on its unique name, so a replacement server never gets
    /// a call meant for the old one.
    func call(_ member: String, _ arguments: [BusValue], on server: Server, through connection: BusConnection) async throws(DesktopError) -> BusReply {
        try await connection.call(
            destination: server.owner, path: Self.path, interface: Self.interface, member: member, arguments: arguments, timeout: timeout)
    }

    /// The connection alone (for badges, which need no server), or `nil` when there is no bus.
    func bus() async -> BusConnection? {
        do {
            return try await connected()
        } catch {
            lastFailure = "cannot reach the \(BusLoop.describe(address)): \(error.message)"
            return nil
        }
    }

    // MARK: - Looking up

    private func look() async -> (BusConnection, Server)? {
        let connection: BusConnection
        do {
            connection = try await connected()
        } catch {
            lastFailure = "cannot reach the \(BusLoop.describe(address)): \(error.message)"
            return nil
        }
        if let server { return (connection, server) }
        do throws(DesktopError) {
            var owner: String
            do throws(DesktopError) {
                owner = try await connection.nameOwner(Self.name, timeout: timeout)
            } catch where error.code == .remote {
                // Nobody owns the name: a call to it lets the bus start an activatable server.
                _ = try await connection.call(
                    destination: Self.name, path: Self.path, interface: Self.interface, member: "GetCapabilities", timeout: timeout)
                owner = try await connection.nameOwner(Self.name, timeout: timeout)
            }
            let match = try await connection.addMatch(SignalRule(sender: owner, path: Self.path, interface: Self.interface), to: signalSink)
            let reply: BusReply
            do throws(DesktopError) {
                reply = try await connection.call(
                    destination: owner, path: Self.path, interface: Self.interface, member: "GetCapabilities", timeout: timeout)
            } catch {
                connection.removeMatch(match)
                throw error
            }
            var found = Server(owner: owner, capabilities: ServerCapabilities(reply.values.first?.strings ?? []))
            let information = try? await connection.call(
                destination: owner, path: Self.path, interface: Self.interface, member: "GetServerInformation", timeout: timeout)
            found.name = information?.values.first?.string ?? ""
            if let serverMatch { connection.removeMatch(serverMatch) }
            serverMatch = match
            server = found
            lastFailure = nil
            return (connection, found)
        } catch {
            if error.code == .remote {
                lastFailure = "no notification server on the \(BusLoop.describe(address)) (nothing owns \(Self.name): \(error.name ?? error.message))"
            } else {
                lastFailure = "the notification server on the \(BusLoop.describe(address)) did not answer: \(error)"
            }
            return nil
        }
    }

    /// Where the connection's matches deliver; replaced with the connection.
    private var signalSink = SignalSink()

    /// The live connection, opened (with its `NameOwnerChanged` match) when there is none.
    private func connected() async throws(DesktopError) -> BusConnection {
        if let connection, connection.isConnected { return connection }
        if connection != nil { forgetServer() }  // the old connection ended, and the server with it
        let opened = try await BusConnection.open(address, name: "chime.desktop.notifications", timeout: timeout)
        let sink = SignalSink()
        signalSink = sink
        _ = try await opened.addMatch(
            SignalRule(
                sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameOwnerChanged", arg0: Self.name),
            to: sink)
        connection = opened
        Task { [weak self] in
            for await signal in sink.signals {
                guard let self else { return }
                await self.received(signal, on: opened)
            }
            await self?.connectionEnded(opened)
        }
        return opened
    }

    private func received(_ signal: BusSignal, on connection: BusConnection) {
        guard connection === self.connection else { return }
        if signal.member == "NameOwnerChanged" && signal.sender == "org.freedesktop.DBus" {
            // (name, old owner, new owner): any change means the server we knew is not the one there now.
            guard let server, signal.arguments.count == 3, signal.arguments[1].string == server.owner || signal.arguments[2].string != server.owner
            else { return }
            log.info("the desktop notification server \(server.owner) went away; its notifications are gone")
            forgetServer()
            return
        }
        // The match admits only the server's unique name; checked again so nothing else ever counts.
        guard let server, signal.sender == server.owner, let serverSignal = ServerSignal(signal) else { return }
        eventContinuation.yield(.signal(serverSignal))
    }

    private func connectionEnded(_ ended: BusConnection) {
        guard ended === connection else { return }
        log.warning("the connection to the \(BusLoop.describe(address)) ended")
        connection = nil
        forgetServer()
    }

    private func forgetServer() {
        if let serverMatch, let connection { connection.removeMatch(serverMatch) }
        serverMatch = nil
        if server != nil {
            server = nil
            eventContinuation.yield(.serverChanged)
        }
    }
}
