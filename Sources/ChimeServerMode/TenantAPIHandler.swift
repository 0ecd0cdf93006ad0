import ChimeAPI
import ChimeCore
public import ChimeEngine
import ChimePostgres
public import ChimeServer
import Foundation

/// Server mode's HTTP API: every request carries a tenant's key (`Authorization: Bearer chime_…`), and
/// each route is one `TenantService` call made with that key, or a stream from the `TenantFeed`. No rules
/// live here.
///
/// ```
/// POST   /v1/notifications                              add for many recipients (≤ 10,000; Idempotency-Key)
/// GET    /v1/recipients/{recipient}                     a recipient's zone, language, quiet hours
/// PUT    /v1/recipients/{recipient}
/// GET    /v1/recipients/{recipient}/pending?app=&limit=&cursor=
/// GET    /v1/recipients/{recipient}/delivered?app=&limit=&cursor=
/// DELETE /v1/recipients/{recipient}/apps/{app}/pending  {"identifiers":[…]} or {"all":true}
/// POST   /v1/recipients/{recipient}/apps/{app}/delivered/{id}/response   what the recipient did
/// GET    /v1/recipients/{recipient}/responses?app=&limit=&cursor=
/// GET    /v1/recipients/{recipient}/devices                  a recipient's devices (APNs, Web Push, webhooks)
/// GET|PUT|DELETE /v1/recipients/{recipient}/devices/{device}
/// GET    /v1/recipients/{recipient}/deliveries?limit=&cursor=   the ledger of deliveries to the devices
/// POST   /v1/deliveries/{id}/replay                     send a finished delivery again
/// POST   /v1/deliveries/{id}/outcome                    what became of it at the recipient (delivered, seen, …)
/// GET|PUT /v1/settings                                  the tenant's settings (the webhooks' allow list)
/// GET|PUT|DELETE /v1/settings/apns                      the tenant's APNs provider key (never shown)
/// GET|PUT /v1/settings/webpush                          the tenant's VAPID public key and contact
/// GET|PUT|DELETE /v1/settings/ledger-webhook            where every change of a delivery is POSTed
/// GET    /v1/apps/{app}/strings                         the app's strings tables by language
/// GET|PUT|DELETE /v1/apps/{app}/strings/{language}      one table (a Localizable.strings file)
/// GET    /v1/events?recipient=                          the tenant's deliveries and responses (SSE)
/// GET    /v1/keys   POST /v1/keys   DELETE /v1/keys/{id}
/// POST   /3/device/{token}                              APNs-compatible: a provider token instead of a key
/// GET    /v1/status
/// GET    /v1/openapi.json                               this API as OpenAPI 3.1 (no key needed)
/// ```
///
/// `routes` lists them; `OpenAPIDocument.serverModeBytes` describes them.
public final class TenantAPIHandler: HTTPHandler {
    let service: TenantService
    let feed: TenantFeed
    let node: String
    let log: any EngineLog

    public init(service: TenantService, feed: TenantFeed, node: String, log: any EngineLog) {
        self.service = service
        self.feed = feed
        self.node = node
        self.log = log
    }

    public func screen(_ head: HTTPRequestHead) -> HTTPScreening {
        // The document is public, as tools that read it expect; it holds no tenant's data.
        if Self.isDocument(head) { return .admit(context: nil) }
        // The APNs-compatible endpoint proves the tenant with a provider token, and answers as APNs does.
        if Self.isAPNsDoor(head) { return .admit(context: nil) }
        guard Self.bearer(head) != nil else {
            return .refuse(Self.answer(APIError(.unauthenticated, "send a tenant's API key as Authorization: Bearer chime_…")))
        }
        return .admit(context: nil)
    }

    public func tooLarge(_ head: HTTPRequestHead, limit: Int) -> HTTPResponse {
        HTTPResponse.apiError(APIError(.payloadTooLarge, "the request body is larger than the \(limit) bytes chimed takes", limit: limit))
    }

    public func unavailable(_ head: HTTPRequestHead) -> HTTPResponse {
        HTTPResponse.apiError(APIError(.unavailable, "chimed is stopping"))
    }

    public func answerAtOnce(_ request: HTTPRequest) -> HTTPResponse? {
        guard Self.isDocument(request.head) else { return nil }
        return HTTPResponse(status: 200, headers: HTTPResponse.jsonHeaders, body: .bytes(OpenAPIDocument.serverModeBytes))
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        if Self.isAPNsDoor(request.head) { return await apnsDoor(request) }
        do {
            guard let secret = Self.bearer(request.head), let key = try await service.directory.authenticate(secret) else {
                throw APIError(.unauthenticated, "the API key is not one of a tenant's, or was revoked")
            }
            return try await route(request, key: key)
        } catch let error as APIError {
            return Self.answer(error)
        } catch let error as TenancyError {
            return HTTPResponse.apiError(APIError(.invalidParameters, error.description))
        } catch let error as PostgresError where error.sqlState == "22021" {
            // PostgreSQL's text cannot hold U+0000, and a Swift string is valid UTF-8 otherwise: a path
            // segment, query value or body field had one. Nothing was changed.
            return HTTPResponse.apiError(APIError(.invalidParameters, "text in this request holds a NUL character (U+0000), which chimed does not keep"))
        } catch let error as PostgresError where error.isRetryable || error.kind == .outcomeUnknown {
            // The database is away (restarting, unreachable): the client may try again, and with an
            // Idempotency-Key a write whose outcome is unknown is safe to repeat.
            log.warning("server API: \(request.head.method) \(request.head.path): \(error)")
            let message = error.kind == .outcomeUnknown
                ? "the database went away while this was being written: it may or may not have been; repeat it with the same Idempotency-Key"
                : "the database is unreachable; nothing was changed; try again"
            var answer = HTTPResponse.apiError(APIError(.unavailable, message))
            answer.headers.append(("Retry-After", "1"))
            return answer
        } catch {
            log.warning("server API: \(request.head.method) \(request.head.path): \(error)")
            return HTTPResponse.apiError(APIError(.internalError, "the request failed inside chimed; nothing was changed"))
        }
    }

    private func route(_ request: HTTPRequest, key: AuthenticatedKey) async throws -> HTTPResponse {
        let head = request.head
        let segments = try Self.segments(head.path)
        let now = Date()
        if Self.match(head.method, segments, "GET", ["v1", "status"]) != nil {
            return try .json(ServerStatusBody(mode: "server", node: node, tenant: key.tenant, schema: PostgresNotificationStore.schemaVersion))
        } else if Self.match(head.method, segments, "POST", ["v1", "notifications"]) != nil {
            let batch = try Self.decode(RecipientBatch.self, request, using: RecipientBatch.decode(json:))
            let answer = try await service.add(
                batch, key: key, idempotencyKey: head.headers["idempotency-key"], route: "POST /v1/notifications", body: request.body, now: now)
            return HTTPResponse(status: answer.status, headers: HTTPResponse.jsonHeaders, body: .bytes(answer.body))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*"]) {
            let recipient = values[0]
            return try .json(try await service.recipient(recipient, key: key))
        } else if let values = Self.match(head.method, segments, "PUT", ["v1", "recipients", "*"]) {
            let recipient = values[0]
            try await service.saveRecipient(recipient, try Self.decode(RecipientProfileBody.self, request), key: key, now: now)
            return try .json(try await service.recipient(recipient, key: key))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*", "pending"]) {
            let recipient = values[0]
            return try .json(try await service.pending(recipient: recipient, app: head.queryValue("app"), try Self.page(head), key: key))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*", "delivered"]) {
            let recipient = values[0]
            return try .json(try await service.delivered(recipient: recipient, app: head.queryValue("app"), try Self.page(head), key: key))
        } else if let values = Self.match(head.method, segments, "DELETE", ["v1", "recipients", "*", "apps", "*", "pending"]) {
            let (recipient, app) = (values[0], values[1])
            let selection = try Self.decode(RemoveSelection.self, request)
            return try .json(try await service.removePending(recipient: recipient, app: app, selection, key: key))
        } else if let values = Self.match(head.method, segments, "POST", ["v1", "recipients", "*", "apps", "*", "delivered", "*", "response"]) {
            let (recipient, app, notification) = (values[0], values[1], values[2])
            let action = try Self.decode(WireUserAction.self, request)
            return try .json(try await service.respond(recipient: recipient, app: app, notification: notification, action, key: key, now: now), status: 201)
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*", "responses"]) {
            let recipient = values[0]
            return try .json(try await service.responses(recipient: recipient, app: head.queryValue("app"), try Self.page(head), key: key))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*", "devices"]) {
            return try .json(try await service.devices(recipient: values[0], key: key))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*", "devices", "*"]) {
            return try .json(try await service.device(recipient: values[0], device: values[1], key: key))
        } else if let values = Self.match(head.method, segments, "PUT", ["v1", "recipients", "*", "devices", "*"]) {
            let body = try Self.decode(DeviceBody.self, request)
            let saved = try await service.saveDevice(recipient: values[0], device: values[1], body, key: key, now: now)
            return try .json(saved.item, status: saved.created ? 201 : 200)
        } else if let values = Self.match(head.method, segments, "DELETE", ["v1", "recipients", "*", "devices", "*"]) {
            try await service.removeDevice(recipient: values[0], device: values[1], key: key)
            return HTTPResponse(status: 204)
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "recipients", "*", "deliveries"]) {
            return try .json(try await service.deliveries(recipient: values[0], try Self.page(head), key: key))
        } else if let values = Self.match(head.method, segments, "POST", ["v1", "deliveries", "*", "replay"]) {
            try await service.replayDelivery(values[0], key: key, now: now)
            return HTTPResponse(status: 204)
        } else if let values = Self.match(head.method, segments, "POST", ["v1", "deliveries", "*", "outcome"]) {
            return try .json(try await service.reportOutcome(values[0], try Self.decode(DeliveryOutcomeBody.self, request), key: key, now: now))
        } else if Self.match(head.method, segments, "GET", ["v1", "settings"]) != nil {
            return try .json(try await service.settings(key: key))
        } else if Self.match(head.method, segments, "PUT", ["v1", "settings"]) != nil {
            return try .json(try await service.saveSettings(try Self.decode(TenantSettingsBody.self, request), key: key))
        } else if Self.match(head.method, segments, "GET", ["v1", "settings", "apns"]) != nil {
            return try .json(try await service.apnsKey(key: key))
        } else if Self.match(head.method, segments, "PUT", ["v1", "settings", "apns"]) != nil {
            return try .json(try await service.saveAPNsKey(try Self.decode(APNsKeyBody.self, request), key: key))
        } else if Self.match(head.method, segments, "DELETE", ["v1", "settings", "apns"]) != nil {
            try await service.removeAPNsKey(key: key)
            return HTTPResponse(status: 204)
        } else if Self.match(head.method, segments, "GET", ["v1", "settings", "ledger-webhook"]) != nil {
            return try .json(try await service.ledgerWebhook(key: key))
        } else if Self.match(head.method, segments, "PUT", ["v1", "settings", "ledger-webhook"]) != nil {
            return try .json(try await service.saveLedgerWebhook(try Self.decode(WebhookAddress.self, request), key: key))
        } else if Self.match(head.method, segments, "DELETE", ["v1", "settings", "ledger-webhook"]) != nil {
            try await service.removeLedgerWebhook(key: key)
            return HTTPResponse(status: 204)
        } else if Self.match(head.method, segments, "GET", ["v1", "settings", "webpush"]) != nil {
            return try .json(try await service.webPushSettings(key: key))
        } else if Self.match(head.method, segments, "PUT", ["v1", "settings", "webpush"]) != nil {
            return try .json(try await service.saveWebPushSettings(try Self.decode(WebPushSettingsBody.self, request), key: key))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "apps", "*", "strings"]) {
            return try .json(try await service.strings(app: values[0], key: key))
        } else if let values = Self.match(head.method, segments, "GET", ["v1", "apps", "*", "strings", "*"]) {
            let body = try await service.stringsTable(app: values[0], language: values[1], key: key)
            return HTTPResponse(status: 200, headers: Self.stringsHeaders, body: .bytes(body))
        } else if let values = Self.match(head.method, segments, "PUT", ["v1", "apps", "*", "strings", "*"]) {
            try await service.saveStrings(app: values[0], language: values[1], body: request.body, key: key)
            return HTTPResponse(status: 204)
        } else if let values = Self.match(head.method, segments, "DELETE", ["v1", "apps", "*", "strings", "*"]) {
            try await service.removeStrings(app: values[0], language: values[1], key: key)
            return HTTPResponse(status: 204)
        } else if Self.match(head.method, segments, "GET", ["v1", "events"]) != nil {
            guard key.allows(.read) else { throw APIError(.forbidden, "this key may not read") }
            let body = try await feed.open(tenant: key.tenant, recipient: head.queryValue("recipient"), lastEventID: head.headers["last-event-id"])
            return .eventStream(body)
        } else if Self.match(head.method, segments, "GET", ["v1", "keys"]) != nil {
            return try .json(try await service.keys(key))
        } else if Self.match(head.method, segments, "POST", ["v1", "keys"]) != nil {
            return try .json(try await service.issueKey(try Self.decode(NewAPIKey.self, request), key: key), status: 201)
        } else if let values = Self.match(head.method, segments, "DELETE", ["v1", "keys", "*"]) {
            let id = values[0]
            try await service.revokeKey(id, key: key)
            return HTTPResponse(status: 204)
        } else {
            let allowed = Self.methods(allowedFor: segments)
            guard allowed.isEmpty else {
                var answer = HTTPResponse.apiError(APIError(.methodNotAllowed, "this route does not take \(head.method)"))
                answer.headers.append(("Allow", allowed.joined(separator: ", ")))
                return answer
            }
            throw APIError(.unknownRoute, "no route \(head.method) \(head.path); GET /v1/openapi.json lists them")
        }
    }

    // MARK: The APNs-compatible endpoint

    static func isAPNsDoor(_ head: HTTPRequestHead) -> Bool {
        APNsDoor.isDoorPath(head.path)
    }

    /// `POST /3/device/{token}`, answered with APNs' statuses, `apns-id` and `{"reason":…}` bodies.
    func apnsDoor(_ request: HTTPRequest) async -> HTTPResponse {
        await APNsDoor.respond(
            request,
            accept: { token in try await service.acceptAPNsRequest(token: token, headers: request.head.headers, body: request.body, now: Date()) },
            failure: { [log] error, apnsID in
                log.warning("APNs endpoint: \(error)")
                guard let error = error as? PostgresError, error.isRetryable || error.kind == .outcomeUnknown else { return nil }
                return APNsDoorAnswer(status: 503, apnsID: apnsID, reason: "ServiceUnavailable")
            })
    }

    // MARK: Helpers

    /// Every route as `METHOD /path`, `*` standing for one segment: what `route` and `answerAtOnce` answer
    /// (debug builds check each pattern `route` matches against it), and what a test holds the OpenAPI
    /// document to.
    public static let routes: [String] = [
        "GET /v1/status", "GET /v1/openapi.json", "POST /v1/notifications",
        "GET /v1/recipients/*", "PUT /v1/recipients/*", "GET /v1/recipients/*/pending", "GET /v1/recipients/*/delivered",
        "DELETE /v1/recipients/*/apps/*/pending", "POST /v1/recipients/*/apps/*/delivered/*/response", "GET /v1/recipients/*/responses",
        "GET /v1/recipients/*/devices", "GET /v1/recipients/*/devices/*", "PUT /v1/recipients/*/devices/*", "DELETE /v1/recipients/*/devices/*",
        "GET /v1/recipients/*/deliveries", "POST /v1/deliveries/*/replay", "POST /v1/deliveries/*/outcome", "GET /v1/settings", "PUT /v1/settings",
        "GET /v1/settings/apns", "PUT /v1/settings/apns", "DELETE /v1/settings/apns", "GET /v1/settings/webpush", "PUT /v1/settings/webpush",
        "GET /v1/settings/ledger-webhook", "PUT /v1/settings/ledger-webhook", "DELETE /v1/settings/ledger-webhook", "POST /3/device/*",
        "GET /v1/apps/*/strings", "GET /v1/apps/*/strings/*", "PUT /v1/apps/*/strings/*", "DELETE /v1/apps/*/strings/*",
        "GET /v1/events", "GET /v1/keys", "POST /v1/keys", "DELETE /v1/keys/*",
    ]

    /// The methods `routes` has for this path, for a 405's `Allow`.
    static func methods(allowedFor segments: [String]) -> [String] {
        routes.compactMap { route in
            let parts = route.split(separator: " ")
            let pattern = parts[1].split(separator: "/").map(String.init)
            guard pattern.count == segments.count, zip(pattern, segments).allSatisfy({ $0 == "*" || $0 == $1 }) else { return nil }
            return String(parts[0])
        }
    }

    /// An error as an answer; a 401 says how to authenticate.
    static func answer(_ error: APIError) -> HTTPResponse {
        var answer = HTTPResponse.apiError(error)
        if error.apiCode == .unauthenticated { answer.headers.append(("WWW-Authenticate", #"Bearer realm="chime""#)) }
        return answer
    }

    /// `GET /v1/openapi.json`.
    static func isDocument(_ head: HTTPRequestHead) -> Bool {
        guard let segments = try? segments(head.path) else { return false }
        return match(head.method, segments, "GET", ["v1", "openapi.json"]) != nil
    }

    /// The values of the pattern's `*` segments when the request has this method and path.
    static func match(_ method: String, _ segments: [String], _ wanted: String, _ pattern: [String]) -> [String]? {
        assert(routes.contains("\(wanted) /\(pattern.joined(separator: "/"))"), "\(wanted) /\(pattern.joined(separator: "/")) is not in TenantAPIHandler.routes")
        guard method == wanted, segments.count == pattern.count else { return nil }
        var values: [String] = []
        for (segment, expected) in zip(segments, pattern) {
            if expected == "*" { values.append(segment) } else if segment != expected { return nil }
        }
        return values
    }

    /// A strings table as it was given: UTF-8 or UTF-16 with its byte order mark, so no charset is named.
    static let stringsHeaders: [(name: String, value: String)] = [
        ("Content-Type", "text/plain"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
    ]

    static func bearer(_ head: HTTPRequestHead) -> String? {
        guard let value = head.headers["authorization"], value.hasPrefix("Bearer ") else { return nil }
        let secret = String(value.dropFirst("Bearer ".count))
        return secret.isEmpty || secret.utf8.count > 200 ? nil : secret
    }

    /// The path's segments, percent-decoded.
    static func segments(_ path: String) throws(APIError) -> [String] {
        var segments: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = String(part).removingPercentEncoding else { throw APIError(.malformedRequest, "a path segment is not percent-encoded UTF-8") }
            segments.append(decoded)
        }
        return segments
    }

    static func page(_ head: HTTPRequestHead) throws(APIError) -> PageRequest {
        guard let text = head.queryValue("limit") else { return try PageRequest(cursor: head.queryValue("cursor")) }
        guard let limit = Int(text) else { throw APIError(.invalidParameters, field: "limit", "limit is a number") }
        return try PageRequest(cursor: head.queryValue("cursor"), limit: limit)
    }

    static func decode<Body: Decodable>(
        _ type: Body.Type, _ request: HTTPRequest, using decode: ([UInt8]) throws -> Body = { try WireFormat.decoder().decode(Body.self, from: Data($0)) }
    ) throws(APIError) -> Body {
        guard let contentType = request.head.headers["content-type"], contentType.lowercased().hasPrefix(WireFormat.jsonMediaType) else {
            throw APIError(.unsupportedMediaType, "the body must be application/json")
        }
        do {
            return try decode(request.body)
        } catch {
            throw APIError(.malformedRequest, "the body is not the JSON this route takes: \(error)")
        }
    }
}
