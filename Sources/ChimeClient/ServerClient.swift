public import ChimeAPI
import Foundation

/// A client of a server-mode node (`chimed --server`) with one of a tenant's API keys: what `chime server`
/// speaks, and what a backend written in Swift can use.
///
/// ```swift
/// let server = ServerClient(url: "http://127.0.0.1:7717", key: apiKey)
/// try await server.add([RecipientRequest(recipient: "user-42", app: "com.example.todo", request: request)])
/// ```
///
/// Each method is one request; errors are thrown as the node sent them (`APIError`, or the engine's
/// `ChimeError`), `APIError.notConnected` when no answer came. Any task may call any method.
public final class ServerClient: Sendable {
    let transport: HTTPTransport

    /// - Parameters:
    ///   - url: The node's address: scheme, host, port, and a path prefix when a proxy adds one.
    ///   - key: One of the tenant's API keys (`chime_…`).
    public init(url: String, key: String) {
        transport = HTTPTransport(endpoint: .server(url), token: key)
    }

    public func status() async throws -> ServerStatusBody {
        try await call(.get, "/v1/status")
    }

    // MARK: Notifications

    /// Adds requests for any of the tenant's recipients, all or none; each replaces the recipient's pending
    /// request with the same app and identifier. With `idempotencyKey`, sending the same batch again with the
    /// same key (after a lost answer) adds nothing and answers as the first time.
    @discardableResult
    public func add(_ notifications: [RecipientRequest], idempotencyKey: String? = nil) async throws -> [RecipientAddedItem] {
        let headers = idempotencyKey.map { ["Idempotency-Key: \($0)"] } ?? []
        let result: RecipientAddResult = try await call(
            .post, "/v1/notifications", body: RecipientBatch(notifications: notifications), headers: headers, idempotent: idempotencyKey != nil)
        return result.added
    }

    /// One page of a recipient's pending requests, of one app or all.
    public func pendingPage(recipient: String, app: String? = nil, cursor: String? = nil, limit: Int = Page<PendingItem>.defaultLimit) async throws
        -> Page<PendingItem>
    {
        try await call(.get, Self.path("recipients", recipient, "pending"), query: Self.pageQuery(app: app, cursor: cursor, limit: limit))
    }

    /// One page of a recipient's delivered notifications, of one app or all.
    public func deliveredPage(recipient: String, app: String? = nil, cursor: String? = nil, limit: Int = Page<DeliveredItem>.defaultLimit)
        async throws -> Page<DeliveredItem>
    {
        try await call(.get, Self.path("recipients", recipient, "delivered"), query: Self.pageQuery(app: app, cursor: cursor, limit: limit))
    }

    /// Removes these pending requests of the recipient's app, or all of them when `identifiers` is `nil`;
    /// returns how many there were.
    @discardableResult
    public func removePending(recipient: String, app: String, _ identifiers: [String]?) async throws -> Int {
        let result: RemoveResult = try await call(
            .delete, Self.path("recipients", recipient, "apps", app, "pending"), body: identifiers.map(RemoveSelection.init(identifiers:)) ?? .everything)
        return result.removed
    }

    /// One page of the recipient's responses, newest first.
    public func responsesPage(recipient: String, app: String? = nil, cursor: String? = nil, limit: Int = Page<RecipientResponseItem>.defaultLimit)
        async throws -> Page<RecipientResponseItem>
    {
        try await call(.get, Self.path("recipients", recipient, "responses"), query: Self.pageQuery(app: app, cursor: cursor, limit: limit))
    }

    // MARK: Deliveries beyond the machine

    /// One page of the ledger of the recipient's deliveries to their devices, newest first.
    public func deliveriesPage(recipient: String, cursor: String? = nil, limit: Int = Page<DeliveryItem>.defaultLimit) async throws -> Page<DeliveryItem> {
        try await call(.get, Self.path("recipients", recipient, "deliveries"), query: Self.pageQuery(app: nil, cursor: cursor, limit: limit))
    }

    /// Sends a finished delivery again from its first attempt.
    public func replayDelivery(_ identifier: String) async throws {
        let _: Empty? = try await call(.post, Self.path("deliveries", identifier, "replay"), idempotent: true)
    }

    public func settings() async throws -> TenantSettingsBody {
        try await call(.get, "/v1/settings")
    }

    @discardableResult
    public func saveSettings(_ settings: TenantSettingsBody) async throws -> TenantSettingsBody {
        try await call(.put, "/v1/settings", body: settings)
    }

    /// The tenant's APNs provider key's identifiers; `nil` when it gave none.
    public func apnsKey() async throws -> APNsKeySummary? {
        do {
            return try await call(.get, "/v1/settings/apns")
        } catch let error as APIError where error.apiCode == .notFound {
            return nil
        }
    }

    @discardableResult
    public func saveAPNsKey(_ key: APNsKeyBody) async throws -> APNsKeySummary {
        try await call(.put, "/v1/settings/apns", body: key)
    }

    /// The tenant's VAPID public key (made on the first request) and contact.
    public func webPushSettings() async throws -> WebPushSettingsBody {
        try await call(.get, "/v1/settings/webpush")
    }

    @discardableResult
    public func saveWebPushSettings(_ settings: WebPushSettingsBody) async throws -> WebPushSettingsBody {
        try await call(.put, "/v1/settings/webpush", body: settings)
    }

    public func removeAPNsKey() async throws {
        let _: Empty? = try await call(.delete, "/v1/settings/apns")
    }

    // MARK: Recipients

    public func recipient(_ identifier: String) async throws -> RecipientProfileBody {
        try await call(.get, Self.path("recipients", identifier))
    }

    /// Creates the recipient or replaces their profile; returns it as stored.
    @discardableResult
    public func saveRecipient(_ identifier: String, _ profile: RecipientProfileBody) async throws -> RecipientProfileBody {
        try await call(.put, Self.path("recipients", identifier), body: profile)
    }

    public func devices(recipient: String) async throws -> DeviceList {
        try await call(.get, Self.path("recipients", recipient, "devices"))
    }

    // MARK: Keys

    public func keys() async throws -> [APIKeyBody] {
        try await call(.get, "/v1/keys")
    }

    /// A new key of the tenant; its `secret` is in this answer only.
    public func issueKey(name: String, scopes: [String]) async throws -> APIKeyBody {
        try await call(.post, "/v1/keys", body: NewAPIKey(name: name, scopes: scopes), idempotent: false)
    }

    public func revokeKey(_ identifier: String) async throws {
        let _: Empty? = try await call(.delete, Self.path("keys", identifier))
    }

    // MARK: Wire

    /// Sends one request and decodes its answer (`Optional` for a route that answers 204 without a body).
    func call<Answer: Decodable>(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: (some Encodable)? = Empty?.none, headers: [String] = [],
        idempotent: Bool? = nil
    ) async throws -> Answer {
        let bytes = try body.map { Array(try WireFormat.encoder().encode($0)) }
        let response = try await transport.send(method, path, query: query, body: bytes, headers: headers, idempotent: idempotent ?? (method != .post))
        guard (200..<300).contains(response.status) else { throw DaemonClient.error(status: response.status, body: response.body) }
        if response.body.isEmpty, let none = Optional<Empty>.none as? Answer { return none }
        do {
            return try WireFormat.decoder().decode(Answer.self, from: Data(response.body))
        } catch {
            throw APIError(.malformedRequest, "the node's answer to \(method.rawValue) \(path) could not be read: \(error)")
        }
    }

    /// `/v1/` and the segments, each percent-encoded.
    static func path(_ segments: String...) -> String {
        "/v1/" + segments.map(PercentEncoding.encodeSegment).joined(separator: "/")
    }

    private static func pageQuery(app: String?, cursor: String?, limit: Int) -> [(String, String)] {
        var query = [("limit", String(limit))]
        if let app { query.append(("app", app)) }
        if let cursor { query.append(("cursor", cursor)) }
        return query
    }
}
