import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode's devices: a recipient's APNs tokens, browsers' push subscriptions and webhooks, registered,
/// listed, replaced and removed through a node's API, each checked against its channel's rules.
@Suite("Server mode: recipients' devices", .serialized)
struct ServerModeDevicesTests {
    /// RFC 8291's example subscription (section 5): a real P-256 public key and a 16-byte secret.
    static let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
    /// A device token as Apple's documentation shows one (32 bytes, uppercase hex).
    static let token = "740F4707BEBCF74F9B7C25D48E3358945F6AA01DA5DDB387462C7EAF61BB78AD"

    static func apns(_ token: String = token, topic: String = "com.example.app", environment: String? = nil) -> String {
        let environment = environment.map { #","environment":"\#($0)""# } ?? ""
        return #"{"channel":"apns","apns":{"token":"\#(token)","topic":"\#(topic)"\#(environment)}}"#
    }

    static func webpush(endpoint: String = "https://push.example.net/wpush/v2/abc", p256dh: String = p256dh, auth: String = auth) -> String {
        #"{"channel":"webpush","webpush":{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}}"#
    }

    static func webhook(_ url: String) -> String {
        #"{"channel":"webhook","webhook":{"url":"\#(url)"}}"#
    }

    func devices(_ cluster: ServerModeCluster, _ recipient: String, key: String) throws -> [[String: Any]] {
        let list = try cluster.call("GET", "/v1/recipients/\(recipient)/devices", key: key)
        #expect(list.status == 200, "\(list.text)")
        return (list.json as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    @Test func devicesAreRegisteredReplacedListedAndRemoved() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("shop")
        for recipient in ["ann", "ben"] {
            #expect(try cluster.call("PUT", "/v1/recipients/\(recipient)", key: key, body: #"{"timeZone":"Asia/Seoul","locale":"ko"}"#).status == 200)
        }

        // An APNs token: created, kept in lowercase, production when not said.
        let phone = try cluster.call("PUT", "/v1/recipients/ann/devices/phone", key: key, body: Self.apns())
        #expect(phone.status == 201, "\(phone.text)")
        let saved = try #require(phone.json as? [String: Any])
        let apns = saved["apns"] as? [String: Any]
        #expect(saved["id"] as? String == "phone" && saved["channel"] as? String == "apns" && saved["enabled"] as? Bool == true)
        #expect(apns?["token"] as? String == Self.token.lowercased() && apns?["environment"] as? String == "production")
        let created = try #require(saved["created"] as? Double)

        // A browser's subscription as JSON.stringify(subscription) gives it, and a webhook.
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/laptop", key: key, body: Self.webpush()).status == 201)
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/crm", key: key, body: Self.webhook("https://hooks.example.com/chime")).status == 201)
        #expect(try devices(cluster, "ann", key: key).map { $0["id"] as? String } == ["crm", "laptop", "phone"])
        let laptop = try cluster.call("GET", "/v1/recipients/ann/devices/laptop", key: key).json as? [String: Any]
        let keys = (laptop?["webpush"] as? [String: Any])?["keys"] as? [String: Any]
        #expect(keys?["p256dh"] as? String == Self.p256dh && keys?["auth"] as? String == Self.auth)

        // Registering the same identifier again replaces it (200), keeping when it was first made.
        let replaced = try cluster.call("PUT", "/v1/recipients/ann/devices/phone", key: key, body: Self.apns(environment: "development"))
        #expect(replaced.status == 200, "\(replaced.text)")
        let again = try #require(replaced.json as? [String: Any])
        #expect((again["apns"] as? [String: Any])?["environment"] as? String == "development")
        #expect(again["created"] as? Double == created && (again["updated"] as? Double ?? 0) >= created)

        // A token reaches one person: registered by ben, it leaves ann. A webhook may serve both.
        #expect(try cluster.call("PUT", "/v1/recipients/ben/devices/iphone", key: key, body: Self.apns(Self.token.lowercased())).status == 201)
        #expect(try cluster.call("PUT", "/v1/recipients/ben/devices/crm", key: key, body: Self.webhook("https://hooks.example.com/chime")).status == 201)
        #expect(try devices(cluster, "ann", key: key).map { $0["id"] as? String } == ["crm", "laptop"])
        #expect(try devices(cluster, "ben", key: key).map { $0["id"] as? String } == ["crm", "iphone"])

        // Removed once; then there is none to remove or read.
        #expect(try cluster.call("DELETE", "/v1/recipients/ann/devices/laptop", key: key).status == 204)
        #expect(try cluster.call("DELETE", "/v1/recipients/ann/devices/laptop", key: key).status == 404)
        #expect(try cluster.call("GET", "/v1/recipients/ann/devices/laptop", key: key).status == 404)
        // No such recipient: nothing is made for them.
        #expect(try cluster.call("PUT", "/v1/recipients/nobody/devices/phone", key: key, body: Self.apns("aa" + String(repeating: "0", count: 62))).status == 404)
        #expect(try cluster.call("GET", "/v1/recipients/nobody/devices", key: key).status == 404)
        #expect(try await cluster.value("SELECT count(*) FROM device WHERE recipient = 'nobody'") == 0)
        await cluster.stop()
    }

    /// Each channel's rules, each refused with the field at fault, and nothing stored.
    @Test func anAddressItsChannelCannotUseIsRefusedAndChangesNothing() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("rules")
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"UTC","locale":"en"}"#).status == 200)
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/phone", key: key, body: Self.apns()).status == 201)
        let before = try devices(cluster, "ann", key: key).map { $0["updated"] as? Double }

        let sixteenBytes = "AAAAAAAAAAAAAAAAAAAAAA"  // base64url of 16 zero bytes
        let compressedKey = "A" + String(Self.p256dh.dropFirst())  // first byte 0x00…, not an uncompressed point
        let refused: [(body: String, field: String)] = [
            (#"{"channel":"sms","webhook":{"url":"https://a.example"}}"#, "channel"),
            (#"{"channel":"apns","webhook":{"url":"https://a.example"}}"#, "apns"),
            (#"{"channel":"apns","apns":{"token":"\#(Self.token)","topic":"a"},"webhook":{"url":"https://a.example"}}"#, "apns"),
            (Self.apns("zz" + String(Self.token.dropFirst(2))), "apns.token"),
            (Self.apns(String(Self.token.dropLast())), "apns.token"),
            (Self.apns(String(Self.token.prefix(62))), "apns.token"),
            (Self.apns(topic: "com.example app"), "apns.topic"),
            (Self.apns(topic: ""), "apns.topic"),
            (Self.apns(environment: "sandbox"), "apns.environment"),
            (Self.webpush(endpoint: "http://push.example.net/x"), "webpush.endpoint"),
            (Self.webpush(endpoint: "/relative"), "webpush.endpoint"),
            (Self.webpush(p256dh: String(Self.p256dh.dropLast(4))), "webpush.keys.p256dh"),
            (Self.webpush(p256dh: compressedKey), "webpush.keys.p256dh"),
            (Self.webpush(p256dh: Self.p256dh + "*"), "webpush.keys.p256dh"),
            (Self.webpush(auth: sixteenBytes + "AA"), "webpush.keys.auth"),
            (Self.webhook("ftp://files.example.com/in"), "webhook.url"),
            (Self.webhook("https://user:secret@hooks.example.com/in"), "webhook.url"),
            (Self.webhook("https://hooks.example.com/in#part"), "webhook.url"),
            (Self.webhook("https://"), "webhook.url"),
        ]
        for (body, field) in refused {
            let answer = try cluster.call("PUT", "/v1/recipients/ann/devices/phone", key: key, body: body)
            let error = (answer.json as? [String: Any])?["error"] as? [String: Any]
            #expect(answer.status == 400 && error?["field"] as? String == field, "\(body): \(answer.status) \(answer.text)")
        }
        // The auth secret of exactly 16 bytes is taken, the refused ones left the phone as it was.
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/tab", key: key, body: Self.webpush(auth: sixteenBytes)).status == 201)
        let after = try devices(cluster, "ann", key: key)
        #expect(after.map { $0["id"] as? String } == ["phone", "tab"])
        #expect(after.first?["updated"] as? Double == before.first ?? nil)
        await cluster.stop()
    }

    /// At most 100 devices per recipient: the 101st is refused and not kept; a read-only key registers
    /// nothing; another tenant's key finds nothing.
    @Test func aRecipientsDevicesAreBoundedAndScoped() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("many")
        let other = try await cluster.tenant("other")
        #expect(try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"UTC","locale":"en"}"#).status == 200)
        for index in 0..<100 {
            let status = try cluster.call("PUT", "/v1/recipients/ann/devices/hook\(index)", key: key, body: Self.webhook("https://hooks.example.com/\(index)")).status
            #expect(status == 201)
        }
        let extra = try cluster.call("PUT", "/v1/recipients/ann/devices/hook100", key: key, body: Self.webhook("https://hooks.example.com/100"))
        #expect(extra.status == 400 && extra.text.contains("at most 100"), "\(extra.text)")
        #expect(try devices(cluster, "ann", key: key).count == 100)
        // Replacing one of the hundred is not adding one.
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/hook7", key: key, body: Self.apns()).status == 200)

        let created = try cluster.call("POST", "/v1/keys", key: key, body: #"{"name":"reader","scopes":["read"]}"#)
        let reader = try #require((created.json as? [String: Any])?["secret"] as? String)
        #expect(try cluster.call("PUT", "/v1/recipients/ann/devices/hook0", key: reader, body: Self.webhook("https://x.example")).status == 403)
        #expect(try cluster.call("DELETE", "/v1/recipients/ann/devices/hook0", key: reader).status == 403)
        #expect(try devices(cluster, "ann", key: reader).count == 100)

        for (method, path, body) in [
            ("GET", "/v1/recipients/ann/devices", nil), ("GET", "/v1/recipients/ann/devices/hook0", nil),
            ("PUT", "/v1/recipients/ann/devices/hook0", Self.webhook("https://evil.example")), ("DELETE", "/v1/recipients/ann/devices/hook1", nil),
        ] as [(String, String, String?)] {
            let answer = try cluster.call(method, path, key: other, body: body)
            #expect(answer.status == 404, "\(method) \(path): \(answer.status) \(answer.text)")
        }
        let hook0 = try cluster.call("GET", "/v1/recipients/ann/devices/hook0", key: key).json as? [String: Any]
        #expect((hook0?["webhook"] as? [String: Any])?["url"] as? String == "https://hooks.example.com/0")
        #expect(try devices(cluster, "ann", key: key).count == 100)
        await cluster.stop()
    }
}
