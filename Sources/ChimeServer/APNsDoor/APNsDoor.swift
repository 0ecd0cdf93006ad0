public import ChimeCore
public import ChimeCrypto
public import Foundation

/// What the APNs-compatible endpoint answers: APNs' own status, `apns-id` and reason.
public struct APNsDoorAnswer: Sendable, Hashable {
    public var status: Int
    public var apnsID: String
    public var reason: String?
    /// With 410: since when the token is no longer valid.
    public var timestamp: Date?

    public init(status: Int, apnsID: String, reason: String? = nil, timestamp: Date? = nil) {
        self.status = status
        self.apnsID = apnsID
        self.reason = reason
        self.timestamp = timestamp
    }

    /// APNs' error body: `{"reason":…}`, with `"timestamp"` (milliseconds) for 410; none for 200.
    public var body: [UInt8] {
        guard let reason else { return [] }
        var text = #"{"reason":"\#(reason)""#
        if let timestamp { text += #","timestamp":\#(Int64(timestamp.timeIntervalSince1970 * 1000))"# }
        return Array((text + "}").utf8)
    }

    /// The answer on the wire: the status, `apns-id`, and the JSON body of an error.
    public var response: HTTPResponse {
        var headers: [(String, String)] = [("apns-id", apnsID)]
        if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
        return HTTPResponse(status: status, headers: headers, body: .bytes(body))
    }
}

/// The device a token names, as the endpoint's owner knows it.
public struct APNsDoorDevice: Sendable, Hashable {
    /// Whom it reaches (server mode: a recipient; the per-user daemon: its one user, empty).
    public var recipient: String
    /// The app it was registered for (`apns-topic` must name it).
    public var topic: String
    public var enabled: Bool
    /// Since when a channel turned it off, for `410 Unregistered`.
    public var disabled: Date?

    public init(recipient: String, topic: String, enabled: Bool = true, disabled: Date? = nil) {
        self.recipient = recipient
        self.topic = topic
        self.enabled = enabled
        self.disabled = disabled
    }
}

/// `POST /3/device/{token}` as APNs takes it ("Sending notification requests to APNs"; "Establishing a
/// token-based connection to APNs"), so a backend that sends to APNs reaches Chime by changing its base
/// URL. The checks are APNs', in APNs' order; whose provider key signed the token and whom the device token
/// names are the caller's to say (a tenant's key and devices in server mode, the user's in the per-user
/// daemon). The payload is read by ChimeCore's strict APNs codec into a request delivered at once.
public enum APNsDoor {
    /// A request read: the provider key's owner, the device, the request to deliver, and its `apns-id`.
    public enum Reading<Owner: Sendable>: Sendable {
        case accepted(owner: Owner, device: APNsDoorDevice, request: NotificationRequest, apnsID: String, apnsIDGiven: Bool)
        case refused(APNsDoorAnswer)
    }

    /// The push types APNs knows.
    public static let pushTypes: Set<String> = [
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets",
    ]

    /// Whether `path` is the endpoint's (`/3/…`), which answers as APNs does rather than as the API.
    public static func isDoorPath(_ path: String) -> Bool {
        path == "/3" || path.hasPrefix("/3/")
    }

    /// The whole exchange: APNs' path and method, then `accept` with the device token (empty when the path
    /// has none); an error `accept` throws is APNs' 500, or what `failure` makes of it.
    public static func respond(
        _ request: HTTPRequest, accept: (String) async throws -> APNsDoorAnswer, failure: (any Error, String) -> APNsDoorAnswer? = { _, _ in nil }
    ) async -> HTTPResponse {
        let head = request.head
        let apnsID = head.headers["apns-id"].flatMap(messageID) ?? UUID().uuidString.lowercased()
        let segments = head.path.split(separator: "/", omittingEmptySubsequences: true).map { $0.removingPercentEncoding ?? "" }
        // `/3/device/{token}`; `/3/device/` alone is a request without a token.
        guard (2...3).contains(segments.count), segments[0] == "3", segments[1] == "device" else {
            return APNsDoorAnswer(status: 404, apnsID: apnsID, reason: "BadPath").response
        }
        guard head.method == "POST" else { return APNsDoorAnswer(status: 405, apnsID: apnsID, reason: "MethodNotAllowed").response }
        do {
            return try await accept(segments.count == 3 ? segments[2] : "").response
        } catch {
            return (failure(error, apnsID) ?? APNsDoorAnswer(status: 500, apnsID: apnsID, reason: "InternalServerError")).response
        }
    }

    /// An `apns-id` in lower case, when `text` is a UUID in its canonical form: 8-4-4-4-12 hexadecimal
    /// digits. Checked here rather than by Foundation, whose reading stops at a NUL byte and takes a `-`
    /// where a digit belongs (`123e4567--89b-…` read as `…-f89b-…`).
    static func messageID(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let isHyphen = byte == UInt8(ascii: "-")
            let isHex = (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
            guard [8, 13, 18, 23].contains(index) ? isHyphen : isHex else { return nil }
        }
        return text.lowercased()
    }

    /// Reads a request. `owner` finds whose provider key signed the token, from the token's `iss` (team)
    /// and `kid` (key), using `signedBy` to check a candidate key's signature; `device` says whom the
    /// device token (lower case) names for that owner.
    public static func read<Owner: Sendable>(
        token: String, headers: [String: String], body: [UInt8], now: Date,
        owner: (_ team: String, _ keyID: String, _ signedBy: (P256PublicKey) -> Bool) async throws -> Owner?,
        device: (Owner, String) async throws -> APNsDoorDevice?
    ) async throws -> Reading<Owner> {
        var apnsID = UUID().uuidString.lowercased()
        if let given = headers["apns-id"] {
            guard let parsed = messageID(given) else { return .refused(APNsDoorAnswer(status: 400, apnsID: apnsID, reason: "BadMessageId")) }
            apnsID = parsed
        }
        func refuse(_ status: Int, _ reason: String, since: Date? = nil) -> Reading<Owner> {
            .refused(APNsDoorAnswer(status: status, apnsID: apnsID, reason: reason, timestamp: since))
        }
        // The provider token.
        guard let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") else { return refuse(403, "MissingProviderToken") }
        let jwt = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let parts = ES256Token.parts(of: jwt), let header = try? JSONSerialization.jsonObject(with: Data(parts.header)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(parts.claims)) as? [String: Any], header["alg"] as? String == "ES256",
            let keyID = header["kid"] as? String, let team = claims["iss"] as? String, let issued = (claims["iat"] as? NSNumber)?.doubleValue,
            APNsIdentifier.isValid(keyID), APNsIdentifier.isValid(team)
        else { return refuse(403, "InvalidProviderToken") }
        guard let found = try await owner(team, keyID, { $0.isValidSignature(parts.signature, of: parts.signedInput) }) else {
            return refuse(403, "InvalidProviderToken")
        }
        guard issued <= now.timeIntervalSince1970 + 60 else { return refuse(403, "InvalidProviderToken") }
        guard now.timeIntervalSince1970 - issued <= 3600 else { return refuse(403, "ExpiredProviderToken") }

        // The device, and the headers as APNs checks them.
        guard !token.isEmpty else { return refuse(400, "MissingDeviceToken") }
        guard (64...200).contains(token.utf8.count), token.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }) else {
            return refuse(400, "BadDeviceToken")
        }
        guard let named = try await device(found, token.lowercased()) else { return refuse(400, "BadDeviceToken") }
        guard named.enabled else { return refuse(410, "Unregistered", since: named.disabled ?? now) }
        guard let topic = headers["apns-topic"], !topic.isEmpty else { return refuse(400, "MissingTopic") }
        guard topic == named.topic else { return refuse(400, "DeviceTokenNotForTopic") }
        if let type = headers["apns-push-type"], !pushTypes.contains(type) { return refuse(400, "InvalidPushType") }
        if let priority = headers["apns-priority"], !["1", "5", "10"].contains(priority) { return refuse(400, "BadPriority") }
        if let expiration = headers["apns-expiration"], Int64(expiration) == nil { return refuse(400, "BadExpirationDate") }
        let collapseID = headers["apns-collapse-id"]
        if let collapseID, collapseID.utf8.count > 64 || collapseID.isEmpty { return refuse(400, "BadCollapseId") }

        // The payload.
        guard !body.isEmpty else { return refuse(400, "PayloadEmpty") }
        guard body.count <= APNsPayload.maximumSize else { return refuse(413, "PayloadTooLarge") }
        // Not one of APNs' documented reasons: APNs takes any JSON object, Chime reads it strictly.
        guard let payload = try? APNsPayload(jsonData: Data(body)),
            let request = try? NotificationRequest(identifier: collapseID ?? apnsID, content: payload.content, trigger: nil)
        else { return refuse(400, "BadPayload") }
        return .accepted(owner: found, device: named, request: request, apnsID: apnsID, apnsIDGiven: headers["apns-id"] != nil)
    }
}
