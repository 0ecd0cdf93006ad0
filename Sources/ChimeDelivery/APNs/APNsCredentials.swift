public import ChimeCrypto
public import Foundation
import Synchronization

/// What a provider proves itself to APNs with (token-based authentication): the team's identifier, the
/// signing key's identifier and the key itself (the `.p8` file Apple's developer site gives).
public struct APNsCredentials: Sendable {
    public let teamID: String
    public let keyID: String
    public let key: P256PrivateKey
    /// Names these credentials among others: the identifiers and the key's public point, so a tenant that
    /// gives a new key under the same identifiers gets new tokens.
    let identity: String

    public init(teamID: String, keyID: String, key: P256PrivateKey) {
        self.teamID = teamID
        self.keyID = keyID
        self.key = key
        identity = teamID + "\u{0}" + keyID + "\u{0}" + Base64URL.encode(key.publicKey.point)
    }
}

/// A provider token (a JWT signed ES256: `{"alg":"ES256","kid":…}` and `{"iss":team,"iat":…}`) and when
/// to make the next one.
///
/// APNs refuses a token older than an hour (`ExpiredProviderToken`) and one replaced more often than every
/// 20 minutes (`TooManyProviderTokenUpdates`), so a token is used for `lifetime` (50 minutes) and then
/// replaced. When APNs rejects the current token anyway (`ExpiredProviderToken`, `InvalidProviderToken`:
/// a clock that was wrong when it was made, say), `replace(rejected:)` makes a new one at once, but only
/// once: a token made that way is not replaced early again, so a key APNs does not accept cannot make
/// Chime churn tokens.
public final class APNsProviderToken: Sendable {
    public static let lifetime: TimeInterval = 50 * 60

    private struct Current {
        var token: String
        var issued: Date
        var replacedEarly: Bool
    }

    private let credentials: APNsCredentials
    private let current: Mutex<Current?> = Mutex(nil)

    public init(credentials: APNsCredentials) {
        self.credentials = credentials
    }

    /// The token to send now.
    public func token(now: Date) -> String {
        current.withLock { current in
            if let existing = current, now.timeIntervalSince(existing.issued) < Self.lifetime, now >= existing.issued.addingTimeInterval(-60) {
                return existing.token
            }
            let made = Current(token: make(now), issued: now, replacedEarly: false)
            current = made
            return made.token
        }
    }

    /// A new token in place of `rejected`, when it is still the current one and none was replaced early
    /// before; `nil` otherwise (send with `token(now:)` again, or give up).
    public func replace(rejected: String, now: Date) -> String? {
        current.withLock { current in
            guard let existing = current, existing.token == rejected else { return current?.token }
            guard !existing.replacedEarly else { return nil }
            let made = Current(token: make(now), issued: now, replacedEarly: true)
            current = made
            return made.token
        }
    }

    private func make(_ now: Date) -> String {
        let header = #"{"alg":"ES256","kid":"\#(credentials.keyID)"}"#
        let claims = #"{"iss":"\#(credentials.teamID)","iat":\#(Int64(now.timeIntervalSince1970))}"#
        return ES256Token.sign(header: Array(header.utf8), claims: Array(claims.utf8), with: credentials.key)
    }
}
