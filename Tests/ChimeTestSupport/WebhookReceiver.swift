import Foundation

/// A webhook receiver on loopback (`webhook_receiver.py`): it verifies every request's Standard Webhooks
/// signature with the PyPI package and answers by path (see the script); `requests()` is what it received.
public struct WebhookReceiver: Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("webhook_receiver.py").path

    public let process: ChildProcess
    public let port: Int

    /// Starts it; `secret` (`whsec_…`) is the one it verifies with, which `setSecret` may give later.
    public static func start(secret: String? = nil) async throws -> WebhookReceiver {
        let process = try ChildProcess("/usr/bin/python3", [script] + (secret.map { [$0] } ?? []), name: "webhook receiver")
        let line = try await process.errors.take("the receiver's port") { $0.hasPrefix("listening on ") }
        return WebhookReceiver(process: process, port: Int(line.dropFirst("listening on ".count))!)
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests it received, in order, as JSON objects.
    public func requests() -> [[String: Any]] {
        process.output.wholeLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Makes `secret` the one it verifies with from now on.
    public func setSecret(_ secret: String) throws {
        let connection = try RawHTTPConnection(loopbackPort: UInt16(port))
        connection.request("POST", "/_secret", token: nil, body: secret, host: "127.0.0.1:\(port)", extraHeaders: [])
        _ = try connection.answer(within: 10)
    }

    public func stop() async { await process.stop() }
}
