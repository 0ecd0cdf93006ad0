import ChimeCLI
import ChimeDaemon
import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode's webhooks end to end: a node fires a notification, queues it for the recipient's webhook
/// device, and sends it signed to a real receiver that verifies the signature with the Standard Webhooks
/// package; the ledger says what happened, through the API.
@Suite("Server mode: webhooks", .serialized)
struct ServerModeWebhookTests {
    /// Registers a webhook device for `ann` at `url`; returns the secret the node made for it.
    static func webhook(_ cluster: ServerModeCluster, key: String, device: String = "hook", url: String) throws -> String {
        let saved = try cluster.call("PUT", "/v1/recipients/ann/devices/\(device)", key: key, body: #"{"channel":"webhook","webhook":{"url":"\#(url)"}}"#)
        #expect(saved.status == 201 || saved.status == 200, "\(saved.text)")
        return ((saved.json as? [String: Any])?["webhook"] as? [String: Any])?["secret"] as? String ?? ""
    }

    static func notify(_ cluster: ServerModeCluster, key: String, _ identifier: String) throws {
        let body = #"{"notifications":[{"recipient":"ann","app":"chat","request":{"identifier":"\#(identifier)","content":{"title":"Hi"}}}]}"#
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: body).status == 201)
    }

    /// The recipient's ledger, newest first.
    static func deliveries(_ cluster: ServerModeCluster, key: String, node: Int = 0) throws -> [[String: Any]] {
        (try cluster.call("GET", "/v1/recipients/ann/deliveries", key: key, node: node).json as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    static func start(_ extra: [String] = []) async throws -> (ServerModeCluster, String, WebhookReceiver) {
        // The receiver is on loopback, which only the node's operator can open.
        let cluster = try await ServerModeCluster.start(nodes: 1, arguments: ["--webhook-retries", "0.3,0.6", "--webhook-allow", "127.0.0.1"] + extra)
        let key = try await cluster.tenant("hooks")
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"UTC","locale":"en"}"#).status == 200)
        return (cluster, key, try await WebhookReceiver.start())
    }

    @Test func aDeliveredNotificationReachesTheWebhookSignedAndNothingReachesWhatIsNotPublic() async throws {
        let (cluster, key, receiver) = try await Self.start()
        // The cloud's metadata service is link-local: refused at once, and a tenant cannot open it.
        _ = try Self.webhook(cluster, key: key, device: "metadata", url: "http://169.254.169.254/latest/meta-data/")
        try Self.notify(cluster, key: key, "n0")
        try await eventually("n0's delivery ends") { try Self.deliveries(cluster, key: key).first?["state"] as? String == "dead" }
        let refused = try #require(try Self.deliveries(cluster, key: key).first)
        #expect((refused["lastError"] as? String)?.contains("link-local") == true, "\(refused)")
        let opening = try cluster.call("PUT", "/v1/settings", key: key, body: #"{"outboundAllowList":["169.254.0.0/16"]}"#)
        #expect(opening.status == 400 && opening.text.contains("only the node's operator"), "\(opening.text)")
        let settings = try cluster.call("PUT", "/v1/settings", key: key, body: #"{"outboundAllowList":["10.0.0.0/8","fd00::/8"]}"#)
        #expect(settings.status == 200 && settings.text.contains(#""10.0.0.0/8""#), "\(settings.text)")
        #expect(try cluster.call("DELETE", "/v1/recipients/ann/devices/metadata", key: key).status == 204)

        let secret = try Self.webhook(cluster, key: key, url: receiver.url("/accept"))
        #expect(secret.hasPrefix("whsec_"), "the node made the device's secret and showed it once")
        try receiver.setSecret(secret)
        let listed = try cluster.call("GET", "/v1/recipients/ann/devices/hook", key: key).text
        #expect(!listed.contains(secret), "and never again")
        try Self.notify(cluster, key: key, "n1")
        try await eventually("n1 is accepted") {
            let ledger = try Self.deliveries(cluster, key: key)
            return ledger.count == 2 && ledger.first?["state"] as? String == "accepted"
        }
        let id = try #require(try Self.deliveries(cluster, key: key).first?["id"] as? String)
        #expect(try cluster.call("POST", "/v1/deliveries/\(id)/replay", key: key).status == 204)
        try await eventually("the replay is accepted") {
            let first = try Self.deliveries(cluster, key: key).first
            return first?["state"] as? String == "accepted" && first?["attempts"] as? Int == 1
        }
        let stream = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        stream.request(
            "GET", "/v1/events", token: key, host: "127.0.0.1", extraHeaders: ["Last-Event-ID: \(try await cluster.value("SELECT max(sequence) FROM event"))"])
        try Self.notify(cluster, key: key, "n2")
        try await eventually("n2 is accepted") {
            let ledger = try Self.deliveries(cluster, key: key)
            return ledger.count == 3 && ledger.prefix(2).allSatisfy { $0["state"] as? String == "accepted" }
        }
        try await eventually("the receiver logged all three") { receiver.requests().count >= 3 }
        let requests = receiver.requests()
        #expect(requests.count == 3 && requests.allSatisfy { $0["verified"] as? Bool == true }, "\(requests)")
        #expect(requests.prefix(2).allSatisfy { $0["id"] as? String == "msg_\(id)" }, "the replay kept its webhook-id")
        let payload = try #require(try JSONSerialization.jsonObject(with: Data((requests.last?["body"] as? String ?? "").utf8)) as? [String: Any])
        #expect(payload["type"] as? String == "notification.delivered")
        let data = payload["data"] as? [String: Any]
        #expect(data?["recipient"] as? String == "ann" && data?["app"] as? String == "chat")
        #expect(((data?["notification"] as? [String: Any])?["request"] as? [String: Any])?["identifier"] as? String == "n2")

        // The tenant's stream had the delivery and then its webhook's outcome.
        let streamed = String(decoding: stream.read(for: 1), as: UTF8.self)
        let delivered = try #require(streamed.range(of: "event: delivered"), "\(streamed.prefix(800))")
        let outcome = try #require(streamed.range(of: "event: delivery\ndata: "), "\(streamed.prefix(800))")
        #expect(delivered.lowerBound < outcome.lowerBound)
        #expect(streamed[outcome.upperBound...].prefix { $0 != "\n" }.contains(#""state":"accepted""#), "\(streamed.prefix(800))")

        // The command line shows the same ledger.
        let ledger = await ChimeMain.run(
            ["server", "deliveries", "-r", "ann"], now: Date(), currentTimeZone: .gmt,
            environment: ["CHIME_SERVER_URL": "http://127.0.0.1:\(cluster.ports[0])", "CHIME_API_KEY": key])
        let lines = ledger.standardOutput.split(separator: "\n")
        #expect(lines.count == 4 && lines[0].hasPrefix("ID  DATE") && lines[1...2].allSatisfy { $0.contains("  hook      chat") }, "\(ledger)")
        #expect(lines.dropFirst().prefix(2).allSatisfy { $0.hasSuffix("accepted (1) 204") }, "\(ledger.standardOutput)")
        #expect(lines.last?.contains("dead (1): 169.254.169.254") == true, "\(ledger.standardOutput)")

        // Another tenant reaches none of it.
        let other = try await cluster.tenant("other")
        #expect(try cluster.call("GET", "/v1/recipients/ann/deliveries", key: other).status == 404)
        #expect(try cluster.call("POST", "/v1/deliveries/\(id)/replay", key: other).status == 404)
        await receiver.stop()
        await cluster.stop()
    }

    /// Every change of a delivery's state is POSTed, signed, to the tenant's own ledger webhook, and retried
    /// as a webhook is; the reports are not deliveries of the recipient.
    @Test func theLedgerIsPostedToTheTenantsWebhook() async throws {
        let (cluster, key, receiver) = try await Self.start()
        let secret = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()
        try receiver.setSecret(secret)
        #expect(try cluster.call("GET", "/v1/settings/ledger-webhook", key: key).status == 404)
        let refused = try cluster.call("PUT", "/v1/settings/ledger-webhook", key: key, body: #"{"url":"ftp://example.com/ledger"}"#)
        #expect(refused.status == 400 && refused.text.contains(#""field":"url""#), "\(refused.text)")
        let saved = try cluster.call("PUT", "/v1/settings/ledger-webhook", key: key, body: #"{"url":"\#(receiver.url("/flaky/1"))","secret":"\#(secret)"}"#)
        #expect(saved.status == 200 && !saved.text.contains("whsec_"), "a secret given is not shown: \(saved.text)")
        #expect((try cluster.call("GET", "/v1/settings/ledger-webhook", key: key).json as? [String: String]) == ["url": receiver.url("/flaky/1")])
        let device = try cluster.call(
            "PUT", "/v1/recipients/ann/devices/hook", key: key, body: #"{"channel":"webhook","webhook":{"url":"\#(receiver.url("/accept"))","secret":"\#(secret)"}}"#)
        #expect(device.status == 201)
        try Self.notify(cluster, key: key, "n1")
        try await eventually("the ledger's report arrives, after one failure") {
            receiver.requests().filter { $0["path"] as? String == "/flaky/1" && ($0["body"] as? String)?.contains("delivery.accepted") == true }.count == 2
        }
        let reports = receiver.requests().filter { $0["path"] as? String == "/flaky/1" }
        #expect(reports.count == 2 && reports.allSatisfy { $0["verified"] as? Bool == true }, "one failure, then accepted: \(reports)")
        #expect(Set(reports.compactMap { $0["id"] as? String }).count == 1, "the same webhook-id on the retry")
        let report = try #require(try JSONSerialization.jsonObject(with: Data((reports.last?["body"] as? String ?? "").utf8)) as? [String: Any])
        let data = try #require(report["data"] as? [String: Any])
        let delivery = try #require(try Self.deliveries(cluster, key: key).first)
        #expect(report["type"] as? String == "delivery.accepted" && data["id"] as? String == delivery["id"] as? String, "\(report)")
        #expect(data["recipient"] as? String == "ann" && data["device"] as? String == "hook" && data["state"] as? String == "accepted")
        #expect(try Self.deliveries(cluster, key: key).count == 1, "the reports are not the recipient's deliveries")

        #expect(try cluster.call("DELETE", "/v1/settings/ledger-webhook", key: key).status == 204)
        try Self.notify(cluster, key: key, "n2")
        try await eventually("n2 is accepted") { try Self.deliveries(cluster, key: key).first?["state"] as? String == "accepted" }
        try await Task.sleep(for: .milliseconds(800))
        #expect(receiver.requests().filter { $0["path"] as? String == "/flaky/1" }.count == 2, "no report without a ledger webhook")
        await receiver.stop()
        await cluster.stop()
    }

    /// What became of a delivery at the recipient moves its ledger entry forward only (delivered, seen,
    /// then acted or dismissed), whoever reports it: the tenant's backend, or a response for the
    /// notification, which reports on every delivery of it. Each change reaches the ledger webhook.
    @Test func outcomesMoveTheLedgerForwardAndAResponseReportsOnEveryDelivery() async throws {
        let (cluster, key, receiver) = try await Self.start()
        let secret = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()
        try receiver.setSecret(secret)
        #expect(try cluster.call("PUT", "/v1/settings/ledger-webhook", key: key, body: #"{"url":"\#(receiver.url("/flaky/0"))","secret":"\#(secret)"}"#).status == 200)
        for device in ["hook", "desk"] {
            let body = #"{"channel":"webhook","webhook":{"url":"\#(receiver.url("/accept"))","secret":"\#(secret)"}}"#
            #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/\(device)", key: key, body: body).status == 201)
        }
        try Self.notify(cluster, key: key, "n1")
        try await eventually("both are accepted") {
            let ledger = try Self.deliveries(cluster, key: key)
            return ledger.count == 2 && ledger.allSatisfy { $0["state"] as? String == "accepted" }
        }
        let hook = try #require(try Self.deliveries(cluster, key: key).first { $0["device"] as? String == "hook" })
        let id = try #require(hook["id"] as? String)
        #expect(hook["outcome"] == nil, "nothing is reported yet")

        func report(_ outcome: String, _ delivery: String = id, key tenantKey: String = key) throws -> (status: Int, outcome: String?) {
            let answer = try cluster.call("POST", "/v1/deliveries/\(delivery)/outcome", key: tenantKey, body: #"{"outcome":"\#(outcome)"}"#)
            return (answer.status, (answer.json as? [String: Any])?["outcome"] as? String)
        }
        #expect(try report("seen") == (200, "seen"))
        #expect(try report("delivered") == (200, "seen"), "a late report does not move it back")
        #expect(try report("seen") == (200, "seen"), "nor does the same one again")
        let refused = try cluster.call("POST", "/v1/deliveries/\(id)/outcome", key: key, body: #"{"outcome":"read"}"#)
        #expect(refused.status == 400 && refused.text.contains(#""field":"outcome""#), "\(refused.text)")
        #expect(try report("seen", "abc").status == 404 && report("seen", "999999999").status == 404)
        let other = try await cluster.tenant("others")
        #expect(try report("acted", key: other).status == 404, "another tenant's delivery is not there")
        let afterSeen = try #require(try Self.deliveries(cluster, key: key).first { $0["id"] as? String == id })
        #expect(afterSeen["state"] as? String == "accepted" && afterSeen["attempts"] as? Int == 1, "the sending state is left as it was")
        #expect((afterSeen["outcomeAt"] as? Double).map { abs($0 - Date().timeIntervalSince1970) < 30 } == true, "\(afterSeen)")

        // The recipient opened it: both deliveries are acted on, and a dismissal afterwards changes nothing.
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/n1/response", key: key, body: #"{"kind":"open"}"#).status == 201)
        #expect(Set(try Self.deliveries(cluster, key: key).map { $0["outcome"] as? String ?? "none" }) == ["acted"])
        #expect(try report("dismissed") == (200, "acted"))

        try Self.notify(cluster, key: key, "n2")
        try await eventually("n2 is accepted") {
            try Self.deliveries(cluster, key: key).filter { $0["notification"] as? String == "n2" && $0["state"] as? String == "accepted" }.count == 2
        }
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/n2/response", key: key, body: #"{"kind":"dismiss"}"#).status == 201)
        let n2 = try Self.deliveries(cluster, key: key).filter { $0["notification"] as? String == "n2" }
        #expect(n2.map { $0["outcome"] as? String } == ["dismissed", "dismissed"], "\(n2)")

        // The same identifier delivered again: a response is about its new deliveries, not the old ones.
        try Self.notify(cluster, key: key, "n2")
        try await eventually("n2 is accepted again") {
            try Self.deliveries(cluster, key: key).filter { $0["notification"] as? String == "n2" && $0["state"] as? String == "accepted" }.count == 4
        }
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/n2/response", key: key, body: #"{"kind":"open"}"#).status == 201)
        let again = try Self.deliveries(cluster, key: key).filter { $0["notification"] as? String == "n2" }
        #expect(again.map { $0["outcome"] as? String } == ["acted", "acted", "dismissed", "dismissed"], "newest first: \(again)")

        // The ledger webhook heard each change once: seen, acted twice, dismissed twice, acted twice more.
        func reported() -> [String] {
            receiver.requests().filter { $0["path"] as? String == "/flaky/0" }.compactMap { request in
                (try? JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: Any])?["type"] as? String
            }
        }
        try await eventually("the reports arrive") { reported().filter { !$0.hasSuffix("accepted") }.count == 7 }
        #expect(
            reported().filter { !$0.hasSuffix("accepted") }.sorted()
                == ["delivery.acted", "delivery.acted", "delivery.acted", "delivery.acted", "delivery.dismissed", "delivery.dismissed", "delivery.seen"])
        await receiver.stop()
        await cluster.stop()
    }

    /// A receiver that fails twice gets the same webhook three times on the schedule, then accepts it once; one
    /// that keeps failing ends dead after the last retry; one that answers 410 turns the device off.
    @Test func failuresAreRetriedOnScheduleThenDeadAndGoneTurnsTheDeviceOff() async throws {
        let (cluster, key, receiver) = try await Self.start()
        try receiver.setSecret(try Self.webhook(cluster, key: key, url: receiver.url("/flaky/2")))
        try Self.notify(cluster, key: key, "n1")
        try await eventually("accepted after two failures") { try Self.deliveries(cluster, key: key).first?["state"] as? String == "accepted" }
        #expect(try Self.deliveries(cluster, key: key).first?["attempts"] as? Int == 3)
        let attempts = receiver.requests().filter { $0["path"] as? String == "/flaky/2" }
        #expect(attempts.count == 3 && Set(attempts.compactMap { $0["id"] as? String }).count == 1, "\(attempts)")
        #expect(attempts.allSatisfy { $0["verified"] as? Bool == true })

        _ = try Self.webhook(cluster, key: key, url: receiver.url("/flaky/99"))
        try Self.notify(cluster, key: key, "n2")
        try await eventually("dead after its retries") {
            let ledger = try Self.deliveries(cluster, key: key)
            return ledger.count == 2 && ledger.first?["state"] as? String == "dead"
        }
        let dead = try #require(try Self.deliveries(cluster, key: key).first)
        #expect(dead["attempts"] as? Int == 3 && dead["lastStatus"] as? Int == 500, "\(dead)")

        _ = try Self.webhook(cluster, key: key, url: receiver.url("/gone"))
        try Self.notify(cluster, key: key, "n3")
        try await eventually("gone") {
            let ledger = try Self.deliveries(cluster, key: key)
            return ledger.count == 3 && ledger.first?["state"] as? String == "dead"
        }
        let device = try cluster.call("GET", "/v1/recipients/ann/devices/hook", key: key).json as? [String: Any]
        #expect(device?["enabled"] as? Bool == false && (device?["disabledReason"] as? String)?.contains("410") == true, "\(String(describing: device))")
        try Self.notify(cluster, key: key, "n4")
        try await Task.sleep(for: .seconds(1))
        #expect(try Self.deliveries(cluster, key: key).count == 3, "a turned-off device gets nothing")

        // Retention forgets finished deliveries with the tenant's delivered notifications.
        try await cluster.database.transaction { db in try db.execute("UPDATE tenant SET retention_seconds = 0") }
        _ = try await PostgresRetention(database: cluster.database).sweep(now: Date().addingTimeInterval(1))
        #expect(try await cluster.value("SELECT count(*) FROM delivery") == 0)
        await receiver.stop()
        await cluster.stop()
    }

    /// A node killed (`kill -9`) while its attempt waits for the receiver leaves the delivery to another node
    /// once its lease ends (twice the webhook timeout and 5 s): sent again with the same `webhook-id` (at least
    /// once, as Standard Webhooks has it), accepted once.
    @Test func aNodeKilledMidAttemptLeavesTheDeliveryToAnother() async throws {
        let (cluster, key, receiver) = try await Self.start(["--webhook-timeout", "2"])
        try receiver.setSecret(try Self.webhook(cluster, key: key, url: receiver.url("/hang-once")))
        try Self.notify(cluster, key: key, "n1")
        try await eventually("the first attempt reached the receiver") { receiver.requests().count == 1 }
        cluster.nodes[0].signal(SIGKILL)
        try await cluster.startNode(named: "node1")
        try await eventually("another node delivered it", within: 40) {
            try Self.deliveries(cluster, key: key, node: 1).first?["state"] as? String == "accepted"
        }
        let delivery = try #require(try Self.deliveries(cluster, key: key, node: 1).first)
        #expect(delivery["attempts"] as? Int == 2, "\(delivery)")
        try await eventually("the receiver logged both") { receiver.requests().count >= 2 }
        let requests = receiver.requests()
        #expect(requests.count == 2 && Set(requests.compactMap { $0["id"] as? String }) == ["msg_\(delivery["id"] as? String ?? "")"], "\(requests)")
        #expect(requests.allSatisfy { $0["verified"] as? Bool == true })
        await receiver.stop()
        await cluster.stop()
    }

    /// The operator's webhook options: pauses in seconds, and networks.
    @Test func theWebhookOptionsAreChecked() throws {
        func parse(_ arguments: [String]) -> Result<DaemonConfiguration, DaemonCommand.UsageError> {
            Result { () throws(DaemonCommand.UsageError) in
                guard case .run(let configuration) = try DaemonCommand.parse(["--server", "--database", "x", "--http", "127.0.0.1:0"] + arguments, environment: [:])
                else { preconditionFailure("not a run") }
                return configuration
            }
        }
        #expect(try parse(["--webhook-retries", "0.5, 60,3600"]).get().webhookRetries == [0.5, 60, 3600])
        #expect(try parse(["--webhook-allow", "127.0.0.1", "--webhook-allow", "::1"]).get().webhookAllowed == ["127.0.0.1", "::1"])
        #expect(try parse(["--webhook-timeout", "30"]).get().webhookTimeout == 30)
        #expect(try parse(["--apns-timeout", "5"]).get().apnsTimeout == 5)
        #expect(try parse(["--apns-url", "https://127.0.0.1:8443/"]).get().apnsURL == "https://127.0.0.1:8443")
        for bad in [["--apns-timeout", "0"], ["--apns-url", "http://api.push.apple.com"], ["--apns-url", "https://x/3/device"], ["--apns-ca-file", "/nonexistent"],
            ["--outbound-ca-file", "/nonexistent"]]
        {
            #expect(throws: DaemonCommand.UsageError.self, "\(bad)") { try parse(bad).get() }
        }
        for bad in [["--webhook-retries", ","], ["--webhook-retries", "1,,2"], ["--webhook-retries", ""], ["--webhook-retries", "0"], ["--webhook-retries", "-5"],
            ["--webhook-retries", "1e9"], ["--webhook-allow", "localhost"], ["--webhook-allow", "10.0.0.0/33"], ["--webhook-timeout", "0"],
            ["--webhook-timeout", "61"], ["--webhook-timeout", "1.5"]]
        {
            guard case .failure = parse(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
        }
    }
}
