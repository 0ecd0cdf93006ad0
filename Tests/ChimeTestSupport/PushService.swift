import Foundation

/// A browser's push service on loopback (`push_service.py`): HTTPS with its own certificate, checking
/// every message's VAPID token, TTL and encryption, decrypting it as the browser would; `subscribe` makes a
/// subscription as `pushManager.subscribe` does, and `messages()` is what it received.
public struct PushService: Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("push_service.py").path

    public let process: ChildProcess
    public let port: Int
    /// Its certificate, which senders trust instead of the system's authorities.
    public let certificate: String

    public static func start() async throws -> PushService {
        let process = try ChildProcess("/usr/bin/python3", [script], name: "push service")
        let line = try await process.errors.take("the push service's port") { $0.hasPrefix("listening on ") }
        let words = line.dropFirst("listening on ".count).split(separator: " ")
        guard words.count == 2, let port = Int(words[0]) else { throw Timeout(description: "the push service said \(line)") }
        return PushService(process: process, port: port, certificate: String(words[1]))
    }

    /// A new subscription for the server key `applicationServerKey`, as the browser's PushSubscription JSON:
    /// `{"endpoint", "keys": {"p256dh", "auth"}}`; `kind` scripts its answers (see the script).
    public func subscribe(applicationServerKey: String, kind: String = "ok") throws -> String {
        try CurlPost.send(
            port: port, certificate: certificate, path: "/_subscribe", body: #"{"applicationServerKey":"\#(applicationServerKey)","kind":"\#(kind)"}"#)
    }

    /// The messages it received, in order, as JSON objects.
    public func messages() -> [[String: Any]] {
        process.output.wholeLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    public func stop() async { await process.stop() }
}

/// One HTTPS POST with curl (the push service speaks TLS only).
enum CurlPost {
    static func send(port: Int, certificate: String, path: String, body: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "--cacert", certificate, "-H", "Content-Type: application/json", "--data-binary", body, "https://127.0.0.1:\(port)\(path)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Timeout(description: "curl \(path) failed with \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}
