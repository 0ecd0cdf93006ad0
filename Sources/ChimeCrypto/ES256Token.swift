/// JSON Web Tokens signed with ES256 (RFC 7519, RFC 7515's compact form, RFC 7518 §3.4): APNs provider
/// tokens and Web Push's VAPID tokens. The header and claims are JSON their callers write; this type only
/// signs and checks the signature, so it knows nothing of any one token's claims.
public enum ES256Token {
    /// `base64url(header).base64url(claims).base64url(signature)`.
    public static func sign(header: [UInt8], claims: [UInt8], with key: P256PrivateKey) -> String {
        let input = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        return input + "." + Base64URL.encode(key.signature(of: Array(input.utf8)))
    }

    /// The three parts of a compact token, decoded; `nil` when it is not three base64url parts.
    public static func parts(of token: String) -> (header: [UInt8], claims: [UInt8], signature: [UInt8], signedInput: [UInt8])? {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3, let header = Base64URL.decode(pieces[0]), let claims = Base64URL.decode(pieces[1]),
            let signature = Base64URL.decode(pieces[2])
        else { return nil }
        return (header, claims, signature, Array("\(pieces[0]).\(pieces[1])".utf8))
    }

    /// The header and claims of `token` when `key` signed it; `nil` otherwise. The header's `alg` is the
    /// caller's to check: this only checks the signature as ES256's.
    public static func verified(_ token: String, with key: P256PublicKey) -> (header: [UInt8], claims: [UInt8])? {
        guard let parts = parts(of: token), key.isValidSignature(parts.signature, of: parts.signedInput) else { return nil }
        return (parts.header, parts.claims)
    }
}
