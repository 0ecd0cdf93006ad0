import COpenSSL
import Foundation

/// A P-256 (secp256r1) private key from the system's libcrypto: what signs APNs provider tokens and Web
/// Push's VAPID tokens (ES256), and agrees on Web Push's shared secret (ECDH).
///
/// Keys are read from PEM: PKCS#8 (`BEGIN PRIVATE KEY`, the form of Apple's `.p8` files) or SEC 1
/// (`BEGIN EC PRIVATE KEY`); a key of another type or curve is refused.
public final class P256PrivateKey: @unchecked Sendable {  // libcrypto keys are immutable once made, safe across threads
    let key: OpaquePointer
    /// Worked out once: every provider token's and VAPID header's key identity, and every check of a
    /// signature against a tenant's key, asks for it.
    public let publicKey: P256PublicKey

    private init(_ key: OpaquePointer) {
        self.key = key
        publicKey = P256PublicKey(point: P256PublicKey.point(of: key))!
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A new key pair from libcrypto's random generator.
    public static func generate() -> P256PrivateKey {
        guard let key = chime_p256_generate() else { preconditionFailure("libcrypto could not generate a P-256 key") }
        return P256PrivateKey(key)
    }

    public convenience init(pem: String) throws(CryptoError) {
        let key: OpaquePointer? = pem.utf8CString.withUnsafeBufferPointer { text in
            guard let bio = BIO_new_mem_buf(text.baseAddress, Int32(text.count - 1)) else { return nil }
            defer { BIO_free(bio) }
            return chime_read_private_key(bio)
        }
        guard let key else {
            ERR_clear_error()
            throw CryptoError("the text is not an unencrypted private key in PEM (BEGIN PRIVATE KEY)")
        }
        guard P256PublicKey.isP256(key) else {
            EVP_PKEY_free(key)
            throw CryptoError("the key is not an elliptic-curve key on P-256 (an APNs or VAPID key is)")
        }
        self.init(key)
    }

    /// The key whose private scalar is `scalar` (32 bytes, big-endian), as JWKs' `d` and RFC 8291's
    /// examples give one; libcrypto works out the public point.
    public convenience init(scalar: [UInt8]) throws(CryptoError) {
        guard scalar.count == 32 else { throw CryptoError("a P-256 private scalar is 32 bytes") }
        // SEC 1's ECPrivateKey without its public key: version 1, the scalar, the curve prime256v1.
        let der: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20] + scalar + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let base64 = Data(der).base64EncodedString()
        try self.init(pem: "-----BEGIN EC PRIVATE KEY-----\n\(base64)\n-----END EC PRIVATE KEY-----\n")
    }

    /// The key in PKCS#8 PEM, to be kept.
    public var pem: String {
        guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("libcrypto could not allocate a buffer") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { preconditionFailure("libcrypto could not write a key") }
        return Self.contents(of: bio)
    }

    static func contents(of bio: OpaquePointer) -> String {
        var data: UnsafeMutablePointer<CChar>?
        let length = chime_bio_contents(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// An ECDSA signature of SHA-256(`message`) as JOSE's ES256 writes it: r ‖ s, 32 bytes each (RFC 7518 §3.4).
    public func signature(of message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("libcrypto could not allocate a digest") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        var der = [UInt8](repeating: 0, count: 80)
        let signed = message.withUnsafeBufferPointer { message -> Bool in
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
            length = der.count
            return EVP_DigestSign(context, &der, &length, message.baseAddress, message.count) == 1
        }
        precondition(signed, "libcrypto could not sign with a P-256 key")
        return der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, length) else { preconditionFailure("libcrypto's signature was not DER") }
            defer { ECDSA_SIG_free(signature) }
            var joined = [UInt8](repeating: 0, count: 64)
            joined.withUnsafeMutableBufferPointer { out in
                _ = BN_bn2binpad(ECDSA_SIG_get0_r(signature), out.baseAddress, 32)
                _ = BN_bn2binpad(ECDSA_SIG_get0_s(signature), out.baseAddress! + 32, 32)
            }
            return joined
        }
    }

    /// ECDH: the 32-byte x coordinate of this key times `peer`'s point (SEC 1 §3.3.1).
    public func sharedSecret(with peer: P256PublicKey) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { preconditionFailure("libcrypto could not allocate a key exchange") }
        defer { EVP_PKEY_CTX_free(context) }
        var secret = [UInt8](repeating: 0, count: 32)
        var length = secret.count
        let derived = EVP_PKEY_derive_init(context) == 1 && EVP_PKEY_derive_set_peer(context, peer.key) == 1 && EVP_PKEY_derive(context, &secret, &length) == 1
        precondition(derived && length == 32, "libcrypto could not agree on a P-256 secret")
        return secret
    }
}

/// A P-256 public key: the point a browser gives in its push subscription, or the one an APNs key's owner
/// publishes; it checks ES256 signatures.
public final class P256PublicKey: @unchecked Sendable {  // immutable once made
    let key: OpaquePointer

    /// The key of an uncompressed point (0x04 ‖ X ‖ Y, 65 bytes); `nil` when it is not a point on the curve.
    public init?(point: [UInt8]) {
        guard point.count == 65, point.first == 0x04, let key = point.withUnsafeBufferPointer({ chime_p256_public_key($0.baseAddress, $0.count) })
        else { return nil }
        self.key = key
    }

    /// A key in PEM (`BEGIN PUBLIC KEY`, SubjectPublicKeyInfo).
    public init(pem: String) throws(CryptoError) {
        let key: OpaquePointer? = pem.utf8CString.withUnsafeBufferPointer { text in
            guard let bio = BIO_new_mem_buf(text.baseAddress, Int32(text.count - 1)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let key else {
            ERR_clear_error()
            throw CryptoError("the text is not a public key in PEM (BEGIN PUBLIC KEY)")
        }
        guard Self.isP256(key) else {
            EVP_PKEY_free(key)
            throw CryptoError("the key is not an elliptic-curve key on P-256")
        }
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The uncompressed point: 0x04 ‖ X ‖ Y.
    public var point: [UInt8] { Self.point(of: key) }

    /// The key in PEM (`BEGIN PUBLIC KEY`).
    public var pem: String {
        guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("libcrypto could not allocate a buffer") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PUBKEY(bio, key) == 1 else { preconditionFailure("libcrypto could not write a key") }
        return P256PrivateKey.contents(of: bio)
    }

    /// Whether `signature` (r ‖ s, 64 bytes) is this key's ES256 signature of `message`.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let parsed = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(parsed) }
        let r = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(parsed, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(parsed, &der)
        guard length > 0, let der else { return false }
        defer { chime_openssl_free(der) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return message.withUnsafeBufferPointer { message in
            EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
                && EVP_DigestVerify(context, der, Int(length), message.baseAddress, message.count) == 1
        }
    }

    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 32)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length) == 1 else { return false }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    static func point(of key: OpaquePointer) -> [UInt8] {
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = EVP_PKEY_get1_encoded_public_key(key, &encoded)
        guard length == 65, let encoded else { preconditionFailure("libcrypto gave no uncompressed P-256 point") }
        defer { chime_openssl_free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: length))
    }
}
