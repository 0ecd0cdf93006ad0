import Foundation

/// Base64url (RFC 4648 §5) without padding, as JOSE (JWTs) and Web Push write keys and signatures.
public enum Base64URL {
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text, with or without its padding (browsers leave it out); `nil` for
    /// anything else, standard base64's `+` and `/` included.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x3D }) else { return nil }
        var standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if !standard.hasSuffix("=") { standard += String(repeating: "=", count: (4 - utf8.count % 4) % 4) }
        return Data(base64Encoded: standard).map(Array.init)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
    }
}
