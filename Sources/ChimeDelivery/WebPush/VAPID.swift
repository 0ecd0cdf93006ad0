public import ChimeCrypto
public import Foundation

/// Voluntary Application Server Identification (RFC 8292): the application server's P-256 key, which the
/// page gave the browser as `applicationServerKey` when it subscribed, signs a short-lived token for the
/// push service's origin, so the push service accepts messages for the subscription from this server only.
public struct VAPID: Sendable {
    /// How long a token is good for: RFC 8292 allows at most 24 hours.
    public static let lifetime: TimeInterval = 12 * 3600

    public let key: P256PrivateKey
    /// A contact for the push service's operator (`mailto:` or `https:`), the token's `sub`.
    public let subject: String?

    public init(key: P256PrivateKey, subject: String? = nil) {
        self.key = key
        self.subject = subject
    }

    /// The public key as the page passes it to `pushManager.subscribe`: base64url of the uncompressed point.
    public var applicationServerKey: String { Base64URL.encode(key.publicKey.point) }

    /// `Authorization: vapid t=<token>, k=<key>` for a message to `audience` (the endpoint's origin).
    public func authorization(audience: String, now: Date) -> String {
        var claims: [String: Any] = ["aud": audience, "exp": Int64(now.timeIntervalSince1970 + Self.lifetime)]
        if let subject { claims["sub"] = subject }
        let body = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])).map(Array.init) ?? []
        let token = ES256Token.sign(header: Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8), claims: body, with: key)
        return "vapid t=\(token), k=\(applicationServerKey)"
    }
}
