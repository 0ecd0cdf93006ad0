import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode's event stream against the clock: fires are recorded ahead of their instant, yet a stream
/// shows each one when it is due — not before, and not held back by a long transaction elsewhere.
@Suite("Server mode: streams on time", .serialized)
struct ServerModeStreamTests {
    /// Twenty notifications due over two seconds arrive on the stream each at its due instant (read in
    /// 20 ms windows: none in a window that ended before it was due, each within a second after), in
    /// order, while another connection holds a transaction open for the whole burst.
    @Test func aStreamShowsEachFireWhenDueNotBeforeAndNotBehindALongTransaction() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("clock")
        let stream = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        stream.request("GET", "/v1/events", token: key, host: "127.0.0.1")
        _ = stream.read(for: 0.3)

        // A transaction that wrote (so it has a number) and stays open through the burst, as a batch of
        // 10,000 adds or a slow client of the same database would.
        let blocker = Task {
            try await cluster.database.transaction { db in
                try db.execute("CREATE TABLE IF NOT EXISTS blocker (id int); INSERT INTO blocker VALUES (1); SELECT pg_sleep(4)")
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let items = (0..<20).map { index in
            #"{"recipient":"ann","app":"clock","request":{"identifier":"t\#(index)","content":{"title":"Tick \#(index)"},"trigger":{"type":"timeInterval","timeInterval":\#(1 + Double(index) / 10),"repeats":false}}}"#
        }
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items.joined(separator: ","))]}"#).status == 201)

        // Each window's bytes with when the window opened and closed.
        var windows: [(opened: Date, closed: Date, text: String)] = []
        let end = Date().addingTimeInterval(3.5)
        while Date() < end {
            let opened = Date()
            let bytes = stream.read(for: 0.02)
            windows.append((opened, Date(), String(decoding: bytes, as: UTF8.self)))
        }
        var seen: [String] = []
        for window in windows {
            for block in window.text.components(separatedBy: "\n\n") where block.contains("event: delivered") {
                let data = try #require(block.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
                let event = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
                let notification = try #require(event["notification"] as? [String: Any])
                let identifier = try #require((notification["request"] as? [String: Any])?["identifier"] as? String)
                let due = Date(timeIntervalSince1970: try #require(notification["scheduledDate"] as? Double))
                seen.append(identifier)
                #expect(window.closed >= due, "\(identifier) was on the stream \(due.timeIntervalSince(window.closed)) s before it was due")
                #expect(window.opened.timeIntervalSince(due) < 1, "\(identifier) came \(window.opened.timeIntervalSince(due)) s late")
            }
        }
        #expect(seen == (0..<20).map { "t\($0)" }, "every one, once, in due order")
        blocker.cancel()
        _ = try? await blocker.value
        await cluster.stop()
    }
}
