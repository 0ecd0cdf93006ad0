import ChimeCrypto
import Testing

/// SHA-256 and HMAC-SHA256 against their standards' own test vectors, and the constant-time comparison.
@Suite("Digests")
struct DigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// FIPS 180-4's examples (NIST's "SHA256.pdf"): one block, the empty message, two blocks.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256IsFIPS180s(message: String, expected: String) {
        #expect(Self.hex(Digest.sha256(Array(message.utf8))) == expected)
    }

    /// RFC 4231's test cases 1, 2 and 6: a short key, a key shorter than the output, a key longer than a block.
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (
            [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func hmacIsRFC4231s(key: [UInt8], message: String, expected: String) {
        #expect(Self.hex(Digest.hmacSHA256(key: key, message: Array(message.utf8))) == expected)
    }

    @Test func constantTimeEqualityIsEquality() {
        #expect(Digest.constantTimeEqual([], []))
        #expect(Digest.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!Digest.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!Digest.constantTimeEqual([1, 2, 3], [1, 2]))
        #expect(!Digest.constantTimeEqual([0], []))
    }
}
