import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode's recipients: their zone and language as given, their language at delivery (deferred
/// localization resolved against the tenant's strings tables when a notification fires), and what they
/// did with it (responses).
@Suite("Server mode: recipients' languages and responses", .serialized)
struct ServerModeResponsesTests {
    /// The events the node wrote, by recipient, as JSON objects.
    static func events(_ cluster: ServerModeCluster, kind: String) async throws -> [String: [String: Any]] {
        let rows = try await cluster.database.read { db in
            try db.query("SELECT recipient, convert_from(body, 'UTF8') FROM event WHERE kind = $1", [.text(kind)]).map { ($0[0].text!, $0[1].text!) }
        }
        var events: [String: [String: Any]] = [:]
        for (recipient, body) in rows {
            events[recipient] = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        }
        return events
    }

    /// A recipient's zone is a tz database name, kept as given (`UTC` stays `UTC`); a language is a
    /// language tag. Anything else is refused with the field named, and the profile stays as it was.
    @Test func recipientsZonesAndLanguagesAreCheckedAndKeptAsGiven() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("profiles")
        for zone in ["UTC", "Etc/UTC", "GMT", "Etc/GMT-9", "Asia/Seoul", "America/Argentina/Buenos_Aires"] {
            #expect(try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"\#(zone)","locale":"en-GB"}"#).status == 200, "\(zone)")
            let read = try cluster.call("GET", "/v1/recipients/ann", key: key).json as? [String: Any]
            #expect(read?["timeZone"] as? String == zone)
        }
        for (zone, locale, field) in [
            ("asia/seoul", "en", "timeZone"), ("GMT+9", "en", "timeZone"), ("GMT+0900", "en", "timeZone"), ("Asia/Nowhere", "en", "timeZone"), ("../etc/passwd", "en", "timeZone"),
            ("", "en", "timeZone"), ("Asia/Seoul", "english", "locale"), ("Asia/Seoul", "", "locale"), ("Asia/Seoul", "ko_KR", "locale"),
        ] {
            let answer = try cluster.call("PUT", "/v1/recipients/ann", key: key, body: #"{"timeZone":"\#(zone)","locale":"\#(locale)"}"#)
            #expect(answer.status == 400, "\(zone) \(locale): \(answer.text)")
            #expect(((answer.json as? [String: Any])?["error"] as? [String: Any])?["field"] as? String == field, "\(zone) \(locale): \(answer.text)")
        }
        let kept = try cluster.call("GET", "/v1/recipients/ann", key: key).json as? [String: Any]
        #expect(kept?["timeZone"] as? String == "America/Argentina/Buenos_Aires")
        #expect(kept?["locale"] as? String == "en-GB")
        await cluster.stop()
    }

    /// One request's deferred localization reads as each recipient's language wants: Korean for a
    /// recipient in ko-KR (the region falls back to `ko`), Brazilian Portuguese before Portuguese, the
    /// development language for a language the app has no table for, the key itself for a key no table has.
    @Test func deferredLocalizationResolvesInEachRecipientsLanguage() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("tea")
        let tables = [
            "en": #""TEA_READY" = "%@ is ready";"#,
            "ko": #""TEA_READY" = "%@ 준비 완료";"#,
            "pt": #""TEA_READY" = "%@ está pronto";"#,
            "pt-BR": #""TEA_READY" = "%@ tá pronto";"#,
        ]
        for (language, table) in tables {
            let saved = try cluster.call("PUT", "/v1/apps/com.example.tea/strings/\(language)", key: key, body: table)
            #expect(saved.status == 204, "\(language): \(saved.text)")
        }
        // A table in UTF-16 with its byte order mark, as Xcode writes them, is taken as well.
        let utf16: [UInt8] = [0xFF, 0xFE] + #""TEA_READY" = "%@ est prêt";"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try cluster.callBytes("PUT", "/v1/apps/com.example.tea/strings/fr", key: key, body: utf16).status == 204)

        let locales = ["seoul": "ko-KR", "lisbon": "pt-PT", "recife": "pt-BR", "paris": "fr", "berlin": "de"]
        for (recipient, locale) in locales {
            #expect(try cluster.call("PUT", "/v1/recipients/\(recipient)", key: key, body: #"{"timeZone":"UTC","locale":"\#(locale)"}"#).status == 200)
        }
        let items = locales.keys.map { recipient in
            #"{"recipient":"\#(recipient)","app":"com.example.tea","request":{"identifier":"tea","content":{"title":{"key":"TEA_READY","arguments":["Green tea"]},"body":{"key":"NO_SUCH_KEY"}}}}"#
        }
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items.joined(separator: ","))]}"#).status == 201)
        try await eventually("five delivered") { try await cluster.value("SELECT count(*) FROM event") == 5 }

        let events = try await Self.events(cluster, kind: "delivered")
        func text(_ recipient: String) -> [String: Any]? { events[recipient]?["text"] as? [String: Any] }
        #expect(text("seoul")?["title"] as? String == "Green tea 준비 완료")
        #expect(text("seoul")?["language"] as? String == "ko")
        #expect(text("lisbon")?["title"] as? String == "Green tea está pronto")
        #expect(text("recife")?["title"] as? String == "Green tea tá pronto")
        #expect(text("paris")?["title"] as? String == "Green tea est prêt")
        #expect(text("berlin")?["title"] as? String == "Green tea is ready", "no German table: the development language")
        #expect(text("berlin")?["language"] as? String == "en")
        #expect(text("seoul")?["body"] as? String == "NO_SUCH_KEY", "a key no table has shows as itself")
        // The request keeps its key and arguments: what the recipient's device may resolve itself.
        let title = ((events["seoul"]?["notification"] as? [String: Any])?["request"] as? [String: Any]).flatMap { (($0["content"] as? [String: Any])?["title"] as? [String: Any])?["key"] as? String }
        #expect(title == "TEA_READY")

        // The tables as kept, and a change that the next fire reads (the node's parsed copy is not stale).
        let list = try #require(try cluster.call("GET", "/v1/apps/com.example.tea/strings", key: key).json as? [String: Any])
        #expect((list["tables"] as? [[String: Any]])?.compactMap { $0["language"] as? String } == ["en", "fr", "ko", "pt", "pt-BR"])
        #expect(try cluster.call("GET", "/v1/apps/com.example.tea/strings/ko", key: key).text == tables["ko"])
        #expect(try cluster.call("PUT", "/v1/apps/com.example.tea/strings/ko", key: key, body: #""TEA_READY" = "%@ 다 됐어요";"#).status == 204)
        #expect(try cluster.call("DELETE", "/v1/apps/com.example.tea/strings/pt-BR", key: key).status == 204)
        let again = ["seoul", "recife"].map { #"{"recipient":"\#($0)","app":"com.example.tea","request":{"identifier":"tea2","content":{"title":{"key":"TEA_READY","arguments":["Oolong"]}}}}"# }
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(again.joined(separator: ","))]}"#).status == 201)
        try await eventually("two more delivered") { try await cluster.value("SELECT count(*) FROM event") == 7 }
        let titles = try await cluster.database.read { db in
            try db.query(
                "SELECT recipient, convert_from(body, 'UTF8')::json->'text'->>'title' FROM event WHERE convert_from(body, 'UTF8')::json->'notification'->'request'->>'identifier' = 'tea2'"
            ).map { ($0[0].text!, $0[1].text!) }
        }
        #expect(Dictionary(uniqueKeysWithValues: titles) == ["seoul": "Oolong 다 됐어요", "recife": "Oolong está pronto"], "the changed Korean table; Portuguese once pt-BR is gone")

        // What is not a strings table, or not a language, is refused and changes nothing.
        for (path, body, status) in [
            ("/v1/apps/com.example.tea/strings/ko", #""TEA_READY" = "unterminated"#, 400),
            ("/v1/apps/com.example.tea/strings/../etc", #""A" = "B";"#, 404),
            ("/v1/apps/com.example.tea/strings/k", #""A" = "B";"#, 400),
            ("/v1/apps/com.example.tea/strings/ko%20KR", #""A" = "B";"#, 400),
        ] {
            let answer = try cluster.call("PUT", path, key: key, body: body)
            #expect(answer.status == status, "\(path): \(answer.status) \(answer.text)")
        }
        #expect(try cluster.call("GET", "/v1/apps/com.example.tea/strings/ko", key: key).text == #""TEA_READY" = "%@ 다 됐어요";"#)
        // Another tenant sees none of these tables.
        let other = try await cluster.tenant("other")
        #expect(((try cluster.call("GET", "/v1/apps/com.example.tea/strings", key: other).json as? [String: Any])?["tables"] as? [Any])?.isEmpty == true)
        #expect(try cluster.call("GET", "/v1/apps/com.example.tea/strings/ko", key: other).status == 404)
        #expect(try cluster.call("DELETE", "/v1/apps/com.example.tea/strings/ko", key: other).status == 404)
        await cluster.stop()
    }

    /// A recipient's response is kept, takes the notification out of their delivered list, is listed
    /// newest first, and reaches the tenant's stream as a `responded` event; what does not fit the rules
    /// (no such notification, Apple's reserved identifiers, another tenant's key) changes nothing.
    @Test func responsesAreKeptListedAndStreamed() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("chat")
        let items = ["m1", "m2", "m3"].map { #"{"recipient":"ann","app":"chat","request":{"identifier":"\#($0)","content":{"title":"Message \#($0)","categoryIdentifier":"message"}}}"# }
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items.joined(separator: ","))]}"#).status == 201)
        try await eventually("three delivered") { try await cluster.value("SELECT count(*) FROM delivered") == 3 }

        let stream = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        stream.request("GET", "/v1/events", token: key, host: "127.0.0.1", extraHeaders: ["Last-Event-ID: \(try await cluster.value("SELECT max(sequence) FROM event"))"])

        let reply = try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m1/response", key: key, body: #"{"kind":"reply","action":"reply","text":"On my way"}"#)
        #expect(reply.status == 201, "\(reply.text)")
        let replied = try #require(reply.json as? [String: Any])
        #expect((replied["response"] as? [String: Any])?["userText"] as? String == "On my way")
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m2/response", key: key, body: #"{"kind":"open"}"#).status == 201)
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m3/response", key: key, body: #"{"kind":"action","action":"like"}"#).status == 201)

        // Answered once: a second response finds nothing delivered.
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m1/response", key: key, body: #"{"kind":"open"}"#).status == 404)
        let delivered = try #require(try cluster.call("GET", "/v1/recipients/ann/delivered", key: key).json as? [String: Any])
        #expect(delivered["total"] as? Int == 0)

        // Newest first, two to a page.
        let first = try #require(try cluster.call("GET", "/v1/recipients/ann/responses?limit=2", key: key).json as? [String: Any])
        #expect(first["total"] as? Int == 3)
        let firstActions = (first["items"] as? [[String: Any]])?.compactMap { ($0["response"] as? [String: Any])?["actionIdentifier"] as? String }
        #expect(firstActions == ["like", "com.apple.UNNotificationDefaultActionIdentifier"])
        let cursor = try #require(first["next"] as? String)
        let second = try #require(try cluster.call("GET", "/v1/recipients/ann/responses?limit=2&cursor=\(cursor)", key: key).json as? [String: Any])
        #expect((second["items"] as? [[String: Any]])?.compactMap { ($0["response"] as? [String: Any])?["actionIdentifier"] as? String } == ["reply"])
        #expect(second["next"] == nil || second["next"] is NSNull)

        let text = String(decoding: stream.read(for: 2), as: UTF8.self)
        #expect(text.components(separatedBy: "event: responded").count - 1 == 3, "\(text.prefix(600))")
        #expect(text.contains("On my way"))

        // Refused, with nothing changed: Apple's reserved identifiers as buttons, an empty one, a reply
        // to nothing, another tenant's key.
        let items2 = #"{"recipient":"ann","app":"chat","request":{"identifier":"m4","content":{"title":"Message m4"}}}"#
        #expect(try cluster.call("POST", "/v1/notifications", key: key, body: #"{"notifications":[\#(items2)]}"#).status == 201)
        try await eventually("m4 delivered") { try await cluster.value("SELECT count(*) FROM delivered") == 1 }
        for body in [
            #"{"kind":"action","action":"com.apple.UNNotificationDefaultActionIdentifier"}"#, #"{"kind":"action","action":""}"#,
            #"{"kind":"reply","action":"com.apple.UNNotificationDismissActionIdentifier","text":"x"}"#, #"{"kind":"wave"}"#,
        ] {
            let answer = try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m4/response", key: key, body: body)
            #expect(answer.status == 400, "\(body): \(answer.status) \(answer.text)")
        }
        let other = try await cluster.tenant("other")
        #expect(try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m4/response", key: other, body: #"{"kind":"open"}"#).status == 404)
        #expect(try cluster.call("GET", "/v1/recipients/ann/responses", key: other).status == 404)
        #expect(try await cluster.value("SELECT count(*) FROM delivered") == 1)
        #expect(try await cluster.value("SELECT count(*) FROM response") == 3)

        // Retention forgets responses with the tenant's delivered notifications.
        try await cluster.database.transaction { db in try db.execute("UPDATE tenant SET retention_seconds = 0") }
        _ = try await PostgresRetention(database: cluster.database).sweep(now: Date().addingTimeInterval(1))
        #expect(try await cluster.value("SELECT count(*) FROM response") == 0)
        await cluster.stop()
    }
}
