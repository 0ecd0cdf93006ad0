public import Foundation
import ChimeCrypto

/// The headers of a Web Push message (RFC 8030 §5, RFC 8291, RFC 8292) beside its encrypted body.
public enum WebPushHeaders {
    /// How long a push service keeps a message for a browser that is offline (`TTL`): a day, as for APNs.
    public static let timeToLive = 24 * 3600

    /// `Authorization` (VAPID for the endpoint's `origin`), `Content-Encoding`, `TTL`, `Urgency`
    /// (`very-low`, `low`, `normal`, `high`) and, when given, `Topic`.
    public static func headers(vapid: VAPID, origin: String, urgency: String, topic: String?, now: Date) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Authorization", vapid.authorization(audience: origin, now: now)), ("Content-Encoding", "aes128gcm"), ("TTL", String(timeToLive)),
            ("Urgency", urgency),
        ]
        if let topic { headers.append(("Topic", topic)) }
        return headers
    }

    /// RFC 8030's `Topic` for a notification: a later message with the same topic replaces this one while
    /// the browser is offline, as a notification with the same identifier replaces it in Apple's API. At
    /// most 32 base64url characters, so the identifier's SHA-256, shortened.
    public static func topic(identifier: String) -> String {
        Base64URL.encode(Digest.sha256(Array(identifier.utf8)).prefix(24))
    }
}
