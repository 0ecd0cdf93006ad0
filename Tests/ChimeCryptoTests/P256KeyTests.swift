import ChimeCrypto
import ChimeTestSupport
import Foundation
import Testing

/// P-256 keys, ES256 tokens and ECDH checked against Python's `cryptography` and PyJWT (`p256_oracle.py`),
/// which Chime did not write: tokens Chime signs verify there, tokens made there verify here, and both sides
/// agree on every shared secret.
@Suite("P-256 keys and ES256 tokens")
struct P256KeyTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("p256_oracle.py").path

    struct Signed: Encodable {
        var public_pem: String
        var token: String
    }

    struct Made: Decodable {
        var private_pem: String
        var public_pem: String
        var point: String
        var token: String
        var peer_point: String
        var shared_secret: String
    }

    @Test func tokensChimeSignsVerifyWithPyJWT() async throws {
        var cases: [Signed] = []
        var expected: [Bool] = []
        for index in 0..<60 {
            let key = P256PrivateKey.generate(), stranger = P256PrivateKey.generate()
            let header = Array(#"{"alg":"ES256","kid":"K\#(index)"}"#.utf8)
            let claims = Array(#"{"iss":"TEAM","iat":\#(1_700_000_000 + index)}"#.utf8)
            let token = ES256Token.sign(header: header, claims: claims, with: key)
            cases.append(Signed(public_pem: key.publicKey.pem, token: token))
            expected.append(true)
            // The same token under another key, and with its claims changed after signing, must fail.
            cases.append(Signed(public_pem: stranger.publicKey.pem, token: token))
            expected.append(false)
            let parts = token.split(separator: ".")
            let forged = Base64URL.encode(Array(#"{"iss":"TEAM","iat":1}"#.utf8))
            cases.append(Signed(public_pem: key.publicKey.pem, token: "\(parts[0]).\(forged).\(parts[2])"))
            expected.append(false)
            // Chime's own verifier agrees on all three.
            #expect(ES256Token.verified(token, with: key.publicKey)?.claims == claims)
            #expect(ES256Token.verified(token, with: stranger.publicKey) == nil)
            #expect(ES256Token.verified("\(parts[0]).\(forged).\(parts[2])", with: key.publicKey) == nil)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-es256-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(cases).write(to: file)
        let outcome = try await Subprocess.run("/usr/bin/python3", [Self.oracle, "verify", file.path])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let verdicts = outcome.standardOutput.split(separator: "\n").map { $0 == "ok" }
        #expect(verdicts == expected)
    }

    @Test func keysTokensAndSecretsMadeElsewhereAgreeHere() async throws {
        let outcome = try await Subprocess.run("/usr/bin/python3", [Self.oracle, "make", "40"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let made = try JSONDecoder().decode([Made].self, from: Data(outcome.standardOutput.utf8))
        try #require(made.count == 40)
        for item in made {
            let key = try P256PrivateKey(pem: item.private_pem)
            let published = try P256PublicKey(pem: item.public_pem)
            #expect(Base64URL.encode(key.publicKey.point) == item.point)
            #expect(published.point == key.publicKey.point)
            #expect(ES256Token.verified(item.token, with: published) != nil, "PyJWT's token")
            let peer = try #require(Base64URL.decode(item.peer_point).flatMap(P256PublicKey.init(point:)))
            #expect(Base64URL.encode(key.sharedSecret(with: peer)) == item.shared_secret)
            // A key kept and read back is the same key.
            #expect(try P256PrivateKey(pem: key.pem).publicKey.point == key.publicKey.point)
        }
    }

    @Test func whatIsNotAP256KeyIsATypedError() throws {
        #expect(throws: CryptoError.self) { try P256PrivateKey(pem: "") }
        #expect(throws: CryptoError.self) { try P256PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        // An Ed25519 key (RFC 8410's example) is a key, but not one ES256 can use.
        let ed25519 = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n"
        #expect(throws: CryptoError.self) { try P256PrivateKey(pem: ed25519) }
        #expect(throws: CryptoError.self) { try P256PublicKey(pem: "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n") }
        // A point off the curve, a compressed point, and the wrong length.
        var point = P256PrivateKey.generate().publicKey.point
        point[64] ^= 1
        #expect(P256PublicKey(point: point) == nil)
        #expect(P256PublicKey(point: [0x02] + Array(point[1...32])) == nil)
        #expect(P256PublicKey(point: Array(point.dropLast())) == nil)
        // A signature of the wrong size or bytes never verifies.
        let key = P256PrivateKey.generate()
        let signature = key.signature(of: [1, 2, 3])
        #expect(key.publicKey.isValidSignature(signature, of: [1, 2, 3]))
        #expect(!key.publicKey.isValidSignature(signature, of: [1, 2, 4]))
        #expect(!key.publicKey.isValidSignature(Array(signature.dropLast()), of: [1, 2, 3]))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), of: [1, 2, 3]))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0xFF, count: 64), of: [1, 2, 3]))
        #expect(ES256Token.parts(of: "YQ.Yg") == nil)
        #expect(ES256Token.parts(of: "YQ.Yg.Yw") != nil)
        #expect(ES256Token.parts(of: "YQ.Yg.Y+w") == nil, "standard base64's + is not base64url")
    }

    /// An encrypted key is refused at once: OpenSSL's default passphrase callback would prompt on the
    /// terminal or wait on standard input.
    @Test func anEncryptedKeyIsRefusedWithoutAskingForAPassphrase() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-encrypted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.pem"), encrypted = folder.appendingPathComponent("encrypted.pem")
        try P256PrivateKey.generate().pem.write(to: plain, atomically: true, encoding: .utf8)
        let made = try await Subprocess.run(
            "/usr/bin/openssl", ["pkcs8", "-topk8", "-in", plain.path, "-out", encrypted.path, "-passout", "pass:secret", "-v2", "aes-256-cbc"])
        try #require(made.status == 0, "\(made.standardError)")
        let text = try String(contentsOf: encrypted, encoding: .utf8)
        #expect(text.contains("BEGIN ENCRYPTED PRIVATE KEY"))
        #expect(throws: CryptoError.self) { try P256PrivateKey(pem: text) }
    }

    @Test func base64URLIsRFC4648sSection5() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("") == [])
    }
}
