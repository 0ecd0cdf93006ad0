import Foundation
import Testing

@testable import ChimeServer

/// The web center's signed attachment addresses: HMAC-SHA256 as RFC 4231 defines it, and addresses that
/// work for their time and their target only.
@Suite("Attachment links")
struct AttachmentLinksTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

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
        #expect(Self.hex(AttachmentLinks.hmacSHA256(key: key, message: Array(message.utf8))) == expected)
    }

    @Test func anAddressWorksForItsTargetUntilItExpiresAndUnderItsKeyOnly() throws {
        let links = AttachmentLinks(key: Array(repeating: 7, count: 32))
        let target = AttachmentLinks.Target(app: "com.example.photos", notification: "beach/1 2", attachment: "photo")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (url, expires) = links.path(for: target, now: now)
        #expect(expires == now.addingTimeInterval(AttachmentLinks.lifetime))
        let components = try #require(URLComponents(string: "http://localhost" + url))
        let query = { (name: String) in components.queryItems?.first { $0.name == name }?.value }
        #expect(components.percentEncodedPath == "/web/attachments/com.example.photos/beach%2F1%202/photo", "every identifier is one segment")
        #expect(links.verify(path: components.percentEncodedPath, query: query, now: now) == target)
        #expect(links.verify(path: components.percentEncodedPath, query: query, now: expires) == target, "good to its last second")
        #expect(links.verify(path: components.percentEncodedPath, query: query, now: expires.addingTimeInterval(1)) == nil)
        #expect(AttachmentLinks(key: Array(repeating: 8, count: 32)).verify(path: components.percentEncodedPath, query: query, now: now) == nil)
        // Values that would sign alike if they were only joined: the lengths keep them apart.
        let shifted = AttachmentLinks.Target(app: "com.example.photosb", notification: "each/1 2", attachment: "photo")
        let other = links.path(for: shifted, now: now).path
        #expect(other.components(separatedBy: "signature=").last != url.components(separatedBy: "signature=").last)
    }
}
