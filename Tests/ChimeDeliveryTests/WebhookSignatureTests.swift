import ChimeDelivery
import ChimeTestSupport
import Foundation
import Testing

/// Webhook signatures as the Standard Webhooks specification defines them, checked by two verifiers Chime
/// did not write in Swift (`webhook_verifier.py`: one from the specification's text, and the
/// `standardwebhooks` package from PyPI), and by Chime's own verifier.
@Suite("Webhook signatures")
struct WebhookSignatureTests {
    static let verifier = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("webhook_verifier.py").path

    struct Case: Encodable {
        var secret: String
        var id: String
        var timestamp: String
        var signature: String
        var body: String
        /// What both verifiers must say.
        var valid: Bool
    }

    /// Both verifiers' verdicts, one pair per case.
    static func verify(_ cases: [Case]) async throws -> [(spec: Bool, package: Bool)] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-webhooks-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(cases).write(to: file)
        let outcome = try await Subprocess.run("/usr/bin/python3", [Self.verifier, file.path])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        return outcome.standardOutput.split(separator: "\n").map { line in
            let words = line.split(separator: " ")
            return (words.first == "ok", words.last == "ok")
        }
    }

    @Test func signaturesVerifyWithTheSpecificationAndItsPythonLibrary() async throws {
        var generator = SystemRandomNumberGenerator()
        let now = Int64(Date().timeIntervalSince1970)
        var cases: [Case] = []
        for index in 0..<200 {
            let current = WebhookSecret.generate(), previous = WebhookSecret.generate(), stranger = WebhookSecret.generate()
            let body = (0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = "msg_\(index)_" + String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36)
            let rotating = index % 2 == 0
            let signature = WebhookSignature(id: id, timestamp: now, body: body, secrets: rotating ? [current, previous] : [current])
            let base64 = Data(body).base64EncodedString()
            func make(_ secret: WebhookSecret, id: String = id, timestamp: Int64 = now, body: String = base64, valid: Bool) -> Case {
                Case(secret: secret.description, id: id, timestamp: String(timestamp), signature: signature.signatures, body: body, valid: valid)
            }
            cases.append(make(current, valid: true))
            cases.append(make(previous, valid: rotating))
            cases.append(make(stranger, valid: false))
            cases.append(make(current, id: id + "x", valid: false))
            cases.append(make(current, timestamp: now + 1, valid: false))
            cases.append(make(current, body: Data(body + [0]).base64EncodedString(), valid: false))
        }
        let verdicts = try await Self.verify(cases)
        try #require(verdicts.count == cases.count)
        for (item, verdict) in zip(cases, verdicts) {
            #expect(verdict.spec == item.valid && verdict.package == item.valid, "\(item.id) with \(item.valid ? "its" : "another") secret: \(verdict)")
            let ours = WebhookSignature.verify(
                id: item.id, timestamp: item.timestamp, signatures: item.signature, body: Array(Data(base64Encoded: item.body)!),
                secret: WebhookSecret(item.secret)!, now: now)
            #expect(ours == item.valid, "\(item.id)")
        }
    }

    @Test func theHeadersAreTheSpecifications() {
        let secret = WebhookSecret(Self.example)!
        let signature = WebhookSignature(id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", timestamp: 1_674_087_231, body: Array("{}".utf8), secrets: [secret])
        #expect(signature.headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(signature.headers.map(\.value)[0...1] == ["msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", "1674087231"])
        #expect(signature.signatures.hasPrefix("v1,") && !signature.signatures.contains(" "))
    }

    static let example = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()

    @Test func secretsAreWhsecBase64OfTwentyFourToSixtyFourBytes() {
        let made = WebhookSecret.generate()
        #expect(made.description.hasPrefix("whsec_") && WebhookSecret(made.description) == made && made.key.count == 32)
        #expect(WebhookSecret.generate() != made)
        for count in [24, 64] { #expect(WebhookSecret("whsec_" + Data(repeating: 1, count: count).base64EncodedString()) != nil) }
        for bad in [
            "whsec_" + Data(repeating: 1, count: 23).base64EncodedString(), "whsec_" + Data(repeating: 1, count: 65).base64EncodedString(),
            Data(repeating: 1, count: 32).base64EncodedString(), "whsec_not base64!", "whsk_" + Data(repeating: 1, count: 32).base64EncodedString(), "",
        ] {
            #expect(WebhookSecret(bad) == nil, "\(bad)")
        }
    }

    /// A receiver takes a timestamp within five minutes of its clock either way, and nothing else.
    @Test func chimesVerifierHoldsTheTimestampToItsTolerance() {
        let secret = WebhookSecret.generate()
        let body = Array("{\"type\":\"notification.delivered\"}".utf8)
        let signed = WebhookSignature(id: "msg_1", timestamp: 1_000_000, body: body, secrets: [secret])
        func check(now: Int64, timestamp: String = "1000000") -> Bool {
            WebhookSignature.verify(id: "msg_1", timestamp: timestamp, signatures: signed.signatures, body: body, secret: secret, now: now)
        }
        #expect(check(now: 1_000_300) && check(now: 999_700))
        #expect(!check(now: 1_000_301) && !check(now: 999_699))
        #expect(!check(now: 1_000_000, timestamp: "1e6") && !check(now: 1_000_000, timestamp: " 1000000"))
        #expect(!check(now: Int64.max, timestamp: "-9223372036854775808") && !check(now: .min, timestamp: "9223372036854775807"), "no overflow")
    }
}
