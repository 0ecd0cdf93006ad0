public import ChimeCrypto
public import Foundation

/// A browser's push subscription (the Push API's `PushSubscription`): the push service's endpoint, the
/// browser's P-256 public key (`p256dh`) and its 16-byte authentication secret (`auth`).
public struct WebPushSubscription: Sendable {
    public let endpoint: String
    public let publicKey: P256PublicKey
    public let authSecret: [UInt8]

    /// From the subscription's JSON fields as the browser gives them (base64url); `nil` when a key is not
    /// a point on P-256 or the secret is not 16 bytes.
    public init?(endpoint: String, p256dh: String, auth: String) {
        guard let point = Base64URL.decode(p256dh), let key = P256PublicKey(point: point), let secret = Base64URL.decode(auth), secret.count == 16
        else { return nil }
        self.endpoint = endpoint
        publicKey = key
        authSecret = secret
    }

    /// The endpoint's origin (`https://push.example.net`), the audience of a VAPID token for it, written as
    /// RFC 6454 serializes one: the scheme's default port left out.
    public var origin: String? {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port.flatMap { $0 == (scheme == "https" ? 443 : 80) ? nil : $0 }
        return "\(scheme)://\(shownHost.lowercased())" + (port.map { ":\($0)" } ?? "")
    }
}
