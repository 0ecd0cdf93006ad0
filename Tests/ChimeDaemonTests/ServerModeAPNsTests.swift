import ChimeCrypto
import ChimeTestSupport
import Foundation
import Testing

/// Server mode's APNs devices end to end: a node fires a notification, queues it for the recipient's APNs
/// devices, and sends it with the tenant's provider key to a stand-in that checks every request as APNs
/// does (`apns_standin.py`) and answers as each token scripts; the ledger and the devices say what happened.
@Suite("Server mode: APNs", .serialized)
struct ServerModeAPNsTests {
    static let key = APNsStandIn.Key(team: "TEAM000001", keyID: "KEY0000001")

    static func token(_ prefix: String, _ number: Int) -> String {
        prefix + String(repeating: "0", count: 60 - String(number).count) + String(number)
    }

    static func start() async throws -> (ServerModeCluster, String, APNsStandIn) {
        let standIn = try await APNsStandIn.start(keys: [Self.key])
        let cluster = try await ServerModeCluster.start(
            nodes: 1, arguments: ["--webhook-retries", "0.3,0.6", "--apns-url", standIn.url, "--apns-ca-file", standIn.certificate])
        let tenant = try await cluster.tenant("phones")
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: tenant, body: #"{"timeZone":"UTC","locale":"en"}"#).status == 200)
        return (cluster, tenant, standIn)
    }

    static func giveKey(_ cluster: ServerModeCluster, _ tenant: String, pem: String = key.key.pem) throws -> (status: Int, json: Any?, text: String) {
        let body = try JSONSerialization.data(withJSONObject: ["teamId": Self.key.team, "keyId": Self.key.keyID, "key": pem])
        return try cluster.call("PUT", "/v1/settings/apns", key: tenant, body: String(decoding: body, as: UTF8.self))
    }

    static func device(_ cluster: ServerModeCluster, _ tenant: String, _ name: String, token: String) throws {
        let body = #"{"channel":"apns","apns":{"token":"\#(token)","topic":"com.example.chat","environment":"development"}}"#
        let saved = try cluster.call("PUT", "/v1/recipients/ann/devices/\(name)", key: tenant, body: body)
        #expect(saved.status == 201 || saved.status == 200, "\(saved.text)")
    }

    static func notify(_ cluster: ServerModeCluster, _ tenant: String, _ identifier: String) throws {
        let body = #"{"notifications":[{"recipient":"ann","app":"chat","request":{"identifier":"\#(identifier)","content":{"title":"Hi","body":"Lunch?","badge":3,"sound":{"kind":"default"}}}}]}"#
        let added = try cluster.call("POST", "/v1/notifications", key: tenant, body: body)
        #expect(added.status == 201, "\(added.text)")
    }

    static func deliveries(_ cluster: ServerModeCluster, _ tenant: String) throws -> [[String: Any]] {
        (try cluster.call("GET", "/v1/recipients/ann/deliveries", key: tenant).json as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    static func deviceState(_ cluster: ServerModeCluster, _ tenant: String, _ name: String) throws -> [String: Any] {
        try cluster.call("GET", "/v1/recipients/ann/devices/\(name)", key: tenant).json as? [String: Any] ?? [:]
    }

    @Test func theProviderKeyIsCheckedKeptAndNeverShown() async throws {
        let (cluster, tenant, standIn) = try await Self.start()
        #expect(try cluster.call("GET", "/v1/settings/apns", key: tenant).status == 404)
        let notAKey = try Self.giveKey(cluster, tenant, pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        #expect(notAKey.status == 400 && notAKey.text.contains(#""field":"key""#), "\(notAKey.text)")
        let badTeam = try cluster.call("PUT", "/v1/settings/apns", key: tenant, body: #"{"teamId":"team","keyId":"KEY0000001","key":"x"}"#)
        #expect(badTeam.status == 400 && badTeam.text.contains(#""field":"teamId""#), "\(badTeam.text)")
        let saved = try Self.giveKey(cluster, tenant)
        #expect(saved.status == 200 && saved.text == #"{"keyId":"KEY0000001","teamId":"TEAM000001"}"#, "\(saved.text)")
        let settings = try cluster.call("GET", "/v1/settings", key: tenant).text
        #expect(settings.contains(#""apns":{"keyId":"KEY0000001","teamId":"TEAM000001"}"#) && !settings.contains("PRIVATE"), "\(settings)")
        // Only an admin key may give or forget it.
        let reader = try cluster.call("POST", "/v1/keys", key: tenant, body: #"{"name":"reader","scopes":["read"]}"#)
        let readKey = try #require((reader.json as? [String: Any])?["secret"] as? String, "\(reader.text)")
        #expect(try cluster.call("DELETE", "/v1/settings/apns", key: readKey).status == 403)
        #expect(try cluster.call("GET", "/v1/settings/apns", key: readKey).status == 200)
        #expect(try cluster.call("DELETE", "/v1/settings/apns", key: tenant).status == 204)
        #expect(try cluster.call("DELETE", "/v1/settings/apns", key: tenant).status == 404)
        // Without a key, an APNs delivery ends dead, saying why; given one, its replay is accepted.
        try Self.device(cluster, tenant, "phone", token: Self.token("abcd", 1))
        try Self.notify(cluster, tenant, "n1")
        try await eventually("dead without a key") { try Self.deliveries(cluster, tenant).first?["state"] as? String == "dead" }
        let dead = try #require(try Self.deliveries(cluster, tenant).first)
        #expect((dead["lastError"] as? String)?.contains("no APNs provider key") == true, "\(dead)")
        #expect(try Self.giveKey(cluster, tenant).status == 200)
        #expect(try cluster.call("POST", "/v1/deliveries/\(dead["id"] as? String ?? "")/replay", key: tenant).status == 204)
        try await eventually("the replay is accepted") { try Self.deliveries(cluster, tenant).first?["state"] as? String == "accepted" }
        #expect(standIn.requests().count == 1)
        await standIn.stop()
        await cluster.stop()
    }

    @Test func eachDeviceGetsThePushAndAPNsAnswersAreActedOn() async throws {
        let (cluster, tenant, standIn) = try await Self.start()
        #expect(try Self.giveKey(cluster, tenant).status == 200)
        let devices = [("phone", "abcd"), ("busy", "0429"), ("unregistered", "0410"), ("bad", "0400"), ("broken", "0500")]
        for (name, prefix) in devices { try Self.device(cluster, tenant, name, token: Self.token(prefix, 1)) }
        let before = Date()
        try Self.notify(cluster, tenant, "lunch-1")
        try await eventually("every delivery ends", within: 30) {
            let ledger = try Self.deliveries(cluster, tenant)
            return ledger.count == 5 && ledger.allSatisfy { ["accepted", "dead"].contains($0["state"] as? String) }
        }
        let ledger = Dictionary(uniqueKeysWithValues: try Self.deliveries(cluster, tenant).map { ($0["device"] as? String ?? "", $0) })
        #expect(ledger["phone"]?["state"] as? String == "accepted" && ledger["phone"]?["attempts"] as? Int == 1)
        #expect(ledger["busy"]?["state"] as? String == "accepted" && ledger["busy"]?["attempts"] as? Int == 2, "429 is tried again: \(ledger["busy"] ?? [:])")
        #expect(ledger["broken"]?["state"] as? String == "dead" && ledger["broken"]?["attempts"] as? Int == 3 && ledger["broken"]?["lastStatus"] as? Int == 500)
        #expect(ledger["unregistered"]?["attempts"] as? Int == 1 && ledger["bad"]?["attempts"] as? Int == 1, "no retry of a token APNs refused")

        // 410 and BadDeviceToken turn the device off; 410 with APNs' timestamp.
        let unregistered = try Self.deviceState(cluster, tenant, "unregistered")
        #expect(unregistered["enabled"] as? Bool == false && unregistered["disabledReason"] as? String == "APNs: Unregistered", "\(unregistered)")
        let since = try #require(unregistered["disabledAt"] as? Double)
        #expect(since >= before.timeIntervalSince1970 && since <= Date().timeIntervalSince1970, "the device is off since APNs' timestamp")
        #expect(try Self.deviceState(cluster, tenant, "bad")["disabledReason"] as? String == "APNs: BadDeviceToken")
        #expect(try Self.deviceState(cluster, tenant, "phone")["enabled"] as? Bool == true)
        #expect(try Self.deviceState(cluster, tenant, "broken")["enabled"] as? Bool == true, "a server error says nothing about the token")

        // What APNs got: well-formed (no violation), one connection, one provider token, the payload as the
        // recipient reads it, and the same apns-id on both attempts of a retried delivery.
        let requests = standIn.requests()
        #expect(requests.filter { $0["violation"] != nil }.isEmpty, "\(requests)")
        #expect(Set(requests.compactMap { $0["connection"] as? Int }).count == 1)
        #expect(Set(requests.compactMap { $0["authorization"] as? String }).count == 1)
        let phone = try #require(requests.first { $0["token"] as? String == Self.token("abcd", 1) })
        let headers = try #require(phone["headers"] as? [String: String])
        #expect(headers["apns-topic"] == "com.example.chat" && headers["apns-push-type"] == "alert" && headers["apns-priority"] == "10")
        #expect(headers["apns-collapse-id"] == "lunch-1")
        let expiration = try #require(headers["apns-expiration"].flatMap(Double.init))
        #expect(abs(expiration - before.timeIntervalSince1970 - 86_400) < 30, "APNs keeps it a day")
        let payload = try #require(try JSONSerialization.jsonObject(with: Data((phone["payload"] as? String ?? "").utf8)) as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == ["title": "Hi", "body": "Lunch?"] && aps["badge"] as? Int == 3 && aps["sound"] as? String == "default", "\(aps)")
        let busy = requests.filter { $0["token"] as? String == Self.token("0429", 1) }
        #expect(busy.count == 2 && Set(busy.compactMap { $0["apns_id"] as? String }).count == 1, "\(busy)")

        // A device that is off gets nothing more; one registered again gets the next notification.
        try Self.device(cluster, tenant, "unregistered", token: Self.token("abce", 1))
        try Self.notify(cluster, tenant, "lunch-2")
        try await eventually("lunch-2 ends", within: 30) {
            let ledger = try Self.deliveries(cluster, tenant)
            return ledger.count == 9 && ledger.allSatisfy { ["accepted", "dead"].contains($0["state"] as? String) }
        }
        #expect(try Self.deliveries(cluster, tenant).prefix(4).allSatisfy { $0["device"] as? String != "bad" }, "the bad token's device is off")
        await standIn.stop()
        await cluster.stop()
    }
}
