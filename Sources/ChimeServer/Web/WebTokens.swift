import Foundation

/// Random secrets for the web center (login codes, sessions, CSRF tokens, the attachment links' key) and
/// their URL-safe text.
enum WebTokens {
    /// `count` bytes from the system's random source.
    static func randomBytes(_ count: Int = 32) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// 32 random bytes as URL-safe base64 (43 characters).
    static func random() -> String {
        base64URL(randomBytes())
    }

    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
