public import ChimeCrypto
import Foundation

/// A stand-in for APNs on loopback (`apns_standin.py`): HTTP/2 over TLS with a certificate of its own,
/// checking provider tokens with the public keys it was given, headers and payloads as APNs does, and
/// answering as a device token's first digits script (see the script). `requests()` is what it received.
public struct APNsStandIn: Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("apns_standin.py").path

    public struct Key: Sendable {
        public let team: String
        public let keyID: String
        public let key: P256PrivateKey

        public init(team: String, keyID: String, key: P256PrivateKey = .generate()) {
            self.team = team
            self.keyID = keyID
            self.key = key
        }
    }

    public let process: ChildProcess
    public let port: Int
    /// The stand-in's certificate, which its clients trust instead of the system's authorities.
    public let certificate: String
    let folder: URL

    /// Starts it, knowing `keys`; `latency` delays every answer (concurrency is then visible).
    public static func start(keys: [Key], latencyMilliseconds: Int = 0, quiet: Bool = false) async throws -> APNsStandIn {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var table: [String: [String: String]] = [:]
        for key in keys { table[key.keyID] = ["team": key.team, "public_pem": key.key.publicKey.pem] }
        try JSONEncoder().encode(table).write(to: folder.appendingPathComponent("keys.json"))
        var arguments = [script, "--keys", folder.appendingPathComponent("keys.json").path, "--log", folder.appendingPathComponent("log.jsonl").path]
        arguments += ["--latency-ms", String(latencyMilliseconds)] + (quiet ? ["--quiet"] : [])
        let process = try ChildProcess("/usr/bin/python3", arguments, name: "APNs stand-in")
        let line = try await process.output.take("the stand-in's port") { !$0.isEmpty }
        let words = line.split(separator: " ")
        guard words.count == 2, let port = Int(words[0]) else { throw Timeout(description: "the APNs stand-in said \(line)") }
        return APNsStandIn(process: process, port: port, certificate: String(words[1]), folder: folder)
    }

    public var url: String { "https://127.0.0.1:\(port)" }

    /// The requests it answered, in order, as JSON objects; lines with `violation` are protocol faults.
    public func requests() -> [[String: Any]] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("log.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    public func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
