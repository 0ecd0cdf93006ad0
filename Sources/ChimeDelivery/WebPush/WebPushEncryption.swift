public import ChimeCrypto

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188), one record:
/// only the browser that made the subscription can read what the push service carries.
///
/// Per message, a new P-256 key pair (the application server's) and a new 16-byte salt:
/// 1. ecdh_secret = ECDH(as_private, ua_public); IKM = HKDF(salt: auth, ecdh_secret,
///    info: "WebPush: info" ‖ 0x00 ‖ ua_public ‖ as_public, 32 bytes).
/// 2. PRK = HKDF-Extract(salt, IKM); the content key is HKDF-Expand(PRK, "Content-Encoding: aes128gcm" ‖
///    0x00, 16 bytes) and the nonce HKDF-Expand(PRK, "Content-Encoding: nonce" ‖ 0x00, 12 bytes).
/// 3. The record is the plaintext, the delimiter 0x02 (the last record) and no padding, sealed with
///    AES-128-GCM.
/// 4. The body is salt ‖ rs (4096, 4 bytes big-endian) ‖ idlen (65) ‖ as_public ‖ the sealed record.
public enum WebPushEncryption {
    /// The record size written in the header: the largest RFC 8291 lets an application server use.
    public static let recordSize = 4096
    /// The most plaintext one record of `recordSize` holds: less the header (86 bytes), the tag (16) and
    /// the delimiter (1). Push services take bodies of 4096 bytes (RFC 8030 §7.2).
    public static let maximumPlaintext = 4096 - 86 - 16 - 1

    public struct TooLarge: Error, Sendable, Hashable {
        public let size: Int

        public init(size: Int) {
            self.size = size
        }
    }

    /// `plaintext` encrypted for `subscription`; `senderKey` and `salt` are new for every message, and
    /// given only to reproduce a published example.
    public static func encrypt(
        _ plaintext: [UInt8], for subscription: WebPushSubscription, senderKey: P256PrivateKey = .generate(), salt: [UInt8]? = nil
    ) throws(TooLarge) -> [UInt8] {
        guard plaintext.count <= maximumPlaintext else { throw TooLarge(size: plaintext.count) }
        var generator = SystemRandomNumberGenerator()
        let salt = salt ?? (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let userAgentPoint = subscription.publicKey.point
        let senderPoint = senderKey.publicKey.point
        let shared = senderKey.sharedSecret(with: subscription.publicKey)
        let keyInfo = Array("WebPush: info".utf8) + [0] + userAgentPoint + senderPoint
        let inputKeyingMaterial = HKDF.expand(
            pseudorandomKey: HKDF.extract(salt: subscription.authSecret, inputKeyingMaterial: shared), info: keyInfo, length: 32)
        let pseudorandomKey = HKDF.extract(salt: salt, inputKeyingMaterial: inputKeyingMaterial)
        let contentKey = HKDF.expand(pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = HKDF.expand(pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        let sealed = AESGCM.seal(plaintext + [0x02], key: contentKey, nonce: nonce)
        let size = UInt32(recordSize)
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF), UInt8(senderPoint.count)] + senderPoint
        return header + sealed
    }
}
