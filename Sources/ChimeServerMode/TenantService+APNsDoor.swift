public import ChimeAPI
import ChimeCore
import ChimeCrypto
import ChimeDelivery
public import ChimePostgres
public import Foundation

/// What server mode's APNs-compatible endpoint answers: APNs' own status, `apns-id` and reason.
public struct APNsDoorAnswer: Sendable, Hashable {
    public var status: Int
    public var apnsID: String
    public var reason: String?
    /// With 410: since when the token is no longer valid.
    public var timestamp: Date?

    /// APNs' error body: `{"reason":…}`, with `"timestamp"` (milliseconds) for 410; none for 200.
    public var body: [UInt8] {
        guard let reason else { return [] }
        var text = #"{"reason":"\#(reason)""#
        if let timestamp { text += #","timestamp":\#(Int64(timestamp.timeIntervalSince1970 * 1000))"# }
        return Array((text + "}").utf8)
    }
}

// MARK: The APNs-compatible endpoint

extension TenantService {
    /// Tenants' provider keys as parsed, so a request costs a signature check, not a key's parsing.
    static let providerKeys = PrivateKeyCache()

    /// The push types APNs knows.
    static let apnsPushTypes: Set<String> = ["alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets"]

    /// `POST /3/device/{token}` as APNs takes it ("Sending notification requests to APNs"), so a backend that
    /// sends to APNs reaches a recipient of Chime by changing its base URL: the provider token (ES256, signed
    /// with the key the tenant gave in `PUT /v1/settings/apns`) names the tenant; the device token names the
    /// recipient who registered it; the payload is read by ChimeCore's strict APNs codec and delivered to
    /// the recipient at once, on every channel (their stream, webhooks, browsers and the APNs device itself).
    /// An `apns-id` makes a repeat of the same request (after a lost answer) add nothing.
    public func acceptAPNsRequest(token: String, headers: [String: String], body: [UInt8], now: Date) async throws -> APNsDoorAnswer {
        var apnsID = UUID().uuidString.lowercased()
        if let given = headers["apns-id"] {
            guard let parsed = UUID(uuidString: given) else { return APNsDoorAnswer(status: 400, apnsID: apnsID, reason: "BadMessageId") }
            apnsID = parsed.uuidString.lowercased()
        }
        func refuse(_ status: Int, _ reason: String, since: Date? = nil) -> APNsDoorAnswer {
            APNsDoorAnswer(status: status, apnsID: apnsID, reason: reason, timestamp: since)
        }
        // The provider token.
        guard let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") else { return refuse(403, "MissingProviderToken") }
        let jwt = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let parts = ES256Token.parts(of: jwt), let header = try? JSONSerialization.jsonObject(with: Data(parts.header)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(parts.claims)) as? [String: Any], header["alg"] as? String == "ES256",
            let keyID = header["kid"] as? String, let team = claims["iss"] as? String, let issued = (claims["iat"] as? NSNumber)?.doubleValue,
            APNsCredentials.isIdentifier(keyID), APNsCredentials.isIdentifier(team)
        else { return refuse(403, "InvalidProviderToken") }
        var tenant: String?
        for candidate in try await PostgresAPNsDoor(database: database).tenants(team: team, keyID: keyID) {
            guard let key = Self.providerKeys.key(candidate.pem) else { continue }
            if key.publicKey.isValidSignature(parts.signature, of: parts.signedInput) {
                tenant = candidate.tenant
                break
            }
        }
        guard let tenant else { return refuse(403, "InvalidProviderToken") }
        guard issued <= now.timeIntervalSince1970 + 60 else { return refuse(403, "InvalidProviderToken") }
        guard now.timeIntervalSince1970 - issued <= 3600 else { return refuse(403, "ExpiredProviderToken") }

        // The device, and the headers as APNs checks them.
        guard !token.isEmpty else { return refuse(400, "MissingDeviceToken") }
        guard (64...200).contains(token.utf8.count), token.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }) else {
            return refuse(400, "BadDeviceToken")
        }
        guard let device = try await PostgresAPNsDoor(database: database).device(tenant: tenant, token: token) else { return refuse(400, "BadDeviceToken") }
        guard device.enabled else { return refuse(410, "Unregistered", since: device.disabled ?? now) }
        guard let topic = headers["apns-topic"], !topic.isEmpty else { return refuse(400, "MissingTopic") }
        guard topic == device.topic else { return refuse(400, "DeviceTokenNotForTopic") }
        if let type = headers["apns-push-type"], !Self.apnsPushTypes.contains(type) { return refuse(400, "InvalidPushType") }
        if let priority = headers["apns-priority"], !["1", "5", "10"].contains(priority) { return refuse(400, "BadPriority") }
        if let expiration = headers["apns-expiration"], Int64(expiration) == nil { return refuse(400, "BadExpirationDate") }
        let collapseID = headers["apns-collapse-id"]
        if let collapseID, collapseID.utf8.count > 64 || collapseID.isEmpty { return refuse(400, "BadCollapseId") }

        // The payload.
        guard !body.isEmpty else { return refuse(400, "PayloadEmpty") }
        guard body.count <= APNsPayload.maximumSize else { return refuse(413, "PayloadTooLarge") }
        let payload: APNsPayload
        do {
            payload = try APNsPayload(jsonData: Data(body))
        } catch {
            // Not one of APNs' documented reasons: APNs takes any JSON object, Chime reads it strictly.
            return refuse(400, "BadPayload")
        }
        guard let request = try? NotificationRequest(identifier: collapseID ?? apnsID, content: payload.content, trigger: nil) else {
            return refuse(400, "BadPayload")
        }
        let batch = RecipientBatch(notifications: [RecipientRequest(recipient: device.recipient, app: topic, request: request)])
        let key = AuthenticatedKey(keyID: "apns:\(keyID)", tenant: tenant, scopes: [.publish])
        do {
            _ = try await add(
                batch, key: key, idempotencyKey: headers["apns-id"].map { _ in "apns:\(apnsID)" }, route: "POST /3/device/\(token.lowercased())", body: body,
                now: now)
        } catch let error as APIError where error.apiCode == .idempotencyKeyReused || error.apiCode == .invalidParameters {
            return refuse(400, "BadPayload")
        }
        return APNsDoorAnswer(status: 200, apnsID: apnsID)
    }
}
