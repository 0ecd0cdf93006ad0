import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode end to end: `chimed --server` nodes on a real PostgreSQL, driven over HTTP with tenants'
/// keys, checked in the database they share (every delivery is an event row and a delivered row).
@Suite("Server mode", .serialized)
struct ServerModeTests {
    /// The burst of the issue: 100,000 requests for 1,000 recipients in five zones, due evenly over 20 s
    /// from `start` (each batch's intervals are worked out when it is sent), posted as batches of 10,000
    /// to the nodes in turn. Returns once every batch was acknowledged.
    static func postBurst(_ cluster: ServerModeCluster, key: String, start: Date, count: Int = 100_000, seconds: Double = 20) async throws {
        let zones = ["Asia/Seoul", "America/New_York", "Europe/Berlin", "Australia/Sydney", "UTC"]
        for recipient in 0..<1_000 {
            let saved = try cluster.call("PUT", "/v1/recipients/r\(recipient)", key: key, body: #"{"timeZone":"\#(zones[recipient % 5])","locale":"en"}"#, node: recipient % cluster.ports.count)
            #expect(saved.status == 200, "\(saved.text)")
        }
        for first in stride(from: 0, to: count, by: 10_000) {
            let now = Date()
            let items = (first..<min(first + 10_000, count)).map { index in
                // Shuffled in time: the i-th request is due at a spot spread over the whole burst.
                let due = start.addingTimeInterval(seconds * Double((index * 7_919) % count) / Double(count))
                return #"{"recipient":"r\#(index % 1_000)","app":"com.example.shop","request":{"identifier":"n\#(index)","content":{"title":"Order \#(index)"},"trigger":{"type":"timeInterval","timeInterval":\#(due.timeIntervalSince(now)),"repeats":false}}}"#
            }
            let added = try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items.joined(separator: ","))]}"#, node: (first / 10_000) % cluster.ports.count)
            #expect(added.status == 201, "\(added.text.prefix(300))")
        }
        #expect(Date() < start, "the adds took longer than the lead they had; the burst started while adding")
    }

    /// Every one of `count` delivered exactly once: one event and one delivered row each.
    static func expectEachDeliveredOnce(_ cluster: ServerModeCluster, count: Int) async throws {
        #expect(try await cluster.value("SELECT count(*) FROM event") == Int64(count))
        #expect(try await cluster.value("SELECT count(*) FROM delivered") == Int64(count))
        #expect(
            try await cluster.value("SELECT count(DISTINCT (recipient, convert_from(body, 'UTF8')::json->'notification'->'request'->>'identifier')) FROM event")
                == Int64(count), "no notification delivered twice")
    }

    /// Three nodes share the burst; one is killed with SIGKILL in the middle of it. Every notification is
    /// delivered exactly once: the killed node's claims roll back with its connection and others take them.
    @Test func threeNodesDeliverABurstExactlyOnceWhenOneIsKilled() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 3)
        let key = try await cluster.tenant("shop")
        let start = Date().addingTimeInterval(45)
        try await Self.postBurst(cluster, key: key, start: start)
        try await Task.sleep(for: .seconds(max(0, start.addingTimeInterval(8).timeIntervalSinceNow)))
        #expect(try await cluster.value("SELECT count(*) FROM event") > 0, "the burst is under way")
        cluster.nodes[0].signal(SIGKILL)
        try await cluster.drained("every notification delivered")
        try await Self.expectEachDeliveredOnce(cluster, count: 100_000)
        await cluster.stop()
    }

    /// PostgreSQL restarts in the middle of the burst (on a cluster of this test's own): the nodes reconnect
    /// by themselves and every acknowledged notification is delivered exactly once. A batch posted while
    /// the database is down is refused with 503 and Retry-After, and the same batch posted again with
    /// its Idempotency-Key afterwards is added once.
    @Test func nodesRideOutAPostgreSQLRestartMidBurst() async throws {
        let postgres = try await PostgresCluster.start()
        let cluster = try await ServerModeCluster.start(nodes: 3, on: postgres)
        let key = try await cluster.tenant("shop")
        let start = Date().addingTimeInterval(45)
        try await Self.postBurst(cluster, key: key, start: start)
        try await Task.sleep(for: .seconds(max(0, start.addingTimeInterval(8).timeIntervalSinceNow)))
        try await postgres.stopServer()
        let late = #"{"notifications":[{"recipient":"r1","app":"com.example.shop","request":{"identifier":"late","content":{"title":"Late"}}}]}"#
        let refused = try cluster.call("POST", "/v1/notifications", key: key, body: late, node: 1, headers: ["Idempotency-Key: late-1"])
        #expect(refused.status == 503, "\(refused.text)")
        try await Task.sleep(for: .seconds(2))
        try await postgres.startServer()
        try await eventually("the batch accepted once the database is back", within: 30) {
            try cluster.call("POST", "/v1/notifications", key: key, body: late, node: 1, headers: ["Idempotency-Key: late-1"]).status == 201
        }
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: late, node: 2, headers: ["Idempotency-Key: late-1"]).status == 201)
        try await cluster.drained("every notification delivered after the restart")
        try await Self.expectEachDeliveredOnce(cluster, count: 100_001)
        // Every node still serves.
        for node in 0..<3 { #expect(try cluster.call("GET", "/v1/status", key: key, node: node).status == 200) }
        await cluster.stop()
        await postgres.stop()
    }

    /// A stream whose reader never reads is closed once it falls a megabyte behind; the node goes on
    /// firing and serving.
    @Test func aStreamThatNeverReadsStallsNothing() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("flood")
        let stalled = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        stalled.request("GET", "/v1/events", token: key, host: "127.0.0.1")
        try await Task.sleep(for: .milliseconds(300))
        // About 20 MB of events: more than the stream's megabyte and the sockets' buffers together.
        let count = 6_000
        for part in 0..<2 {
            let items = (part * 3_000..<(part + 1) * 3_000).map {
                #"{"recipient":"r\#($0 % 10)","app":"a","request":{"identifier":"n\#($0)","content":{"title":"\#(String(repeating: "x", count: 3_000))"}}}"#
            }
            #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items.joined(separator: ","))]}"#).status == 201)
        }
        try await eventually("every notification delivered", within: 30) { try await cluster.value("SELECT count(*) FROM event") == Int64(count) }
        #expect(stalled.isClosed(within: 10), "the stream that never read was closed")
        #expect(try cluster.call("GET", "/v1/status", key: key).status == 200)
        await cluster.stop()
    }

    /// The same "08:00 every day" fires at 08:00 where each recipient lives: Seoul and New York 14 hours
    /// apart in winter (13 in New York's summer time), and a recipient who moves takes their triggers along.
    @Test func floatingCalendarTriggersFireAtEachRecipientsLocalTime() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("alarm")
        #expect(try cluster.call("PUT", "/v1/recipients/minji", key: key, body: #"{"timeZone":"Asia/Seoul","locale":"ko-KR"}"#).status == 200)
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"America/New_York","locale":"en-US"}"#).status == 200)
        let trigger = #"{"type":"calendar","dateComponents":{"hour":8,"minute":0},"repeats":true}"#
        let body = #"{"notifications":[{"recipient":"minji","app":"a","request":{"identifier":"wake","content":{"title":"Up"},"trigger":\#(trigger)}},{"recipient":"ann","app":"a","request":{"identifier":"wake","content":{"title":"Up"},"trigger":\#(trigger)}}]}"#
        let added = try cluster.call("POST", "/v1/notifications", key: key, body: body)
        #expect(added.status == 201, "\(added.text)")
        let items = try #require((added.json as? [String: Any])?["added"] as? [[String: Any]])
        let dates = Dictionary(uniqueKeysWithValues: items.map { ($0["recipient"] as! String, $0["nextFireDate"] as! Double) })
        let seoul = try #require(dates["minji"]), newYork = try #require(dates["ann"])
        // Seoul is UTC+9 all year: 08:00 there is 23:00 UTC. New York is UTC-5, or UTC-4 in summer.
        #expect(seoul.truncatingRemainder(dividingBy: 86_400) == 23 * 3_600)
        let newYorkUTC = newYork.truncatingRemainder(dividingBy: 86_400)
        #expect(newYorkUTC == 13 * 3_600 || newYorkUTC == 12 * 3_600)
        let apart = (newYork - seoul).truncatingRemainder(dividingBy: 86_400)
        #expect(apart == (newYorkUTC == 13 * 3_600 ? 14 : 13) * 3_600 || apart == (newYorkUTC == 13 * 3_600 ? 14 : 13) * 3_600 - 86_400)

        // Ann moves to Seoul: her 08:00 is Seoul's now.
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"Asia/Seoul","locale":"en-US"}"#).status == 200)
        let pending = try cluster.call("GET", "/v1/recipients/ann/pending", key: key)
        let moved = try #require(((pending.json as? [String: Any])?["items"] as? [[String: Any]])?.first?["nextFireDate"] as? Double)
        #expect(moved.truncatingRemainder(dividingBy: 86_400) == 23 * 3_600)
        await cluster.stop()
    }

    /// Quiet hours hold back an active notification (delivered quietly) and let time-sensitive and
    /// critical ones through; a recipient without quiet hours is alerted normally.
    @Test func quietHoursHoldBackActiveNotificationsAndLetCriticalOnesThrough() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("care")
        let always = #"{"periods":[{"weekdays":[1,2,3,4,5,6,7],"from":"00:00","to":"00:00"}]}"#
        #expect(try cluster.call("PUT", "/v1/recipients/sleeper", key: key, body: #"{"timeZone":"Asia/Seoul","locale":"ko","quietHours":\#(always)}"#).status == 200)
        let levels = ["active", "time-sensitive", "critical", "passive"]
        var items = levels.map { #"{"recipient":"sleeper","app":"care","request":{"identifier":"\#($0)","content":{"title":"\#($0)","interruptionLevel":"\#($0)"}}}"# }
        items.append(#"{"recipient":"awake","app":"care","request":{"identifier":"active","content":{"title":"active"}}}"#)
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items.joined(separator: ","))]}"#).status == 201)
        try await eventually("all five delivered") { try await cluster.value("SELECT count(*) FROM event") == 5 }
        let rows = try await cluster.database.read { db in
            try db.query("SELECT convert_from(body, 'UTF8') FROM event").compactMap { $0[0].text }
        }
        var alerting: [String: String] = [:]
        for row in rows {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])
            let identifier = try #require(((event["notification"] as? [String: Any])?["request"] as? [String: Any])?["identifier"] as? String)
            alerting["\(event["recipient"]!)/\(identifier)"] = event["alerting"] as? String
        }
        #expect(
            alerting == [
                "sleeper/active": "quietly", "sleeper/time-sensitive": "breakingThroughFocus", "sleeper/critical": "breakingThroughFocus",
                "sleeper/passive": "quietly", "awake/active": "normally",
            ])
        await cluster.stop()
    }

    /// One tenant's key reaches nothing of another tenant's: every route answers 404 (or works on the
    /// caller's own tenant) and the other tenant's data is unchanged.
    @Test func aTenantsKeyFindsNothingOfAnotherTenant() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let alpha = try await cluster.tenant("alpha")
        let beta = try await cluster.tenant("beta")
        let later = #"{"type":"timeInterval","timeInterval":3600,"repeats":false}"#
        #expect(try cluster.call("PUT", "/v1/recipients/bob", key: beta, body: #"{"timeZone":"Europe/Berlin","locale":"de"}"#).status == 200)
        let added = try cluster.call(
            "POST", "/v1/notifications", key: beta, body: #"{"notifications":[{"recipient":"bob","app":"b","request":{"identifier":"secret","content":{"title":"Beta's"},"trigger":\#(later)}}]}"#)
        #expect(added.status == 201)
        // Server mode has no device positions: a location trigger is refused, not kept forever.
        let region = #"{"type":"location","region":{"latitude":37.5665,"longitude":126.978,"radius":150,"identifier":"office","notifyOnEntry":true,"notifyOnExit":false},"repeats":false}"#
        let located = try cluster.call(
            "POST", "/v1/notifications", key: beta, body: #"{"notifications":[{"recipient":"bob","app":"b","request":{"identifier":"near","content":{"title":"Here"},"trigger":\#(region)}}]}"#)
        #expect(located.status == 400 && located.text.contains("notifications.0.request.trigger"), "\(located.status) \(located.text)")
        let betaKeys = try #require(try cluster.call("GET", "/v1/keys", key: beta).json as? [[String: Any]])
        let betaKeyID = try #require(betaKeys.first?["id"] as? String)

        for (method, path, body) in [
            ("GET", "/v1/recipients/bob", nil), ("GET", "/v1/recipients/bob/pending", nil), ("GET", "/v1/recipients/bob/delivered", nil),
            ("DELETE", "/v1/recipients/bob/apps/b/pending", #"{"all":true}"#), ("DELETE", "/v1/keys/\(betaKeyID)", nil),
        ] as [(String, String, String?)] {
            let answer = try cluster.call(method, path, key: alpha, body: body)
            #expect(answer.status == 404, "\(method) \(path): \(answer.status) \(answer.text)")
        }
        // Alpha's "bob" is alpha's own: making one leaves beta's as it was.
        #expect(try cluster.call("PUT", "/v1/recipients/bob", key: alpha, body: #"{"timeZone":"Asia/Seoul","locale":"ko"}"#).status == 200)
        let betaBob = try cluster.call("GET", "/v1/recipients/bob", key: beta).json as? [String: Any]
        #expect(betaBob?["timeZone"] as? String == "Europe/Berlin")
        let betaPending = try cluster.call("GET", "/v1/recipients/bob/pending", key: beta).json as? [String: Any]
        #expect(betaPending?["total"] as? Int == 1, "the secret only, not the refused location trigger")
        #expect(try cluster.call("GET", "/v1/recipients/bob/pending", key: alpha).json.flatMap { ($0 as? [String: Any])?["total"] as? Int } == 0)
        #expect(try cluster.call("GET", "/v1/keys", key: beta).status == 200, "beta's key still works")
        // A key that is no tenant's, and none at all.
        #expect(try cluster.call("GET", "/v1/status", key: "chime_nokey_aaaa").status == 401)
        await cluster.stop()
    }

    /// The same batch posted twice with one Idempotency-Key is added (and delivered) once and answered
    /// the same both times; the key with another body is refused. A stream that reconnects to another
    /// node with Last-Event-ID gets exactly what it missed.
    @Test func idempotentBatchesAddOnceAndStreamsResumeOnAnotherNode() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 2)
        let key = try await cluster.tenant("news")
        let items = (0..<50).map { #"{"recipient":"reader\#($0 % 5)","app":"news","request":{"identifier":"story\#($0)","content":{"title":"Story \#($0)"}}}"# }
        let body = #"{"notifications":[\#(items.joined(separator: ","))]}"#
        let first = try cluster.call("POST", "/v1/notifications", key: key, body: body, headers: ["Idempotency-Key: morning-edition"])
        let second = try cluster.call("POST", "/v1/notifications", key: key, body: body, node: 1, headers: ["Idempotency-Key: morning-edition"])
        #expect(first.status == 201)
        #expect(second.status == first.status)
        #expect(second.text == first.text)
        let other = try cluster.call("POST", "/v1/notifications", key: key, body: body.replacingOccurrences(of: "Story 1", with: "Story one"), headers: ["Idempotency-Key: morning-edition"])
        #expect(other.status == 422, "\(other.text)")
        try await eventually("50 delivered") { try await cluster.value("SELECT count(*) FROM event") == 50 }
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await cluster.value("SELECT count(*) FROM event") == 50, "the repeat added nothing")

        // The whole stream from node 0, then a resume on node 1 from its tenth event.
        let sequences = try await cluster.database.read { db in try db.query("SELECT sequence FROM event ORDER BY sequence").compactMap { $0[0].integer } }
        let resume = try RawHTTPConnection(loopbackPort: cluster.ports[1])
        resume.request("GET", "/v1/events", token: key, host: "127.0.0.1", extraHeaders: ["Last-Event-ID: \(sequences[9])"])
        let text = String(decoding: resume.read(for: 2), as: UTF8.self)
        let ids = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("id: ") }.compactMap { Int64($0.dropFirst(4)) }
        #expect(ids == Array(sequences.dropFirst(10)), "the events after the tenth, each once, in order")
        await cluster.stop()
    }
}
