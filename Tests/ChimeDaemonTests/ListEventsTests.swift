import ChimeCLI
import ChimeTestSupport
import Foundation
import Testing

/// The list stream (`GET /v1/events`) as pages follow it: each change a page shows comes with an event
/// that says what to read again.
@Suite("chimed: list events")
struct ListEventsTests {
    /// A delivery that sets its app's badge is followed by `appChanged` for that app, so a page reads the
    /// badge after the fire that recorded it — not only when some earlier change happened to make it read.
    @Test func aDeliveryThatSetsTheBadgeIsFollowedByAppChanged() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        #expect(await WebCenterSession.chime(["add", "--app", "com.example.mail", "--id", "first", "First"], home).exitCode == .success)
        try await daemon.presented("com.example.mail", "first")

        let stream = try RawHTTPConnection(loopbackPort: port)
        stream.request("GET", "/v1/events", token: try home.token, host: "127.0.0.1:\(port)")
        _ = stream.read(for: 0.3)
        #expect(await WebCenterSession.chime(["add", "--app", "com.example.mail", "--id", "second", "--badge", "3", "Second"], home).exitCode == .success)
        try await daemon.presented("com.example.mail", "second")
        let events = String(decoding: stream.read(for: 1.5), as: UTF8.self).components(separatedBy: "\n\n").compactMap { block -> String? in
            guard let kind = block.split(separator: "\n").first(where: { $0.hasPrefix("event: ") })?.dropFirst(7) else { return nil }
            return kind + (block.contains(#""app":"com.example.mail""#) ? " mail" : "")
        }
        let delivered = try #require(events.firstIndex(of: "delivered mail"), "\(events)")
        #expect(events[(delivered + 1)...].contains("appChanged mail"), "\(events)")
        #expect(await daemon.terminate() == 0)
    }
}
