import ChimeCrypto
import Foundation

/// The headers that make a webhook verifiable, as the Standard Webhooks specification defines them:
/// `webhook-id`, `webhook-timestamp` and `webhook-signature`, the last an HMAC-SHA256 of
/// `{id}.{timestamp}.{body}` under each of the endpoint's secrets (`v1,<base64>`, space-separated: during a
/// rotation both the new secret and the old one sign, so a receiver that knows either accepts).
public struct WebhookSignature: Sendable, Hashable {
    /// The identifier of the message: the same for every attempt, so a receiver can deduplicate.
    public let id: String
    /// The attempt's time, in whole seconds since 1970: new for every attempt.
    public let timestamp: Int64
    /// The `webhook-signature` value.
    public let signatures: String

    /// How far from the receiver's clock a timestamp may be (the specification's libraries use 5 minutes).
    public static let tolerance: Int64 = 300

    /// Signs one attempt of `body` with every secret in `secrets` (the current one first).
    ///
    /// - Precondition: `id` has no `.` (the signed content is joined with dots) and `secrets` is not empty.
    public init(id: String, timestamp: Int64, body: [UInt8], secrets: [WebhookSecret]) {
        precondition(!id.contains(".") && !id.isEmpty, "a webhook id is not empty and has no dot")
        precondition(!secrets.isEmpty, "a webhook is signed with at least one secret")
        self.id = id
        self.timestamp = timestamp
        let content = Self.signedContent(id: id, timestamp: timestamp, body: body)
        signatures = secrets.map { "v1," + Data(Digest.hmacSHA256(key: $0.key, message: content)).base64EncodedString() }.joined(separator: " ")
    }

    /// The three headers, as sent.
    public var headers: [(name: String, value: String)] {
        [("webhook-id", id), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signatures)]
    }

    static func signedContent(id: String, timestamp: Int64, body: [UInt8]) -> [UInt8] {
        Array("\(id).\(timestamp).".utf8) + body
    }

    /// What a receiver checks: a `v1` signature in `signatures` made with `secret` over this id, timestamp and
    /// body, and a timestamp within `tolerance` of `now`. Compared in constant time.
    public static func verify(id: String, timestamp: String, signatures: String, body: [UInt8], secret: WebhookSecret, now: Int64) -> Bool {
        guard let seconds = Int64(timestamp), !id.isEmpty else { return false }
        let (difference, overflow) = now.subtractingReportingOverflow(seconds)
        guard !overflow, difference.magnitude <= UInt64(tolerance) else { return false }
        let expected = Digest.hmacSHA256(key: secret.key, message: signedContent(id: id, timestamp: seconds, body: body))
        return signatures.split(separator: " ").contains { entry in
            let parts = entry.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let given = Data(base64Encoded: String(parts[1])) else { return false }
            return Digest.constantTimeEqual(Array(given), expected)
        }
    }
}
