import ChimeAPI
import ChimeCLI
import ChimeCrypto
import ChimeTestSupport
import Foundation
import Testing

/// The per-user daemon's pushes to browsers (the web center's "notify this browser") end to end: a real
/// chimed, and a push service on loopback (`push_service.py`) that makes subscriptions as
/// `pushManager.subscribe` does, checks each message's VAPID token and headers, and decrypts it with the
/// subscription's private key as the browser would.
@Suite("Web center: pushes to browsers", .serialized)
struct WebPushBrowsersTests {
    static let app = "com.example.meetings"

    /// One API call over the daemon's socket with its token (or as the app `asApp`).
    static func call(_ home: DaemonHome, _ method: String, _ path: String, body: String? = nil, asApp: String? = nil) throws -> (status: Int, json: [String: Any]) {
        let connection = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        var headers = body == nil ? [] : ["Content-Type: application/json"]
        if let asApp { headers.append("Chime-App: \(asApp)") }
        connection.request(method, path, token: try home.token, body: body, extraHeaders: headers)
        let answer = try connection.answer()
        return (answer.status, (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]) ?? [:])
    }

    static func plaintexts(_ push: PushService, _ subscription: String) -> [[String: Any]] {
        push.messages().filter { ($0["subscription"] as? String) == subscription && $0["status"] as? Int == 201 }.compactMap {
            ($0["plaintext"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    static func endpointName(_ subscription: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(subscription.utf8)) as? [String: Any])
        return try #require((object["endpoint"] as? String)?.split(separator: "/").last.map(String.init))
    }

    @Test func whatChimedShowsReachesEachSubscribedBrowserAndEndedOnesAreDropped() async throws {
        let push = try await PushService.start()
        let home = try DaemonHome()
        // The push service is on loopback, which a push may reach only when the user says so.
        let arguments = ["--webhook-allow", "127.0.0.1", "--outbound-ca-file", push.certificate]
        var daemon = try await home.start(arguments)

        let status = try Self.call(home, "GET", "/v1/web/push")
        let key = try #require(status.json["applicationServerKey"] as? String, "\(status)")
        #expect(key.count == 87 && key.hasPrefix("B") && status.json["subscriptions"] as? Int == 0, "base64url of a 65-byte point: \(key)")

        var subscriptions: [String: String] = [:]
        for kind in ["ok", "busy", "gone", "stranger"] {
            let strangerKey = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
            let subscription = try push.subscribe(applicationServerKey: kind == "stranger" ? strangerKey : key, kind: kind == "stranger" ? "ok" : kind)
            subscriptions[kind] = subscription
            let saved = try Self.call(home, "POST", "/v1/web/push/subscriptions", body: subscription)
            let endpoint = try #require((try JSONSerialization.jsonObject(with: Data(subscription.utf8)) as? [String: Any])?["endpoint"] as? String)
            #expect(saved.status == 201, "\(saved)")
            #expect(saved.json["id"] as? String == Base64URL.encode(Digest.sha256(Array(endpoint.utf8)).prefix(16)), "\(saved)")
        }
        #expect(try Self.call(home, "GET", "/v1/web/push").json["subscriptions"] as? Int == 4)

        let added = await WebCenterSession.chime(["add", "--app", Self.app, "--id", "standup", "Stand-up", "In five minutes"], home)
        #expect(added.exitCode == .success, "\(added.standardError)")
        try await daemon.presented(Self.app, "standup")
        let ok = try Self.endpointName(try #require(subscriptions["ok"]))
        let busy = try Self.endpointName(try #require(subscriptions["busy"]))
        try await eventually("the message reaches the browser, and the busy service's after its Retry-After", within: 20) {
            !Self.plaintexts(push, ok).isEmpty && !Self.plaintexts(push, busy).isEmpty
        }
        let message = try #require(Self.plaintexts(push, ok).first)
        #expect(message["type"] as? String == "notification.delivered")
        #expect(message["app"] as? String == Self.app && message["identifier"] as? String == "standup")
        #expect(message["title"] as? String == "Stand-up" && message["body"] as? String == "In five minutes")
        #expect(message["recipient"] == nil, "the per-user daemon has one user")
        let received = push.messages().filter { ($0["subscription"] as? String) == ok }
        #expect(received.count == 1, "sent once: \(received)")
        #expect(received.first?["vapid"] as? String == "ok" && received.first?["ttl"] as? String == "86400")
        #expect(received.first?["urgency"] as? String == "normal" && (received.first?["topic"] as? String)?.count == 32, "\(received)")

        // 410 and a key the subscription was not made with end those subscriptions; the others stay.
        try await eventually("ended subscriptions are dropped") { try Self.call(home, "GET", "/v1/web/push").json["subscriptions"] as? Int == 2 }
        let stranger = try Self.endpointName(try #require(subscriptions["stranger"]))
        #expect(push.messages().first { ($0["subscription"] as? String) == stranger }?["status"] as? Int == 403, "\(push.messages())")

        // A removal is not pushed on its own (a push showing nothing spends the browser's budget of silent
        // pushes): the next push carries it, once.
        let removed = await WebCenterSession.chime(["remove", "--delivered", "--app", Self.app, "standup"], home)
        #expect(removed.exitCode == .success, "\(removed.standardError)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.plaintexts(push, ok).count == 1, "nothing pushed for the removal itself")
        for identifier in ["tea", "coffee"] {
            _ = await WebCenterSession.chime(["add", "--app", Self.app, "--id", identifier, identifier.capitalized], home)
            try await daemon.presented(Self.app, identifier)
            try await eventually("\(identifier) reaches the browser") { Self.plaintexts(push, ok).contains { $0["identifier"] as? String == identifier } }
        }
        let tea = try #require(Self.plaintexts(push, ok).first { $0["identifier"] as? String == "tea" })
        let coffee = try #require(Self.plaintexts(push, ok).first { $0["identifier"] as? String == "coffee" })
        #expect(tea["closes"] as? [String] == ["\(Self.app)/standup"] && coffee["closes"] == nil, "\(tea) \(coffee)")

        // The key and the subscriptions outlive a restart, and so does the web center's address, to which
        // the browsers' subscriptions belong.
        let port = home.httpPort
        #expect(await daemon.terminate() == 0)
        daemon = try await home.start(arguments)
        #expect(home.httpPort == port && port != nil, "the same loopback port again")
        let again = try Self.call(home, "GET", "/v1/web/push")
        #expect(again.json["applicationServerKey"] as? String == key && again.json["subscriptions"] as? Int == 2, "\(again)")
        let mode = try FileManager.default.attributesOfItem(atPath: home.paths.webPushFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the private key's file is the user's alone")

        // Unsubscribed, a browser gets nothing more; an unknown id is already unsubscribed.
        let okID = Base64URL.encode(Digest.sha256(Array("https://127.0.0.1:\(push.port)/push/\(ok)".utf8)).prefix(16))
        #expect(try Self.call(home, "DELETE", "/v1/web/push/subscriptions/\(okID)").status == 200)
        #expect(try Self.call(home, "DELETE", "/v1/web/push/subscriptions/unknown").status == 200)
        #expect(try Self.call(home, "GET", "/v1/web/push").json["subscriptions"] as? Int == 1)
        let before = Self.plaintexts(push, ok).count
        _ = await WebCenterSession.chime(["add", "--app", Self.app, "--id", "lunch", "Lunch"], home)
        try await daemon.presented(Self.app, "lunch")
        try await eventually("the subscribed browser gets it") { Self.plaintexts(push, busy).contains { $0["identifier"] as? String == "lunch" } }
        #expect(Self.plaintexts(push, ok).count == before, "nothing for the unsubscribed browser")
        #expect(await daemon.terminate() == 0)
        await push.stop()
    }

    /// A subscription chimed cannot push to is refused with the field at fault, and changes nothing; an
    /// app may not subscribe anyone (only the user, through chime or the page); a push service on a
    /// private address is not reached unless the user allowed its network.
    @Test func badSubscriptionsAreRefusedAndNotAllowedAddressesNotReached() async throws {
        let push = try await PushService.start()
        let home = try DaemonHome()
        let daemon = try await home.start(["--outbound-ca-file", push.certificate])
        let key = try #require(try Self.call(home, "GET", "/v1/web/push").json["applicationServerKey"] as? String)
        let good = try push.subscribe(applicationServerKey: key)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(good.utf8)) as? [String: Any])
        let keys = try #require(object["keys"] as? [String: String])
        let endpoint = try #require(object["endpoint"] as? String)
        func body(endpoint: String = endpoint, p256dh: String? = nil, auth: String? = nil, extra: String = "") -> String {
            #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(p256dh ?? keys["p256dh"]!)","auth":"\#(auth ?? keys["auth"]!)"}\#(extra)}"#
        }
        let cases: [(String, String)] = [
            (body(endpoint: endpoint.replacingOccurrences(of: "https:", with: "http:")), "endpoint"),
            (body(endpoint: "https://user:pw@127.0.0.1/push/x"), "endpoint"),
            (body(endpoint: "https://127.0.0.1/" + String(repeating: "a", count: 2100)), "endpoint"),
            (body(endpoint: "not a url"), "endpoint"),
            (body(p256dh: "BAAA"), "keys.p256dh"),
            (body(p256dh: "B" + String(repeating: "A", count: 86)), "keys.p256dh"),
            (body(auth: "AAAA"), "keys.auth"),
            (body(extra: #","expirationTime":1000"#), "expirationTime"),
            (#"{"endpoint":"https://127.0.0.1/x"}"#, "keys"),
        ]
        for (bad, field) in cases {
            let refused = try Self.call(home, "POST", "/v1/web/push/subscriptions", body: bad)
            #expect(refused.status == 400 && (refused.json["error"] as? [String: Any])?["field"] as? String == field, "\(bad): \(refused)")
        }
        let asApp = try Self.call(home, "POST", "/v1/web/push/subscriptions", body: good, asApp: Self.app)
        #expect(asApp.status == 403, "\(asApp)")
        #expect(try Self.call(home, "GET", "/v1/web/push", asApp: Self.app).status == 403)
        #expect(try Self.call(home, "GET", "/v1/web/push").json["subscriptions"] as? Int == 0, "nothing was subscribed")

        // Loopback without --webhook-allow: taken, but never reached; chimed drops it and says why.
        #expect(try Self.call(home, "POST", "/v1/web/push/subscriptions", body: good).status == 201)
        _ = await WebCenterSession.chime(["add", "--app", Self.app, "--id", "ping", "Ping"], home)
        try await daemon.presented(Self.app, "ping")
        _ = try await daemon.log.take("the refusal") { $0.contains("no longer receives pushes") && $0.contains("not a public address") }
        #expect(try Self.call(home, "GET", "/v1/web/push").json["subscriptions"] as? Int == 0)
        #expect(push.messages().isEmpty, "nothing reached the push service")
        #expect(await daemon.terminate() == 0)
        await push.stop()
    }
}
