import ChimeCrypto
import Foundation

/// A webhook endpoint's signing secret, as the Standard Webhooks specification serializes it: `whsec_` and
/// the key's bytes in base64 (https://github.com/standard-webhooks/standard-webhooks, "Signature scheme").
///
/// Chime makes one per endpoint and hands it to the tenant once; the endpoint's receiver verifies each
/// delivery's `webhook-signature` with it.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    public static let prefix = "whsec_"
    /// The key sizes the specification allows: at least 24 bytes (192 bits), at most 64 (512 bits).
    public static let keySizes = 24...64

    /// The HMAC-SHA256 key.
    public let key: [UInt8]

    /// A new secret of 32 random bytes.
    public static func generate() -> WebhookSecret {
        var generator = SystemRandomNumberGenerator()
        return WebhookSecret(checkedKey: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Reads `whsec_<base64>`; `nil` for anything else, or a key of a size the specification does not allow.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let key = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))), Self.keySizes.contains(key.count)
        else { return nil }
        self.key = Array(key)
    }

    private init(checkedKey: [UInt8]) {
        key = checkedKey
    }

    /// `whsec_` and the key in base64, as given to the tenant.
    public var description: String { Self.prefix + Data(key).base64EncodedString() }
}
