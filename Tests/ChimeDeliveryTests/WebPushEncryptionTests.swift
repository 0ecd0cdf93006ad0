import ChimeCrypto
import ChimeDelivery
import ChimeTestSupport
import Foundation
import Testing

/// Web Push messages: RFC 8291's own example reproduced byte for byte, and random messages decrypted by an
/// implementation Chime did not write (`http_ece`, PyPI, in `webpush_oracle.py`), with their VAPID tokens
/// (RFC 8292) checked by PyJWT.
@Suite("Web Push encryption and VAPID")
struct WebPushEncryptionTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("webpush_oracle.py").path

    /// RFC 8291, Appendix A and Section 5: the same keys, secret and salt give the published body.
    @Test func rfc8291sExampleIsReproducedExactly() throws {
        let subscription = try #require(
            WebPushSubscription(
                endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV", p256dh:
                    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg"))
        let sender = try P256PrivateKey(scalar: try #require(Base64URL.decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")))
        #expect(Base64URL.encode(sender.publicKey.point) == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8), for: subscription, senderKey: sender,
            salt: try #require(Base64URL.decode("DGv6ra1nlYgDCS1FRnbzlw")))
        #expect(
            Base64URL.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
        #expect(subscription.origin == "https://push.example.net")
        let defaultPort = try #require(WebPushSubscription(endpoint: "https://Push.Example.net:443/x", p256dh: Base64URL.encode(sender.publicKey.point), auth: "BTBZMqHH6r4Tts7J_aSIgg"))
        #expect(defaultPort.origin == "https://push.example.net", "RFC 6454 leaves the default port out")
    }

    struct Made: Decodable {
        var `private`: String
        var p256dh: String
        var auth: String
    }

    struct Case: Encodable {
        var `private`: String
        var auth: String
        var body: String
        var authorization: String?
        var audience: String
    }

    struct Verdict: Decodable {
        var plaintext: String?
        var error: String?
        var vapid: String?
    }

    @Test func messagesDecryptWithHttpEceAndTheirVAPIDTokensVerify() async throws {
        let made = try await Subprocess.run("/usr/bin/python3", [Self.oracle, "subscriptions", "40"])
        try #require(made.status == 0, "\(made.standardError)")
        let subscriptions = try JSONDecoder().decode([Made].self, from: Data(made.standardOutput.utf8))
        let vapid = VAPID(key: .generate(), subject: "mailto:ops@example.com")
        var generator = SystemRandomNumberGenerator()
        var cases: [Case] = []
        var plaintexts: [[UInt8]] = []
        for (index, made) in subscriptions.enumerated() {
            let endpoint = "https://push\(index).example.net:8443/wpush/v2/\(index)"
            let subscription = try #require(WebPushSubscription(endpoint: endpoint, p256dh: made.p256dh, auth: made.auth))
            // Sizes from nothing to the most one record holds.
            let size = index == 0 ? 0 : index == 1 ? WebPushEncryption.maximumPlaintext : Int.random(in: 1...3000, using: &generator)
            let plaintext = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let body = try WebPushEncryption.encrypt(plaintext, for: subscription)
            let audience = try #require(subscription.origin)
            #expect(audience == "https://push\(index).example.net:8443")
            cases.append(Case(private: made.private, auth: made.auth, body: Base64URL.encode(body), authorization: vapid.authorization(audience: audience, now: Date()), audience: audience))
            plaintexts.append(plaintext)
        }
        // A body sealed for one browser does not open with another's secret; a token for one origin is not good for another.
        cases.append(Case(private: subscriptions[0].private, auth: subscriptions[1].auth, body: cases[2].body, authorization: cases[2].authorization, audience: "https://elsewhere.example"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-webpush-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(cases).write(to: file)
        let checked = try await Subprocess.run("/usr/bin/python3", [Self.oracle, "check", file.path])
        try #require(checked.status == 0, "\(checked.standardError)")
        let verdicts = try checked.standardOutput.split(separator: "\n").map { try JSONDecoder().decode(Verdict.self, from: Data($0.utf8)) }
        try #require(verdicts.count == cases.count)
        for (index, plaintext) in plaintexts.enumerated() {
            #expect(verdicts[index].plaintext.flatMap(Base64URL.decode) == plaintext, "message \(index): \(verdicts[index])")
            #expect(verdicts[index].vapid == "ok", "message \(index): \(verdicts[index])")
        }
        #expect(verdicts.last?.plaintext == nil && verdicts.last?.vapid?.hasPrefix("token:") == true, "\(String(describing: verdicts.last))")
    }

    @Test func tooMuchForOneRecordIsRefused() throws {
        let subscription = try #require(
            WebPushSubscription(endpoint: "https://push.example.net/x", p256dh: Base64URL.encode(P256PrivateKey.generate().publicKey.point), auth: "BTBZMqHH6r4Tts7J_aSIgg"))
        #expect(throws: WebPushEncryption.TooLarge(size: WebPushEncryption.maximumPlaintext + 1)) {
            try WebPushEncryption.encrypt([UInt8](repeating: 1, count: WebPushEncryption.maximumPlaintext + 1), for: subscription)
        }
        #expect(WebPushSubscription(endpoint: "https://push.example.net/x", p256dh: "BCVx", auth: "BTBZMqHH6r4Tts7J_aSIgg") == nil)
        #expect(WebPushSubscription(endpoint: "https://push.example.net/x", p256dh: Base64URL.encode(P256PrivateKey.generate().publicKey.point), auth: "AAAA") == nil)
    }

    @Test func aesGCMOpensWhatItSealsAndNothingTamperedWith() {
        let key = [UInt8](repeating: 7, count: 16), nonce = [UInt8](repeating: 9, count: 12)
        let sealed = AESGCM.seal(Array("hello".utf8), key: key, nonce: nonce)
        #expect(AESGCM.open(sealed, key: key, nonce: nonce) == Array("hello".utf8))
        var tampered = sealed
        tampered[0] ^= 1
        #expect(AESGCM.open(tampered, key: key, nonce: nonce) == nil)
        #expect(AESGCM.open(sealed, key: [UInt8](repeating: 8, count: 16), nonce: nonce) == nil)
    }
}
