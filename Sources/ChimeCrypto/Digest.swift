import COpenSSL

/// Digests and message authentication codes from the system's libcrypto (OpenSSL): one place for what
/// the web center's signed links, idempotency fingerprints and webhook signatures need.
public enum Digest {
    /// SHA-256 (FIPS 180-4) of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let made = bytes.withUnsafeBufferPointer { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil) }
        precondition(made == 1 && length == 32, "libcrypto's SHA-256 failed")
        return digest
    }

    /// HMAC-SHA256 (RFC 2104) of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let made = key.withUnsafeBytes { key in
            message.withUnsafeBufferPointer { message in
                HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &digest, &length)
            }
        }
        precondition(made != nil && length == 32, "libcrypto's HMAC-SHA256 failed")
        return Array(digest.prefix(Int(length)))
    }

    /// Whether two byte strings are equal, in a time that depends on their lengths only: for comparing a
    /// signature or a secret someone sent with the expected one.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
