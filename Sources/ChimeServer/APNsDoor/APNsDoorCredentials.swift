public import ChimeCrypto
public import Foundation
import ChimeEngine
import Synchronization

/// What the per-user daemon's APNs-compatible endpoint knows, in `apns.json` (private to the user): the
/// provider key the user's backend signs its tokens with — only its public half is kept, since the
/// endpoint only checks signatures — and the secret each app's device token is made from.
///
/// A device token names an app: the HMAC-SHA256 of the app's identifier under the secret, in hex (64
/// characters, as APNs' own). The same app always gets the same token, and no token can be made for an
/// app without the secret.
public final class APNsDoorCredentials: Sendable {
    public struct ProviderKey: Sendable {
        public let teamID: String
        public let keyID: String
        public let publicKey: P256PublicKey
    }

    private struct Contents: Codable {
        var teamId: String?
        var keyId: String?
        var publicKey: String?
        var tokenSecret: String?
    }

    public let file: URL
    private let state: Mutex<(contents: Contents, key: ProviderKey?)>

    /// Reads `file`; a missing file knows nothing yet. A damaged one is an error: its secret made the
    /// tokens the user's backends hold.
    public init(file: URL) throws {
        self.file = file
        var contents = Contents()
        var key: ProviderKey?
        if let data = FileManager.default.contents(atPath: file.path) {
            contents = try JSONDecoder().decode(Contents.self, from: data)
            if let team = contents.teamId, let keyID = contents.keyId, let pem = contents.publicKey {
                key = ProviderKey(teamID: team, keyID: keyID, publicKey: try P256PublicKey(pem: pem))
            }
        }
        state = Mutex((contents, key))
    }

    public var providerKey: ProviderKey? { state.withLock { $0.key } }

    /// Keeps `key` (only its public half is written), replacing any other.
    public func setProviderKey(_ key: ProviderKey) throws {
        try change { contents in
            contents.teamId = key.teamID
            contents.keyId = key.keyID
            contents.publicKey = key.publicKey.pem
        } then: { $0.key = key }
    }

    /// Forgets the provider key; whether there was one.
    @discardableResult
    public func removeProviderKey() throws -> Bool {
        guard providerKey != nil else { return false }
        try change { contents in
            contents.teamId = nil
            contents.keyId = nil
            contents.publicKey = nil
        } then: { $0.key = nil }
        return true
    }

    /// The device token of `app`; the secret is made (and written) the first time.
    public func deviceToken(app: String) throws -> String {
        let secret = try state.withLock { state -> [UInt8] in
            if let kept = state.contents.tokenSecret.flatMap({ Data(base64Encoded: $0) }) { return [UInt8](kept) }
            let made = WebTokens.randomBytes()
            var contents = state.contents
            contents.tokenSecret = Data(made).base64EncodedString()
            try write(contents)
            state.contents = contents
            return made
        }
        return Digest.hmacSHA256(key: secret, message: Array(("apns-device-token\u{0}" + app).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private func change(_ body: (inout Contents) -> Void, then apply: (inout (contents: Contents, key: ProviderKey?)) -> Void) throws {
        try state.withLock { state in
            var contents = state.contents
            body(&contents)
            try write(contents)
            state.contents = contents
            apply(&state)
        }
    }

    private func write(_ contents: Contents) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try DurableFile.replace(file, with: try encoder.encode(contents), mode: 0o600)
    }
}
