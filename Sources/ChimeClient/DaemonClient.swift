public import ChimeCore
public import ChimeIPC
public import Foundation
import Synchronization

/// What the daemon pushes to a subscribed app.
public enum DaemonEvent: Sendable, Hashable {
    /// The user responded to one of the app's notifications. Handle it, then `acknowledge(_:)` it; until
    /// then it stays queued and comes again on the next subscription.
    case response(ResponseEvent)
    /// A notification arrives while the app is in the foreground: answer with `answer(_:options:)` within
    /// the daemon's timeout (5 s), else the system presents it.
    case willPresent(WillPresentEvent)
}

/// A connection to `chimed`, for the `chime` command and for apps in client mode.
///
/// ```swift
/// let client = try await DaemonClient.connect(appIdentifier: "com.example.alarm", subscribe: true)
/// try await client.add([request])
/// for await event in client.events {
///     if case .response(let response) = event { handle(response.response); try await client.acknowledge(response) }
/// }
/// ```
///
/// Finds the socket and the token by the XDG rules (`DaemonPaths`). Each call sends one request and
/// suspends until its reply; engine errors are thrown as `ChimeError` with the code they had in the
/// daemon, protocol errors as `IPCError`. The socket is read by a thread of its own and written on a
/// serial queue, so no blocking call runs on the cooperative pool. Any task may call any method;
/// `close()` (or the daemon going away) fails the calls still waiting with `IPCError.notConnected` and
/// ends `events`.
public final class DaemonClient: Sendable {
    private struct State {
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
        var closed = false
    }

    public let appIdentifier: String?
    /// Events for the app (only when it subscribed), in the order the daemon sent them.
    public let events: AsyncStream<DaemonEvent>
    private let socket: UnixSocket
    private let state = Mutex(State())
    private let writer = DispatchQueue(label: "chime.client.writer")
    private let eventContinuation: AsyncStream<DaemonEvent>.Continuation

    private init(socket: UnixSocket, appIdentifier: String?) {
        self.socket = socket
        self.appIdentifier = appIdentifier
        (events, eventContinuation) = AsyncStream.makeStream(of: DaemonEvent.self, bufferingPolicy: .unbounded)
    }

    /// The reader thread keeps the client alive until the connection ends: call `close()` when done.
    deinit {}

    /// Connects and says hello with the token.
    ///
    /// - Parameters:
    ///   - appIdentifier: The app this connection speaks for; `nil` for a tool (the CLI) that names the
    ///     app in each call.
    ///   - subscribe: Receive the app's responses (queued ones are replayed now) as `events`.
    ///   - foreground: The app is in the foreground: it is asked how to present its notifications.
    ///   - decidesResponses: The app acknowledges each live response with its decision for the
    ///     notification (`acknowledge(_:disposition:)`), and the daemon waits for it before applying it.
    /// - Throws: `IPCError.notConnected` when no daemon answers or the token file cannot be read;
    ///   `.unauthenticated` when the token is refused.
    public static func connect(
        appIdentifier: String? = nil, subscribe: Bool = false, foreground: Bool = false, decidesResponses: Bool = false,
        paths: DaemonPaths = DaemonPaths()
    ) async throws -> DaemonClient {
        let token: String
        do {
            token = try String(contentsOf: paths.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw IPCError(.notConnected, "cannot read the daemon's token at \(paths.tokenFile.path); is chimed running?")
        }
        return try await connect(
            socketPath: paths.socketFile.path, token: token, appIdentifier: appIdentifier, subscribe: subscribe, foreground: foreground,
            decidesResponses: decidesResponses)
    }

    /// Connects to a socket with a given token (tests, unusual setups).
    public static func connect(
        socketPath: String, token: String, appIdentifier: String? = nil, subscribe: Bool = false, foreground: Bool = false,
        decidesResponses: Bool = false
    ) async throws -> DaemonClient {
        let client = DaemonClient(socket: try UnixSocket.connect(to: socketPath), appIdentifier: appIdentifier)
        client.startReading()
        do {
            let hello = Hello(token: token, app: appIdentifier, subscribe: subscribe, foreground: foreground, decidesResponses: decidesResponses ? true : nil)
            let _: HelloResult = try await client.call(.hello, hello)
        } catch {
            client.close()
            throw error
        }
        return client
    }

    /// Closes the connection.
    public func close() {
        state.withLock { state in
            if !state.closed { socket.shutdown() }
        }
    }

    // MARK: Requests

    public func requestAuthorization(options: AuthorizationOptions, app: String? = nil) async throws -> Bool {
        try await call(.requestAuthorization, AuthorizationParams(app: app, options: options))
    }

    public func notificationSettings(app: String? = nil) async throws -> NotificationSettings {
        try await call(.notificationSettings, AppParams(app: app))
    }

    /// The user's change of an app's settings.
    public func updateSettings(_ settings: NotificationSettings, app: String? = nil) async throws {
        let _: Empty = try await call(.updateSettings, SettingsParams(app: app, settings: settings))
    }

    public func setCategories(_ categories: [NotificationCategory], app: String? = nil) async throws {
        let _: Empty = try await call(.setCategories, CategoriesParams(app: app, categories: categories))
    }

    public func categories(app: String? = nil) async throws -> [NotificationCategory] {
        try await call(.categories, AppParams(app: app))
    }

    /// Adds requests in one transaction; returns once they are durable in the daemon's store.
    public func add(_ requests: [NotificationRequest], app: String? = nil) async throws {
        let _: Empty = try await call(.add, AddParams(app: app, requests: requests))
    }

    /// The pending requests of `app` (default: this connection's app), or of every app with `all`.
    public func pendingRequests(app: String? = nil, all: Bool = false) async throws -> [PendingItem] {
        try await call(.pendingRequests, ListParams(app: app, all: all))
    }

    /// Removes these pending requests, or all of the app's when `identifiers` is `nil`.
    public func removePending(_ identifiers: [String]?, app: String? = nil) async throws {
        let _: Empty = try await call(.removePending, RemoveParams(app: app, identifiers: identifiers))
    }

    public func deliveredNotifications(app: String? = nil, all: Bool = false) async throws -> [DeliveredItem] {
        try await call(.deliveredNotifications, ListParams(app: app, all: all))
    }

    public func removeDelivered(_ identifiers: [String]?, app: String? = nil) async throws {
        let _: Empty = try await call(.removeDelivered, RemoveParams(app: app, identifiers: identifiers))
    }

    public func setBadgeCount(_ count: Int, app: String? = nil) async throws {
        let _: Empty = try await call(.setBadgeCount, BadgeParams(app: app, count: count))
    }

    /// Acts on a delivered notification as the user would.
    public func respond(app: String, notification: String, action: WireUserAction) async throws -> RespondResult {
        try await call(.respond, RespondParams(app: app, notification: notification, action: action))
    }

    public func apps() async throws -> [AppInfo] {
        try await call(.apps, Empty())
    }

    public func registerApp(_ entry: AppEntry) async throws {
        let _: Empty = try await call(.registerApp, entry)
    }

    /// The user allows or denies an app; returns its settings now.
    @discardableResult
    public func setAuthorization(app: String, allowed: Bool) async throws -> NotificationSettings {
        try await call(.setAuthorization, SetAuthorizationParams(app: app, allowed: allowed))
    }

    /// Turns the user's focus on or off (`nil`: only reads it).
    @discardableResult
    public func focus(_ on: Bool? = nil) async throws -> FocusResult {
        try await call(.focus, FocusParams(on: on))
    }

    public func status() async throws -> StatusResult {
        try await call(.status, Empty())
    }

    /// The app handled a response event: the daemon forgets it, and applies `disposition` (the app's
    /// decision for the notification) when it waits for one (`decidesResponses`); `nil` is the standard
    /// behaviour.
    public func acknowledge(_ event: ResponseEvent, disposition: WireDisposition? = nil) async throws {
        let _: Empty = try await call(.acknowledge, AcknowledgeParams(delivery: event.delivery, disposition: disposition))
    }

    /// Answers a `willPresent` event.
    public func answer(_ event: WillPresentEvent, options: PresentationOptions) {
        let line = try? WireFormat.line(RequestMessage(id: nextID(), method: .presentationOptions, params: PresentationOptionsParams(question: event.question, options: options)))
        if let line { send(line) }
    }

    // MARK: Wire

    /// Sends one request and waits for its reply's result.
    public func call<Params: Encodable & Sendable, Result: Decodable>(_ method: Method, _ params: Params) async throws -> Result {
        let id = nextID()
        let line = try WireFormat.line(RequestMessage(id: id, method: method, params: params))
        let reply = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
            let closed = state.withLock { state -> Bool in
                guard !state.closed else { return true }
                state.waiting[id] = continuation
                return false
            }
            if closed {
                continuation.resume(throwing: IPCError(.notConnected, "the connection to the daemon is closed"))
            } else {
                send(line)
            }
        }
        let decoder = WireFormat.decoder()
        let head = try decoder.decode(MessageHead.self, from: reply)
        if let error = head.error {
            if let chime = error.chimeError { throw chime }
            throw error
        }
        return try decoder.decode(ResultBody<Result>.self, from: reply).result
    }

    /// Sends raw bytes (tests of the daemon's handling of bad input).
    public func sendRaw(_ data: Data) {
        send(data)
    }

    private func nextID() -> Int {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    private func send(_ line: Data) {
        writer.async { [self] in
            // Under the lock, so the descriptor cannot be closed (and reused) in the middle of the write.
            state.withLock { state in
                if !state.closed { socket.write(line) }
            }
        }
    }

    private func startReading() {
        let thread = Thread { [self] in
            var splitter = LineSplitter()
            while true {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                for case .line(let line) in splitter.append(bytes) { received(line) }
            }
            ended()
        }
        thread.name = "chime.client.reader"
        thread.start()
    }

    /// Replies without an id: the daemon's answers to lines it could not read (see `sendRaw`).
    public var unmatchedErrors: [IPCError] { unmatched.withLock { $0 } }
    private let unmatched = Mutex<[IPCError]>([])

    /// How many events arrived so far. Events are counted before the reply to any later request is
    /// handed out, so after a call returns, the count includes every event the daemon sent before it.
    public var receivedEventCount: Int { eventCount.withLock { $0 } }
    private let eventCount = Mutex(0)

    private func received(_ line: Data) {
        let decoder = WireFormat.decoder()
        guard let head = try? decoder.decode(MessageHead.self, from: line) else { return }
        if let event = head.event {
            eventCount.withLock { $0 += 1 }
            switch EventKind(rawValue: event) {
            case .response:
                if let params = try? decoder.decode(ParamsBody<ResponseEvent>.self, from: line).params { eventContinuation.yield(.response(params)) }
            case .willPresent:
                if let params = try? decoder.decode(ParamsBody<WillPresentEvent>.self, from: line).params { eventContinuation.yield(.willPresent(params)) }
            case nil:
                break
            }
            return
        }
        guard let id = head.id else {
            if let error = head.error { unmatched.withLock { $0.append(error) } }
            return
        }
        let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
        waiter?.resume(returning: line)
    }

    private func ended() {
        let waiters = state.withLock { state in
            state.closed = true
            socket.close()
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter.resume(throwing: IPCError(.notConnected, "the daemon closed the connection")) }
        eventContinuation.finish()
    }
}
