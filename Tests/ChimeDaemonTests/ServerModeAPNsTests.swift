import ChimeCrypto
import ChimeDelivery
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

    static func start(_ extra: [String] = []) async throws -> (ServerModeCluster, String, APNsStandIn) {
        let standIn = try await APNsStandIn.start(keys: [Self.key])
        let cluster = try await ServerModeCluster.start(
            nodes: 1, arguments: ["--webhook-retries", "0.3,0.6", "--apns-url", standIn.url, "--apns-ca-file", standIn.certificate] + extra)
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

    /// A node killed while APNs has its request: after the claim's lease another node sends it again, with
    /// the same apns-id and collapse identifier (so the device shows it once), and it ends accepted.
    @Test func aNodeKilledMidRequestLeavesThePushToAnother() async throws {
        let (cluster, tenant, standIn) = try await Self.start(["--apns-timeout", "2"])
        #expect(try Self.giveKey(cluster, tenant).status == 200)
        try Self.device(cluster, tenant, "phone", token: Self.token("0999", 1))
        try Self.notify(cluster, tenant, "n1")
        try await eventually("APNs has the first request") { standIn.requests().contains { $0["hanging"] != nil } }
        cluster.nodes[0].signal(SIGKILL)
        try await cluster.startNode(named: "node1")
        try await eventually("another node delivered it", within: 40) {
            (try cluster.call("GET", "/v1/recipients/ann/deliveries", key: tenant, node: 1).json as? [String: Any]).flatMap {
                ($0["items"] as? [[String: Any]])?.first?["state"] as? String
            } == "accepted"
        }
        let hanging = try #require(standIn.requests().first { $0["hanging"] != nil })
        let answered = standIn.requests().filter { $0["status"] as? Int == 200 }
        #expect(answered.count == 1, "\(standIn.requests())")
        #expect(answered.first?["apns_id"] as? String == hanging["apns_id"] as? String, "the same apns-id on the second attempt")
        #expect((answered.first?["headers"] as? [String: String])?["apns-collapse-id"] == "n1")
        await standIn.stop()
        await cluster.stop()
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

/// The APNs-compatible endpoint: a backend that sends to APNs points its base URL at a node and reaches the
/// recipient who registered the device token, on every channel, with APNs' own answers.
@Suite("Server mode: the APNs-compatible endpoint", .serialized)
struct ServerModeAPNsDoorTests {
    /// A provider token as an APNs client makes it: `{"alg":"ES256","kid"}` and `{"iss","iat"}`.
    static func providerToken(_ key: APNsStandIn.Key, issued: Date = Date()) -> String {
        ES256Token.sign(
            header: Array(#"{"alg":"ES256","kid":"\#(key.keyID)"}"#.utf8), claims: Array(#"{"iss":"\#(key.team)","iat":\#(Int(issued.timeIntervalSince1970))}"#.utf8),
            with: key.key)
    }

    /// `POST /3/device/{token}` with APNs' headers, over HTTP/1.1 to the node.
    static func push(
        _ cluster: ServerModeCluster, token: String, jwt: String?, topic: String? = "com.example.chat", apnsID: String? = nil, collapseID: String? = nil,
        priority: String = "10", payload: String = #"{"aps":{"alert":{"title":"From the backend","body":"Via Chime"}}}"#, method: String = "POST",
        path: String? = nil
    ) throws -> RawHTTPConnection.Answer {
        var headers = ["apns-push-type: alert", "apns-priority: \(priority)", "apns-expiration: 0"]
        if let jwt { headers.append("authorization: bearer \(jwt)") }
        if let topic { headers.append("apns-topic: \(topic)") }
        if let apnsID { headers.append("apns-id: \(apnsID)") }
        if let collapseID { headers.append("apns-collapse-id: \(collapseID)") }
        let connection = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        connection.request(method, path ?? "/3/device/\(token)", token: nil, body: payload, host: "127.0.0.1", extraHeaders: headers)
        return try connection.answer(within: 30)
    }

    /// `jwt`'s claims under a header naming `alg`: with no signature for `none`, an HMAC keyed with the
    /// team identifier for `HS256` (what an alg-confusion attack tries).
    static func unsigned(_ jwt: String, alg: String) -> String {
        let claims = jwt.split(separator: ".")[1]
        let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"\#(ServerModeAPNsTests.key.keyID)"}"#.utf8))
        guard alg == "HS256" else { return "\(header).\(claims)." }
        let mac = Digest.hmacSHA256(key: Array(ServerModeAPNsTests.key.team.utf8), message: Array("\(header).\(claims)".utf8))
        return "\(header).\(claims).\(Base64URL.encode(mac))"
    }

    /// Another tenant that gives a key under the same team and key identifiers reaches only its own
    /// recipients' tokens.
    @Test func anotherTenantWithTheSameIdentifiersReachesNoneOfThisOnesDevices() async throws {
        let (cluster, tenant, standIn) = try await ServerModeAPNsTests.start()
        #expect(try ServerModeAPNsTests.giveKey(cluster, tenant).status == 200)
        let phone = ServerModeAPNsTests.token("abcd", 3)
        try ServerModeAPNsTests.device(cluster, tenant, "phone", token: phone)
        let other = try await cluster.tenant("copycat")
        let impostor = APNsStandIn.Key(team: ServerModeAPNsTests.key.team, keyID: ServerModeAPNsTests.key.keyID)
        #expect(try ServerModeAPNsTests.giveKey(cluster, other, pem: impostor.key.pem).status == 200)
        let answer = try Self.push(cluster, token: phone, jwt: Self.providerToken(impostor))
        #expect(answer.status == 400 && Self.reason(answer) == "BadDeviceToken", "\(answer.status) \(answer.text)")
        #expect(try Self.push(cluster, token: phone, jwt: Self.providerToken(ServerModeAPNsTests.key)).status == 200, "the rightful tenant still reaches it")
        await standIn.stop()
        await cluster.stop()
    }

    static func reason(_ answer: RawHTTPConnection.Answer) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["reason"] as? String
    }

    @Test func aBackendsAPNsRequestReachesTheRecipientOnEveryChannel() async throws {
        let (cluster, tenant, standIn) = try await ServerModeAPNsTests.start()
        #expect(try ServerModeAPNsTests.giveKey(cluster, tenant).status == 200)
        let phone = ServerModeAPNsTests.token("abcd", 7)
        try ServerModeAPNsTests.device(cluster, tenant, "phone", token: phone)
        let jwt = Self.providerToken(ServerModeAPNsTests.key)
        let id = UUID().uuidString
        let accepted = try Self.push(cluster, token: phone.uppercased(), jwt: jwt, apnsID: id, collapseID: "backend-1")
        #expect(accepted.status == 200 && accepted.body.isEmpty, "\(accepted.status) \(accepted.text)")
        #expect(accepted.headers["apns-id"] == id.lowercased())
        // The recipient has it, and Chime sent it on to the device through APNs.
        try await eventually("delivered to ann") {
            let delivered = (try cluster.call("GET", "/v1/recipients/ann/delivered", key: tenant).json as? [String: Any])?["items"] as? [[String: Any]] ?? []
            return delivered.count == 1
        }
        let delivered = try #require(((try cluster.call("GET", "/v1/recipients/ann/delivered", key: tenant).json as? [String: Any])?["items"] as? [[String: Any]])?.first)
        let request = try #require((delivered["notification"] as? [String: Any])?["request"] as? [String: Any] ?? delivered["request"] as? [String: Any], "\(delivered)")
        #expect(request["identifier"] as? String == "backend-1")
        try await eventually("forwarded to APNs") { standIn.requests().contains { $0["token"] as? String == phone } }
        let forwarded = try #require(standIn.requests().first { $0["token"] as? String == phone })
        #expect((forwarded["payload"] as? String)?.contains("From the backend") == true && forwarded["status"] as? Int == 200, "\(forwarded)")

        // The same apns-id again (an answer lost on the way back) adds nothing.
        #expect(try Self.push(cluster, token: phone, jwt: jwt, apnsID: id, collapseID: "backend-1").status == 200)
        try await Task.sleep(for: .milliseconds(500))
        #expect(((try cluster.call("GET", "/v1/recipients/ann/delivered", key: tenant).json as? [String: Any])?["total"] as? Int) == 1)
        await standIn.stop()
        await cluster.stop()
    }

    @Test func itAnswersAsAPNsDoes() async throws {
        let (cluster, tenant, standIn) = try await ServerModeAPNsTests.start()
        #expect(try ServerModeAPNsTests.giveKey(cluster, tenant).status == 200)
        let phone = ServerModeAPNsTests.token("abcd", 8)
        try ServerModeAPNsTests.device(cluster, tenant, "phone", token: phone)
        let jwt = Self.providerToken(ServerModeAPNsTests.key)
        let stranger = APNsStandIn.Key(team: ServerModeAPNsTests.key.team, keyID: ServerModeAPNsTests.key.keyID)
        let cases: [(String, RawHTTPConnection.Answer, Int, String)] = [
            ("no provider token", try Self.push(cluster, token: phone, jwt: nil), 403, "MissingProviderToken"),
            ("another key", try Self.push(cluster, token: phone, jwt: Self.providerToken(stranger)), 403, "InvalidProviderToken"),
            ("a token two hours old", try Self.push(cluster, token: phone, jwt: Self.providerToken(ServerModeAPNsTests.key, issued: Date().addingTimeInterval(-7200))), 403, "ExpiredProviderToken"),
            ("nobody's device token", try Self.push(cluster, token: ServerModeAPNsTests.token("dcba", 1), jwt: jwt), 400, "BadDeviceToken"),
            ("not a device token", try Self.push(cluster, token: "xyz", jwt: jwt), 400, "BadDeviceToken"),
            ("no topic", try Self.push(cluster, token: phone, jwt: jwt, topic: nil), 400, "MissingTopic"),
            ("another app's topic", try Self.push(cluster, token: phone, jwt: jwt, topic: "com.example.other"), 400, "DeviceTokenNotForTopic"),
            ("a bad priority", try Self.push(cluster, token: phone, jwt: jwt, priority: "7"), 400, "BadPriority"),
            ("a bad apns-id", try Self.push(cluster, token: phone, jwt: jwt, apnsID: "not-a-uuid"), 400, "BadMessageId"),
            ("a hyphen for a digit in the apns-id", try Self.push(cluster, token: phone, jwt: jwt, apnsID: "123e4567--89b-12d3-a456-426614174000"), 400, "BadMessageId"),
            ("an empty payload", try Self.push(cluster, token: phone, jwt: jwt, payload: ""), 400, "PayloadEmpty"),
            ("a payload over 4 KB", try Self.push(cluster, token: phone, jwt: jwt, payload: #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#), 413, "PayloadTooLarge"),
            ("a payload that is not one", try Self.push(cluster, token: phone, jwt: jwt, payload: #"{"aps":{"badge":"two"}}"#), 400, "BadPayload"),
            ("GET", try Self.push(cluster, token: phone, jwt: jwt, method: "GET"), 405, "MethodNotAllowed"),
            ("another path", try Self.push(cluster, token: phone, jwt: jwt, path: "/3/other/\(phone)"), 404, "BadPath"),
            ("no token", try Self.push(cluster, token: phone, jwt: jwt, path: "/3/device/"), 400, "MissingDeviceToken"),
            ("alg none", try Self.push(cluster, token: phone, jwt: Self.unsigned(jwt, alg: "none")), 403, "InvalidProviderToken"),
            ("alg HS256", try Self.push(cluster, token: phone, jwt: Self.unsigned(jwt, alg: "HS256")), 403, "InvalidProviderToken"),
            ("a NUL in the key's identifier", try Self.push(cluster, token: phone, jwt: Self.providerToken(APNsStandIn.Key(team: "TEAM\u{0}00001", keyID: "KEY0000001"))), 403, "InvalidProviderToken"),
        ]
        for (what, answer, status, reason) in cases {
            #expect(answer.status == status && Self.reason(answer) == reason, "\(what): \(answer.status) \(answer.text)")
            #expect(answer.headers["apns-id"].flatMap(UUID.init(uuidString:)) != nil, "\(what): every answer has an apns-id")
        }
        #expect(((try cluster.call("GET", "/v1/recipients/ann/delivered", key: tenant).json as? [String: Any])?["total"] as? Int) == 0, "none was added")

        // A device APNs said is unregistered: 410 with the time it was turned off, as APNs answers.
        let gone = ServerModeAPNsTests.token("0410", 9)
        try ServerModeAPNsTests.device(cluster, tenant, "old-phone", token: gone)
        #expect(try Self.push(cluster, token: gone, jwt: jwt).status == 200)
        try await eventually("turned off by APNs' answer") {
            (try cluster.call("GET", "/v1/recipients/ann/devices/old-phone", key: tenant).json as? [String: Any])?["enabled"] as? Bool == false
        }
        let unregistered = try Self.push(cluster, token: gone, jwt: jwt)
        let body = try JSONSerialization.jsonObject(with: Data(unregistered.body)) as? [String: Any]
        #expect(unregistered.status == 410 && body?["reason"] as? String == "Unregistered", "\(unregistered.text)")
        let milliseconds = try #require((body?["timestamp"] as? NSNumber)?.doubleValue)
        #expect(abs(milliseconds / 1000 - Date().timeIntervalSince1970) < 60)
        await standIn.stop()
        await cluster.stop()
    }

    /// Chime's own APNs provider — libcurl over HTTP/2 and TLS, as every APNs client speaks — pointed at a node
    /// behind a TLS proxy instead of at Apple: the same requests, the same answers.
    @Test func anAPNsClientOverHTTP2ReachesItThroughATLSProxy() async throws {
        let (cluster, tenant, standIn) = try await ServerModeAPNsTests.start()
        #expect(try ServerModeAPNsTests.giveKey(cluster, tenant).status == 200)
        let phone = ServerModeAPNsTests.token("abcd", 5)
        try ServerModeAPNsTests.device(cluster, tenant, "phone", token: phone)
        // The stand-in's certificate serves the proxy too.
        let proxy = try await TLSProxy.start(certificate: standIn.certificate, upstream: cluster.ports[0])
        var configuration = APNsClient.Configuration()
        configuration.production = "https://127.0.0.1:\(proxy.port)"
        configuration.certificateAuthorities = standIn.certificate
        let client = APNsClient(configuration: configuration)
        let credentials = APNsCredentials(teamID: ServerModeAPNsTests.key.team, keyID: ServerModeAPNsTests.key.keyID, key: ServerModeAPNsTests.key.key)
        let notification = APNsNotification(
            deviceToken: phone, topic: "com.example.chat", collapseID: "through-the-proxy", payload: Array(#"{"aps":{"alert":"Hello over HTTP/2"}}"#.utf8))
        let answer = try await client.send(notification, environment: .production, credentials: credentials)
        #expect(answer.status == 200 && answer.apnsID == notification.id.uuidString.lowercased(), "\(answer)")
        let nobody = APNsNotification(deviceToken: ServerModeAPNsTests.token("dcba", 2), topic: "com.example.chat", payload: Array(#"{"aps":{}}"#.utf8))
        let refused = try await client.send(nobody, environment: .production, credentials: credentials)
        #expect(refused.status == 400 && refused.reason == "BadDeviceToken", "\(refused)")
        try await eventually("delivered to ann") {
            let delivered = (try cluster.call("GET", "/v1/recipients/ann/delivered", key: tenant).json as? [String: Any])?["items"] as? [[String: Any]] ?? []
            return delivered.count == 1
        }
        await proxy.stop()
        await standIn.stop()
        await cluster.stop()
    }
}
