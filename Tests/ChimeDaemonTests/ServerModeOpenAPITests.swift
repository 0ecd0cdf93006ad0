import ChimeAPI
import ChimePostgres
import ChimeServerMode
import ChimeTestSupport
import Foundation
import Testing

/// Server mode's OpenAPI document is its API's one description: every route the handler answers is in it,
/// every operation in it reaches a route, each body both APIs share is written once (in the daemon's
/// document), and a node serves it to anyone.
@Suite("Server mode's OpenAPI document", .serialized)
struct ServerModeOpenAPITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.serverModeBytes)) as? [String: Any])
    }

    /// "GET /v1/recipients/*"-style keys of every operation in the document: each `{parameter}` a `*`,
    /// as `TenantAPIHandler.routes` writes them.
    static func operations() throws -> Set<String> {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var operations = Set<String>()
        for (path, item) in paths {
            let pattern = path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? "*" : String($0) }.joined(separator: "/")
            for method in item.keys where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                operations.insert("\(method.uppercased()) /\(pattern)")
            }
        }
        return operations
    }

    /// Every description in the served document, by where it is.
    static func descriptions(in value: Any, at path: String = "") -> [(String, String)] {
        if let object = value as? [String: Any] {
            return object.flatMap { key, member in
                key == "description" || key == "summary" ? (member as? String).map { [(path + "/" + key, $0)] } ?? [] : descriptions(in: member, at: path + "/" + key)
            }
        }
        if let array = value as? [Any] { return array.enumerated().flatMap { descriptions(in: $1, at: path + "/\($0)") } }
        return []
    }

    /// The bodies both APIs share come from the daemon's document, whose descriptions speak of the user, the
    /// daemon and its routes; server mode's document says what they mean for a recipient on a node instead,
    /// and leaves the daemon's own document as it is.
    @Test func sharedBodiesAreDescribedForRecipientsNotForTheDaemonsUser() throws {
        let document = try Self.document()
        #expect(document[OpenAPIDocument.sharedDescriptionsKey] == nil)
        let daemonWords = ["the daemon", "user's zone", "user's language", "chimed moves", "data folder", "/v1/apps/{app}/pending", "/v1/apps/{app}/delivered"]
        for (path, text) in Self.descriptions(in: document) {
            for words in daemonWords {
                #expect(!text.contains(words), "\(path) says “\(words)”: \(text)")
            }
        }
        let calendar = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["CalendarTrigger"] as? [String: Any]
        #expect((calendar?["description"] as? String)?.contains("float with the recipient's zone") == true)
        let daemons = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let daemonCalendar = ((daemons["components"] as? [String: Any])?["schemas"] as? [String: Any])?["CalendarTrigger"] as? [String: Any]
        #expect((daemonCalendar?["description"] as? String)?.contains("float with the user's zone") == true)
    }

    @Test func isOpenAPI31() throws {
        #expect(try Self.document()["openapi"] as? String == "3.1.0")
        #expect((try Self.document()["info"] as? [String: Any])?["version"] as? String == WireFormat.version)
    }

    @Test func everyRouteIsInTheDocumentAndEveryOperationIsARoute() throws {
        let documented = try Self.operations()
        let routes = Set(TenantAPIHandler.routes)
        #expect(routes.count == TenantAPIHandler.routes.count, "a route is listed twice")
        #expect(documented.subtracting(routes).isEmpty, "documented but not served: \(documented.subtracting(routes).sorted())")
        #expect(routes.subtracting(documented).isEmpty, "served but not documented: \(routes.subtracting(documented).sorted())")
    }

    /// Every `$ref` of the served document names something in it: what the server document refers to of
    /// the daemon's was merged in, and nothing else is missing.
    @Test func everyReferenceResolves() throws {
        let document = try Self.document()
        func resolve(_ reference: String) -> Any? {
            guard reference.hasPrefix("#/") else { return nil }
            var value: Any? = document
            for part in reference.dropFirst(2).split(separator: "/") {
                let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                value = (value as? [String: Any])?[key]
            }
            return value
        }
        var unresolved: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String, resolve(reference) == nil { unresolved.append(reference) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(document)
        #expect(unresolved.isEmpty, "unresolved: \(Set(unresolved).sorted())")
    }

    /// The server document defines none of the daemon's schemas, responses or parameters again: it refers
    /// to them, and they are merged in once.
    @Test func writesNoSharedComponentAgain() throws {
        func components(_ file: String) throws -> [String: [String: Any]] {
            let data = try Data(contentsOf: Self.repository.appendingPathComponent("Sources/ChimeAPI/\(file)"))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(document["components"] as? [String: [String: Any]])
        }
        let own = try components("openapi-server.json")
        let shared = try components("openapi.json")
        for section in ["schemas", "parameters"] {
            let twice = Set((own[section] ?? [:]).keys).intersection((shared[section] ?? [:]).keys)
            #expect(twice.isEmpty, "\(section) written in both documents: \(twice.sorted())")
        }
        // The shared bodies arrive through the merge.
        let merged = try #require(try Self.document()["components"] as? [String: [String: Any]])
        for name in ["NotificationRequest", "DeliveredNotification", "NotificationResponse", "ErrorBody", "WireUserAction", "RemoveSelection"] {
            #expect(merged["schemas"]?[name] != nil, "\(name) was not merged in")
        }
        #expect(merged["schemas"]?["CenterPage"] == nil, "only what the server document refers to is merged in")
    }

    /// A node answers every documented operation with one of its routes (never `unknownRoute`), and serves
    /// the document without a key. The key only publishes, so the reading and admin routes are refused
    /// (403), no event stream opens and nothing is changed: a route that refuses has still been reached.
    @Test func aNodeReachesEveryOperationAndServesTheDocument() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let admin = try await cluster.tenant("docs")
        let created = try cluster.call("POST", "/v1/keys", key: admin, body: #"{"name":"publisher","scopes":["publish"]}"#)
        #expect(created.status == 201, "\(created.text)")
        let key = try #require((created.json as? [String: Any])?["secret"] as? String)
        for operation in try Self.operations().sorted() {
            let parts = operation.split(separator: " ", maxSplits: 1)
            let path = parts[1].replacingOccurrences(of: "*", with: "x")
            let answer = try cluster.call(String(parts[0]), path, key: key)
            let error = (answer.json as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["name"] as? String != "unknownRoute", "\(operation): \(answer.status) \(answer.text)")
            #expect(answer.status < 500, "\(operation): \(answer.status) \(answer.text)")
        }

        let connection = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        connection.request("GET", "/v1/openapi.json", token: nil, host: "127.0.0.1:\(cluster.ports[0])")
        let document = try connection.answer()
        #expect(document.status == 200 && document.headers["content-type"] == "application/json")
        #expect(document.body == OpenAPIDocument.serverModeBytes)
        // Every other route still wants a key.
        connection.request("GET", "/v1/status", token: nil, host: "127.0.0.1:\(cluster.ports[0])")
        #expect(try connection.answer().status == 401)
        await cluster.stop()
    }

    /// The conventions the document states: a 401 says how to authenticate, a known path with another
    /// method is 405 with the methods it takes, an unknown one is 404, and a request that can never be
    /// scheduled (a push trigger) is refused as the per-user daemon refuses it.
    @Test func answersFollowTheDocumentsConventions() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("conventions")
        let connection = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        connection.request("GET", "/v1/status", token: "chime_not_a_key", host: "127.0.0.1:\(cluster.ports[0])")
        let refused = try connection.answer()
        #expect(refused.status == 401 && refused.headers["www-authenticate"] == #"Bearer realm="chime""#)

        let wrong = try RawHTTPConnection(loopbackPort: cluster.ports[0])
        wrong.request("PATCH", "/v1/apps/tea/strings/ko", token: key, host: "127.0.0.1:\(cluster.ports[0])")
        let notAllowed = try wrong.answer()
        #expect(notAllowed.status == 405, "\(notAllowed.text)")
        #expect(notAllowed.headers["allow"] == "GET, PUT, DELETE")
        #expect(try cluster.call("GET", "/v1/apps/tea/flavours", key: key).status == 404)

        let push = #"{"notifications":[{"recipient":"ann","app":"tea","request":{"identifier":"remote","trigger":{"type":"push"}}}]}"#
        let answer = try cluster.call("POST", "/v1/notifications", key: key, body: push)
        let error = (answer.json as? [String: Any])?["error"] as? [String: Any]
        #expect(answer.status == 400 && error?["name"] as? String == "notificationInvalidNoDate", "\(answer.text)")
        #expect(error?["field"] as? String == "notifications.0.request.trigger")
        #expect(try await cluster.value("SELECT count(*) FROM pending") == 0)
        await cluster.stop()
    }

    /// Found by fuzzing against the document: PostgreSQL's text cannot hold U+0000, so a request with one
    /// in a path segment, a query value or a body field is the client's mistake (400), not the node's (500).
    @Test func textWithANulCharacterIsRefusedAsInvalid() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("nul")
        #expect(try cluster.call("PUT", "/v1/recipients/minji", key: key, body: #"{"timeZone":"Asia/Seoul","locale":"ko-KR"}"#).status == 200)
        let batch = #"{"notifications":[{"recipient":"minji","app":"com.example\u0000alarm","request":{"identifier":"wake"}}]}"#
        for (method, path, body) in [
            ("GET", "/v1/recipients/min%00ji", nil), ("GET", "/v1/recipients/minji/pending?app=a%00", nil), ("DELETE", "/v1/keys/k%00", nil),
            ("POST", "/v1/notifications", batch),
        ] {
            let answer = try cluster.call(method, path, key: key, body: body)
            let error = (answer.json as? [String: Any])?["error"] as? [String: Any]
            #expect(answer.status == 400 && error?["name"] as? String == "invalidParameters", "\(method) \(path): \(answer.status) \(answer.text)")
        }
        #expect(try await cluster.value("SELECT count(*) FROM pending") == 0)
        await cluster.stop()
    }
}
