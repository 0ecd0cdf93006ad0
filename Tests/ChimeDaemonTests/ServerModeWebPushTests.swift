import ChimeTestSupport
import Foundation
import Testing

/// Server mode's Web Push devices end to end: a node fires a notification, encrypts it for each of the
/// recipient's browser subscriptions and sends it, signed with the tenant's VAPID key, to a push service
/// on loopback (`push_service.py`) that checks the token, the headers and decrypts the message with the
/// subscription's private key as the browser would; the ledger and the devices say what happened.
@Suite("Server mode: Web Push", .serialized)
struct ServerModeWebPushTests {
    static func start() async throws -> (ServerModeCluster, String, PushService) {
        let push = try await PushService.start()
        // The push service is on loopback, which only the node's operator can open.
        let cluster = try await ServerModeCluster.start(
            nodes: 1, arguments: ["--webhook-retries", "0.3,0.6", "--webhook-allow", "127.0.0.1", "--outbound-ca-file", push.certificate])
        let tenant = try await cluster.tenant("browsers")
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: tenant, body: #"{"timeZone":"UTC","locale":"en"}"#).status == 200)
        return (cluster, tenant, push)
    }

    static func deliveries(_ cluster: ServerModeCluster, _ tenant: String) throws -> [[String: Any]] {
        (try cluster.call("GET", "/v1/recipients/ann/deliveries", key: tenant).json as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    @Test func theVAPIDKeyIsMadeOnceAndTheContactIsChecked() async throws {
        let (cluster, tenant, push) = try await Self.start()
        let first = try cluster.call("GET", "/v1/settings/webpush", key: tenant)
        let key = try #require((first.json as? [String: Any])?["applicationServerKey"] as? String, "\(first.text)")
        #expect(key.count == 87 && key.hasPrefix("B"), "base64url of a 65-byte uncompressed point: \(key)")
        #expect((try cluster.call("GET", "/v1/settings/webpush", key: tenant).json as? [String: Any])?["applicationServerKey"] as? String == key, "kept")
        let other = try await cluster.tenant("others")
        #expect((try cluster.call("GET", "/v1/settings/webpush", key: other).json as? [String: Any])?["applicationServerKey"] as? String != key)
        let saved = try cluster.call("PUT", "/v1/settings/webpush", key: tenant, body: #"{"subject":"mailto:ops@example.com"}"#)
        #expect(saved.status == 200 && saved.text.contains(#""subject":"mailto:ops@example.com""#) && saved.text.contains(key), "\(saved.text)")
        for bad in [#"{"subject":"ops@example.com"}"#, #"{"subject":"mailto:a b"}"#, #"{"subject":"http://example.com"}"#] {
            let refused = try cluster.call("PUT", "/v1/settings/webpush", key: tenant, body: bad)
            #expect(refused.status == 400 && refused.text.contains(#""field":"subject""#), "\(bad): \(refused.text)")
        }
        await push.stop()
        await cluster.stop()
    }

    @Test func eachSubscriptionGetsItsMessageAndGoneOnesAreTurnedOff() async throws {
        let (cluster, tenant, push) = try await Self.start()
        _ = try cluster.call("PUT", "/v1/settings/webpush", key: tenant, body: #"{"subject":"mailto:ops@example.com"}"#)
        let serverKey = try #require((try cluster.call("GET", "/v1/settings/webpush", key: tenant).json as? [String: Any])?["applicationServerKey"] as? String)
        // A subscription made with another server's key: its push service refuses Chime's messages.
        let strangerKey = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        var subscriptions: [String: String] = [:]
        for kind in ["ok", "busy", "gone", "missing", "broken", "stranger"] {
            let subscription = try push.subscribe(applicationServerKey: kind == "stranger" ? strangerKey : serverKey, kind: kind == "stranger" ? "ok" : kind)
            subscriptions[kind] = subscription
            let saved = try cluster.call("PUT", "/v1/recipients/ann/devices/\(kind)", key: tenant, body: #"{"channel":"webpush","webpush":\#(subscription)}"#)
            #expect(saved.status == 201, "\(saved.text)")
        }
        let body = #"{"notifications":[{"recipient":"ann","app":"chat","request":{"identifier":"lunch-1","content":{"title":"Hi","body":"Lunch?","threadIdentifier":"food","userInfo":{"table":7}}}}]}"#
        #expect(try cluster.call("POST", "/v1/notifications", key: tenant, body: body).status == 201)
        try await eventually("every delivery ends", within: 30) {
            let ledger = try Self.deliveries(cluster, tenant)
            return ledger.count == 6 && ledger.allSatisfy { ["accepted", "dead"].contains($0["state"] as? String) }
        }
        let ledger = Dictionary(uniqueKeysWithValues: try Self.deliveries(cluster, tenant).map { ($0["device"] as? String ?? "", $0) })
        func state(_ device: String) -> String { "\(ledger[device]?["state"] as? String ?? "?")/\(ledger[device]?["attempts"] as? Int ?? 0)/\(ledger[device]?["lastStatus"] as? Int ?? 0)" }
        #expect(state("ok") == "accepted/1/201")
        #expect(state("busy") == "accepted/2/201", "429 is tried again after its Retry-After")
        #expect(state("gone") == "dead/1/410" && state("missing") == "dead/1/404")
        #expect(state("broken") == "dead/3/500")
        #expect(state("stranger") == "dead/1/403")
        func device(_ name: String) throws -> [String: Any] { try cluster.call("GET", "/v1/recipients/ann/devices/\(name)", key: tenant).json as? [String: Any] ?? [:] }
        #expect(try device("gone")["enabled"] as? Bool == false && (try device("gone")["disabledReason"] as? String)?.contains("410") == true)
        #expect(try device("missing")["enabled"] as? Bool == false)
        #expect(try device("stranger")["enabled"] as? Bool == true && (try device("broken")["enabled"] as? Bool) == true)

        // What the browser reads: the push service decrypted every message and found its token good. Its
        // log is read from its output by a thread of the test's, which may lag the answers: all 9 attempts
        // (1 ok, 2 busy, 1 gone, 1 missing, 3 broken, 1 stranger) are waited for.
        try await eventually("the push service logged every attempt") { push.messages().count >= 9 }
        let messages = push.messages()
        #expect(messages.count == 9, "\(messages)")
        let delivered = try #require(messages.first { $0["subscription"] as? String == "ok-1" }, "\(messages)")
        #expect(delivered["vapid"] as? String == "ok" && delivered["error"] == nil, "\(delivered)")
        #expect(delivered["ttl"] as? String == "86400" && delivered["urgency"] as? String == "normal")
        #expect((delivered["topic"] as? String)?.count == 32 && delivered["contentEncoding"] as? String == "aes128gcm")
        #expect(delivered["contentType"] as? String == "application/octet-stream")
        let message = try #require(try JSONSerialization.jsonObject(with: Data((delivered["plaintext"] as? String ?? "").utf8)) as? [String: Any])
        #expect(message["type"] as? String == "notification.delivered" && message["recipient"] as? String == "ann" && message["app"] as? String == "chat")
        #expect(message["identifier"] as? String == "lunch-1" && message["title"] as? String == "Hi" && message["body"] as? String == "Lunch?")
        #expect(message["threadIdentifier"] as? String == "food" && (message["userInfo"] as? [String: Any])?["table"] as? Int == 7, "\(message)")
        let stranger = messages.first { ($0["subscription"] as? String)?.hasPrefix("ok-") == true && $0["status"] as? Int == 403 }
        #expect(stranger?["vapid"] as? String == "signed with another key than the subscription's", "\(String(describing: stranger))")
        #expect(messages.allSatisfy { $0["error"] == nil }, "every message decrypted: \(messages)")
        await push.stop()
        await cluster.stop()
    }

    /// A node killed while the push service has its message: after the claim's lease another node sends it
    /// again. Web Push is at least once, as every channel here: the repeat is the same message under the
    /// same `Topic`, so a push service still holding the first replaces it, and a browser showing the first
    /// replaces it too (the same tag), rather than showing it twice.
    @Test func aNodeKilledMidMessageLeavesThePushToAnother() async throws {
        let push = try await PushService.start()
        let cluster = try await ServerModeCluster.start(
            nodes: 1, arguments: ["--webhook-timeout", "2", "--webhook-allow", "127.0.0.1", "--outbound-ca-file", push.certificate])
        let tenant = try await cluster.tenant("browsers")
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: tenant, body: #"{"timeZone":"UTC","locale":"en"}"#).status == 200)
        let serverKey = try #require((try cluster.call("GET", "/v1/settings/webpush", key: tenant).json as? [String: Any])?["applicationServerKey"] as? String)
        let subscription = try push.subscribe(applicationServerKey: serverKey, kind: "hang")
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/laptop", key: tenant, body: #"{"channel":"webpush","webpush":\#(subscription)}"#).status == 201)
        let body = #"{"notifications":[{"recipient":"ann","app":"chat","request":{"identifier":"lunch-1","content":{"title":"Hi","body":"Lunch?"}}}]}"#
        #expect(try cluster.call("POST", "/v1/notifications", key: tenant, body: body).status == 201)
        try await eventually("the push service has the first message") { push.messages().contains { $0["status"] as? String == "hanging" } }
        cluster.nodes[0].signal(SIGKILL)
        try await cluster.startNode(named: "node1")
        try await eventually("another node delivered it", within: 40) {
            (try cluster.call("GET", "/v1/recipients/ann/deliveries", key: tenant, node: 1).json as? [String: Any]).flatMap {
                ($0["items"] as? [[String: Any]])?.first?["state"] as? String
            } == "accepted"
        }
        let messages = push.messages()
        #expect(messages.count == 2 && messages.last?["status"] as? Int == 201, "\(messages)")
        #expect(Set(messages.compactMap { $0["topic"] as? String }).count == 1, "the same Topic both times")
        let texts = messages.compactMap { ($0["plaintext"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
        #expect(texts.count == 2 && texts.allSatisfy { $0["identifier"] as? String == "lunch-1" && $0["body"] as? String == "Lunch?" })
        await push.stop()
        await cluster.stop()
    }

}
