import ChimeCrypto
import ChimeAPI
import Foundation

/// Signed, short-lived addresses of notification attachments, so the web center can show an image with a
/// plain `<img src>` and link other files, without the address being good for anything else or for long.
///
/// `/web/attachments/{app}/{notification}/{attachment}?expires=1765000000&signature=…`: the signature is
/// HMAC-SHA256, under a key made at random when chimed starts, of the three identifiers and the expiry
/// (each length-prefixed, so no two lists of values sign alike). An address stops working when it
/// expires, when chimed restarts (a new key), and when the notification leaves the list (the file is
/// looked up again on every request); changing any part of it breaks the signature.
struct AttachmentLinks: Sendable {
    /// What a valid address names.
    struct Target: Sendable, Hashable {
        var app: String
        var notification: String
        var attachment: String
    }

    static let prefix = "/web/attachments/"
    /// How long an address works: long enough for a page to show what it loaded, short enough that a
    /// copied address is soon worthless. Pages load new ones with the list.
    static let lifetime: TimeInterval = 600

    private let key: [UInt8]

    init(key: [UInt8] = WebTokens.randomBytes()) {
        self.key = key
    }

    /// The signed path of `target`, working until `now + lifetime` (whole seconds).
    func path(for target: Target, now: Date) -> (path: String, expires: Date) {
        let expires = Int64((now.timeIntervalSince1970 + Self.lifetime).rounded(.up))
        let path = Self.prefix + [target.app, target.notification, target.attachment].map(PercentEncoding.encodeSegment).joined(separator: "/")
        return (path + "?expires=\(expires)&signature=\(signature(target, expires: expires))", Date(timeIntervalSince1970: TimeInterval(expires)))
    }

    /// The target of a request for `path` with `query`, when its signature holds and it has not expired.
    func verify(path: String, query: (String) -> String?, now: Date) -> Target? {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let segments = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3, segments.allSatisfy({ !$0.isEmpty }) else { return nil }
        let values = segments.compactMap { PercentEncoding.decode($0) }
        guard values.count == 3, let expiresText = query("expires"), let expires = Int64(expiresText), let given = query("signature") else {
            return nil
        }
        guard TimeInterval(expires) >= now.timeIntervalSince1970 else { return nil }
        let target = Target(app: values[0], notification: values[1], attachment: values[2])
        let expected = signature(target, expires: expires)
        guard given.utf8.count == expected.utf8.count, zip(given.utf8, expected.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return target
    }

    private func signature(_ target: Target, expires: Int64) -> String {
        var message: [UInt8] = []
        for value in [target.app, target.notification, target.attachment, String(expires)] {
            let bytes = Array(value.utf8)
            message += withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init)
            message += bytes
        }
        return WebTokens.base64URL(Digest.hmacSHA256(key: key, message: message))
    }


}
