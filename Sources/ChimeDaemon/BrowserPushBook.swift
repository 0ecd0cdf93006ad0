import ChimeAPI
import ChimeCrypto
import ChimeDelivery
import ChimeEngine
import Foundation
import Synchronization

/// The per-user daemon's Web Push state in `web-push.json` (private to the user): its VAPID key, made on
/// first use, and the browsers subscribed to its pushes. Every change is on disk before it is answered,
/// so a browser never holds a subscription made with a key the daemon lost.
final class BrowserPushBook: Sendable {
    struct Subscriber: Codable, Sendable, Hashable {
        var id: String
        var endpoint: String
        var p256dh: String
        var auth: String
        /// When the push service ends it, if it said (`expirationTime`).
        var expires: Date?
        var since: Date
        /// The web center's address it was made on: its service worker lives there.
        var origin: String?
    }

    private struct Contents: Codable {
        var key: String?
        var subscribers: [Subscriber] = []
    }

    /// At most this many browsers at once; a new one beyond it replaces the one subscribed longest ago.
    static let maximumSubscribers = 32

    let file: URL
    private let state: Mutex<(contents: Contents, key: P256PrivateKey?)>

    /// Reads the file; a damaged one is set aside beside it (`.damaged`) and the book starts empty, which
    /// the caller is told through `setAside`.
    init(file: URL, setAside: (String) -> Void) {
        self.file = file
        var contents = Contents()
        var key: P256PrivateKey?
        if let data = FileManager.default.contents(atPath: file.path) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            if let read = try? decoder.decode(Contents.self, from: data), read.key.map({ (try? P256PrivateKey(pem: $0)) != nil }) ?? true {
                contents = read
                key = try? read.key.map { try P256PrivateKey(pem: $0) }
            } else {
                let aside = file.path + ".damaged"
                rename(file.path, aside)
                setAside("\(file.path) could not be read; moved it to \(aside) and started without subscriptions (browsers subscribe again)")
            }
        }
        state = Mutex((contents, key))
    }

    /// The key, made and written now if there was none.
    func key() throws -> P256PrivateKey {
        try state.withLock { state in
            if let key = state.key { return key }
            let key = P256PrivateKey.generate()
            var contents = state.contents
            contents.key = key.pem
            try write(contents)
            state = (contents, key)
            return key
        }
    }

    var subscribers: [Subscriber] { state.withLock { $0.contents.subscribers } }

    /// Adds or replaces `subscriber` (by endpoint); the oldest goes when there are too many.
    func add(_ subscriber: Subscriber) throws {
        try change { subscribers in
            subscribers.removeAll { $0.id == subscriber.id }
            subscribers.append(subscriber)
            if subscribers.count > Self.maximumSubscribers { subscribers.removeFirst(subscribers.count - Self.maximumSubscribers) }
        }
    }

    /// Removes the subscriptions `ids` names; whether any was there.
    @discardableResult
    func remove(_ ids: Set<String>) throws -> Bool {
        var removed = false
        try change { subscribers in
            let before = subscribers.count
            subscribers.removeAll { ids.contains($0.id) }
            removed = subscribers.count != before
        }
        return removed
    }

    /// The identifier of a subscription: base64url of the first 16 bytes of its endpoint's SHA-256.
    static func identifier(endpoint: String) -> String {
        Base64URL.encode(Digest.sha256(Array(endpoint.utf8)).prefix(16))
    }

    private func change(_ body: (inout [Subscriber]) -> Void) throws {
        try state.withLock { state in
            var contents = state.contents
            body(&contents.subscribers)
            guard contents.subscribers != state.contents.subscribers else { return }
            try write(contents)
            state.contents = contents
        }
    }

    private func write(_ contents: Contents) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        try DurableFile.replace(file, with: try encoder.encode(contents), mode: 0o600)
    }
}
