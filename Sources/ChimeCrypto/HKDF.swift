/// HKDF with SHA-256 (RFC 5869): what Web Push's message encryption (RFC 8291, RFC 8188) derives its keys
/// with. Every use there asks for at most 32 bytes, one block of the expansion, so that is all this does.
public enum HKDF {
    /// HKDF-Extract: a pseudorandom key from `salt` and the input keying material.
    public static func extract(salt: [UInt8], inputKeyingMaterial: [UInt8]) -> [UInt8] {
        Digest.hmacSHA256(key: salt, message: inputKeyingMaterial)
    }

    /// HKDF-Expand for `length` ≤ 32 bytes: T(1) = HMAC(PRK, info ‖ 0x01), truncated.
    public static func expand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition((1...32).contains(length), "one block of HKDF-SHA256 is 32 bytes")
        return Array(Digest.hmacSHA256(key: pseudorandomKey, message: info + [0x01]).prefix(length))
    }
}
