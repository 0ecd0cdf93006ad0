public import ChimeAPI
public import ChimeCore
import Foundation
import Synchronization

/// What the daemon pushes to a connected app.
public enum DaemonEvent: Sendable, Hashable {
    /// The user responded to one of the app's notifications. Handle it, then `acknowledge(_:)` it; until
    /// then it stays queued and comes again when the app next connects.
    case response(ResponseEvent)
    /// A notification arrives while the app is in the foreground: answer with `answer(_:options:)` within
    /// the daemon's timeout (5 s), else the system presents it.
    case willPresent(WillPresentEvent)
    /// Another connection of the same app opened its stream and speaks for the app from now on; this
    /// stream ends. Do not reconnect unless the app wants to take its events back.
    case replaced
}

/// A client of `chimed`'s HTTP API, for the `chime` command and for apps in client mode.
///
/// ```swift
/// let client = try await DaemonClient.connect(appIdentifier: "com.example.alarm", subscribe: true)
/// try await client.add([request])
/// for await event in client.events {
///     if case .response(let response) = event { handle(response.response); try await client.acknowledge(response) }
/// }
/// ```
///
/// Finds the socket and the token by the XDG rules (`DaemonPaths`) and refuses a runtime folder that is
/// not the user's own (`RuntimeDirectory`). Requests go over the Unix socket with keep-alive; with
/// `subscribe`, the app's event stream (Server-Sent Events) is open from `connect` until `close()`, and
/// while it is open the app is connected. Engine errors are thrown as `ChimeError` with the code they
/// had in the daemon, API errors as `APIError` (`.notConnected` when no answer came). Any task may call
/// any method.
public final class DaemonClient: Sendable {
    public let appIdentifier: String?
    /// Events for the app (only when it subscribed), in the order the daemon sent them; they end when the
    /// stream ends (`close()`, or the daemon went away).
    public let events: AsyncStream<DaemonEvent>
    let transport: HTTPTransport
    private let eventContinuation: AsyncStream<DaemonEvent>.Continuation
    private let stream = Mutex<EventStreamConnection?>(nil)

    private init(transport: HTTPTransport, appIdentifier: String?) {
        self.transport = transport
        self.appIdentifier = appIdentifier
        (events, eventContinuation) = AsyncStream.makeStream(of: DaemonEvent.self, bufferingPolicy: .unbounded)
    }

    deinit {
        stream.withLock { $0 }?.close()
        eventContinuation.finish()
    }

    /// Connects to the daemon at `paths`.
    ///
    /// - Parameters:
    ///   - appIdentifier: The app this client speaks for; `nil` for a tool (the CLI) that names the app in
    ///     each call.
    ///   - subscribe: Open the app's event stream: its responses (queued ones now) arrive as `events`.
    ///   - foreground: The app is in the foreground: it is asked how to present its notifications.
    ///   - decidesResponses: The app acknowledges each live response with its decision for the
    ///     notification (`acknowledge(_:disposition:)`), and the daemon waits for it before applying it.
    /// - Throws: `APIError.notConnected` when no daemon answers or its token cannot be read;
    ///   `.untrustedRuntimeDirectory` when the runtime folder is not the user's own; `.unauthenticated`
    ///   when the daemon refuses the token.
    public static func connect(
        appIdentifier: String? = nil, subscribe: Bool = false, foreground: Bool = false, decidesResponses: Bool = false,
        paths: DaemonPaths = DaemonPaths()
    ) async throws -> DaemonClient {
        do {
            try RuntimeDirectory.verify(paths)
        } catch {
            if !FileManager.default.fileExists(atPath: paths.runtimeDirectory.path) {
                throw APIError(.notConnected, "chimed is not running (\(paths.runtimeDirectory.path) does not exist)")
            }
            throw APIError(.untrustedRuntimeDirectory, "refusing to use the daemon's folder: \(error)")
        }
        let token: String
        do {
            token = try String(contentsOf: paths.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw APIError(.notConnected, "cannot read the daemon's token at \(paths.tokenFile.path); is chimed running?")
        }
        return try await connect(
            socketPath: paths.socketFile.path, token: token, appIdentifier: appIdentifier, subscribe: subscribe, foreground: foreground,
            decidesResponses: decidesResponses)
    }

    /// Connects to a socket with a given token (tests, unusual setups). Without `subscribe` it asks for the
    /// daemon's status, so a wrong token or a dead socket fails here rather than at the first call.
    public static func connect(
        socketPath: String, token: String, appIdentifier: String? = nil, subscribe: Bool = false, foreground: Bool = false,
        decidesResponses: Bool = false, lastEventID: String? = nil
    ) async throws -> DaemonClient {
        let client = DaemonClient(transport: HTTPTransport(endpoint: .socket(socketPath), token: token, appIdentifier: appIdentifier), appIdentifier: appIdentifier)
        guard subscribe else {
            _ = try await client.status()
            return client
        }
        guard let appIdentifier else { throw APIError(.invalidParameters, field: "app", "only an app subscribes to events") }
        var query: [(String, String)] = []
        if foreground { query.append(("foreground", "true")) }
        if decidesResponses { query.append(("decides", "true")) }
        let continuation = client.eventContinuation
        let connection = try await EventStreamConnection.open(
            endpoint: .socket(socketPath), token: token, appHeader: client.transport.appHeader, path: Route.appEvents.path(appIdentifier), query: query,
            lastEventID: lastEventID,
            onEvent: { event in
                if let decoded = Self.decode(event) { continuation.yield(decoded) }
            },
            onEnd: { continuation.finish() })
        client.stream.withLock { $0 = connection }
        return client
    }

    /// Closes the event stream, if any; requests still work.
    public func close() {
        stream.withLock { stream in
            stream?.close()
            stream = nil
        }
    }

    private static func decode(_ event: ServerSentEvent) -> DaemonEvent? {
        let data = Data(event.data.utf8)
        let decoder = WireFormat.decoder()
        switch EventKind(rawValue: event.event) {
        case .response: return (try? decoder.decode(ResponseEvent.self, from: data)).map(DaemonEvent.response)
        case .willPresent: return (try? decoder.decode(WillPresentEvent.self, from: data)).map(DaemonEvent.willPresent)
        case .replaced: return .replaced
        default: return nil
        }
    }

    // MARK: Apps and settings

    /// Asks the user whether the app may notify (once; later calls answer from the decision). Waits for the
    /// answer without a limit unless given `timeout` (the user may take their time on the desktop).
    public func requestAuthorization(options: AuthorizationOptions, app: String? = nil, timeout: Duration? = nil) async throws -> Bool {
        let result: AuthorizationResult = try await call(
            .requestAuthorization, [try self.app(app)], body: AuthorizationRequest(options: options), timeout: timeout)
        return result.granted
    }

    public func notificationSettings(app: String? = nil) async throws -> NotificationSettings {
        try await call(.settings, [try self.app(app)])
    }

    /// The user's change of an app's settings.
    public func updateSettings(_ settings: NotificationSettings, app: String? = nil) async throws {
        let _: NotificationSettings = try await call(.updateSettings, [try self.app(app)], body: settings)
    }

    public func setCategories(_ categories: [NotificationCategory], app: String? = nil) async throws {
        let _: CategoryList = try await call(.setCategories, [try self.app(app)], body: CategoryList(categories: categories))
    }

    public func categories(app: String? = nil) async throws -> [NotificationCategory] {
        let list: CategoryList = try await call(.categories, [try self.app(app)])
        return list.categories
    }

    public func setBadgeCount(_ count: Int, app: String? = nil) async throws {
        let _: BadgeCount = try await call(.badge, [try self.app(app)], body: BadgeCount(count: count))
    }

    public func apps() async throws -> [AppInfo] {
        let list: AppList = try await call(.apps, [])
        return list.apps
    }

    public func registerApp(_ entry: AppEntry) async throws {
        let _: AppInfo = try await call(
            .registerApp, [entry.identifier], body: AppRegistration(displayName: entry.displayName, iconPath: entry.iconPath, launchCommand: entry.launchCommand))
    }

    /// The user allows or denies an app; returns its settings now.
    @discardableResult
    public func setAuthorization(app: String, allowed: Bool) async throws -> NotificationSettings {
        try await call(.decideAuthorization, [app], body: AuthorizationDecision(allowed: allowed))
    }

    /// Turns the user's focus on or off (`nil`: only reads it).
    @discardableResult
    public func focus(_ on: Bool? = nil) async throws -> FocusState {
        guard let on else { return try await call(.focus, []) }
        return try await call(.setFocus, [], body: FocusState(on: on))
    }

    public func status() async throws -> StatusResult {
        try await call(.status, [])
    }

    // MARK: Pending and delivered

    /// Adds requests in one transaction; returns once they are durable in the daemon's store, with the
    /// ones that wait for their trigger and their next fire dates.
    @discardableResult
    public func add(_ requests: [NotificationRequest], app: String? = nil) async throws -> [AddedItem] {
        // The stored requests are not read back: the caller has them, and an add is the busiest call.
        let result: AddResult = try await call(.addPending, [try self.app(app)], body: AddRequests(requests: requests), headers: ["Prefer: return=minimal"])
        return result.added
    }

    /// One page of the pending requests of `app` (default: this client's app), or of every app with `all`;
    /// with each one's next `upcoming` fire dates when more than 0.
    public func pendingPage(
        app: String? = nil, all: Bool = false, cursor: String? = nil, limit: Int = Page<PendingItem>.defaultLimit, upcoming: Int = 0
    ) async throws -> Page<PendingItem> {
        var query = Self.pageQuery(cursor: cursor, limit: limit)
        if upcoming > 0 { query.append(("upcoming", String(upcoming))) }
        if all || (app == nil && appIdentifier == nil) { return try await call(.allPending, [], query: query) }
        return try await call(.pending, [try self.app(app)], query: query)
    }

    /// Every pending request of `app`, or of every app with `all`, read a page at a time.
    public func pendingRequests(app: String? = nil, all: Bool = false) async throws -> [PendingItem] {
        try await everyPage { cursor in try await self.pendingPage(app: app, all: all, cursor: cursor, limit: Page<PendingItem>.limits.upperBound) }
    }

    /// Removes these pending requests, or all of the app's when `identifiers` is `nil`; returns how many
    /// there were.
    @discardableResult
    public func removePending(_ identifiers: [String]?, app: String? = nil) async throws -> Int {
        let result: RemoveResult = try await call(
            .removePending, [try self.app(app)], body: identifiers.map(RemoveSelection.init(identifiers:)) ?? .everything)
        return result.removed
    }

    public func deliveredPage(app: String? = nil, all: Bool = false, cursor: String? = nil, limit: Int = Page<DeliveredItem>.defaultLimit) async throws
        -> Page<DeliveredItem>
    {
        let query = Self.pageQuery(cursor: cursor, limit: limit)
        if all || (app == nil && appIdentifier == nil) { return try await call(.allDelivered, [], query: query) }
        return try await call(.delivered, [try self.app(app)], query: query)
    }

    public func deliveredNotifications(app: String? = nil, all: Bool = false) async throws -> [DeliveredItem] {
        try await everyPage { cursor in try await self.deliveredPage(app: app, all: all, cursor: cursor, limit: Page<DeliveredItem>.limits.upperBound) }
    }

    /// One page of the notification center: every app's delivered notifications as the list shows them now.
    public func centerPage(cursor: String? = nil, limit: Int = Page<DeliveredItem>.defaultLimit) async throws -> CenterPage {
        try await call(.center, [], query: Self.pageQuery(cursor: cursor, limit: limit))
    }

    /// Removes these delivered notifications, or all of the app's when `identifiers` is `nil`; returns how
    /// many there were.
    @discardableResult
    public func removeDelivered(_ identifiers: [String]?, app: String? = nil) async throws -> Int {
        let result: RemoveResult = try await call(
            .removeDelivered, [try self.app(app)], body: identifiers.map(RemoveSelection.init(identifiers:)) ?? .everything)
        return result.removed
    }

    // MARK: Responses

    /// Acts on a delivered notification as the user would.
    public func respond(app: String, notification: String, action: WireUserAction) async throws -> RespondResult {
        try await call(.respond, [app, notification], body: action)
    }

    /// The app handled a response event: the daemon forgets it, and applies `disposition` (the app's
    /// decision for the notification) when it waits for one; `nil` is the standard behaviour.
    public func acknowledge(_ event: ResponseEvent, disposition: WireDisposition? = nil) async throws {
        let _: Empty = try await call(.acknowledgeResponse, [event.app, event.delivery], body: Acknowledgment(disposition: disposition))
    }

    /// Answers a `willPresent` event; an answer that comes too late is dropped.
    /// The responses waiting for `app` (default: this client's app), oldest first, at most `limit`.
    public func queuedResponses(app: String? = nil, limit: Int = Page<PendingItem>.limits.upperBound) async throws -> QueuedResponseList {
        try await call(.queuedResponses, [try self.app(app)], query: [("limit", String(limit))])
    }

    public func answer(_ event: WillPresentEvent, options: PresentationOptions) async {
        let _: Empty? = try? await call(.answerQuestion, [event.app, String(event.question)], body: QuestionAnswer(options: options))
    }

    /// A one-time link into the web notification center.
    public func webLogin() async throws -> WebLogin {
        try await call(.webLogin, [])
    }

    /// The provider key chimed's APNs-compatible endpoint checks tokens with.
    public func apnsKey() async throws -> APNsKeySummary {
        try await call(.apnsKey, [])
    }

    public func setAPNsKey(_ key: APNsKeyBody) async throws -> APNsKeySummary {
        try await call(.setAPNsKey, [], body: key)
    }

    public func removeAPNsKey() async throws {
        let _: Empty = try await call(.removeAPNsKey, [])
    }

    /// The app's device token for the APNs-compatible endpoint.
    public func apnsDeviceToken(app: String? = nil) async throws -> APNsDeviceToken {
        try await call(.apnsDeviceToken, [try self.app(app)])
    }

    // MARK: Wire

    /// Sends one request to `route` with `parameters` for its path, and decodes its answer.
    public func call<Answer: Decodable>(
        _ route: Route, _ parameters: [String], query: [(String, String)] = [], body: (some Encodable)? = Empty?.none,
        headers: [String] = [], timeout: Duration? = .seconds(60)
    ) async throws -> Answer {
        let bytes = try body.map { Array(try WireFormat.encoder().encode($0)) }
        let path = Self.path(route, parameters)
        let response = try await transport.send(
            route.method, path, query: query, body: bytes, headers: headers, timeout: timeout, idempotent: route.isIdempotent)
        guard (200..<300).contains(response.status) else { throw Self.error(status: response.status, body: response.body) }
        do {
            return try WireFormat.decoder().decode(Answer.self, from: Data(response.body))
        } catch {
            throw APIError(.malformedRequest, "chimed's answer to \(route.method.rawValue) \(route.template) could not be read: \(error)")
        }
    }

    /// The error an answer carries: the engine's `ChimeError`, or an `APIError` (by status when the body
    /// is not the API's error shape).
    static func error(status: Int, body: [UInt8]) -> any Error {
        if let decoded = try? WireFormat.decoder().decode(ErrorBody.self, from: Data(body)) {
            return decoded.error.chimeError ?? decoded.error
        }
        let code: APIError.Code =
            switch status {
            case 401: .unauthenticated
            case 403: .forbidden
            case 404: .unknownRoute
            case 405: .methodNotAllowed
            case 413: .payloadTooLarge
            case 415: .unsupportedMediaType
            case 429: .tooManyRequests
            case 503: .unavailable
            case 400..<500: .malformedRequest
            default: .internalError
            }
        return APIError(code, "chimed answered HTTP \(status)")
    }

    private static func path(_ route: Route, _ parameters: [String]) -> String {
        switch parameters.count {
        case 0: route.path()
        case 1: route.path(parameters[0])
        default: route.path(parameters[0], parameters[1])
        }
    }

    private func app(_ given: String?) throws(APIError) -> String {
        guard let app = given ?? appIdentifier, !app.isEmpty else { throw APIError(.invalidParameters, field: "app", "name the app") }
        return app
    }

    private static func pageQuery(cursor: String?, limit: Int) -> [(String, String)] {
        var query = [("limit", String(limit))]
        if let cursor { query.append(("cursor", cursor)) }
        return query
    }

    private func everyPage<Item>(_ page: (String?) async throws -> Page<Item>) async throws -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let next = try await page(cursor)
            items += next.items
            cursor = next.next
        } while cursor != nil
        return items
    }
}
