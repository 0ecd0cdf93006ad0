import Foundation
import Testing

@testable import ChimeServer

/// The web center's signed attachment addresses: they work for their time and their target only.
@Suite("Attachment links")
struct AttachmentLinksTests {
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
