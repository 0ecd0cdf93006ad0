import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

/// The OpenAPI document is the API's one description: every route is in it, everything in it is a route,
/// and chimed serves exactly it.
@Suite("chimed's OpenAPI document")
struct OpenAPIDocumentTests {
    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
    }

    /// "GET /v1/status"-style keys of every operation in the document, with their operationId.
    static func operations() throws -> [String: String] {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var operations: [String: String] = [:]
        for (path, item) in paths {
            for (method, operation) in item where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                operations["\(method.uppercased()) \(path)"] = (operation as? [String: Any])?["operationId"] as? String ?? ""
            }
        }
        return operations
    }

    @Test func isOpenAPI31() throws {
        #expect(try Self.document()["openapi"] as? String == "3.1.0")
        #expect((try Self.document()["info"] as? [String: Any])?["version"] as? String == WireFormat.version)
    }

    @Test func everyRouteIsInTheDocumentAndEveryOperationIsARoute() throws {
        let documented = try Self.operations()
        let routes = Dictionary(uniqueKeysWithValues: Route.allCases.map { ("\($0.method.rawValue) \($0.template)", $0.rawValue) })
        #expect(Set(documented.keys).subtracting(routes.keys).isEmpty, "documented but not served: \(Set(documented.keys).subtracting(routes.keys).sorted())")
        #expect(Set(routes.keys).subtracting(documented.keys).isEmpty, "served but not documented: \(Set(routes.keys).subtracting(documented.keys).sorted())")
        for (key, name) in routes {
            #expect(documented[key] == name, "\(key) has operationId \(documented[key] ?? "none"), the route is \(name)")
        }
    }

    @Test func chimedServesTheDocument() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let raw = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        raw.request("GET", Route.openAPI.path(), token: try home.token)
        let answer = try raw.answer()
        #expect(answer.status == 200 && answer.headers["content-type"] == "application/json")
        #expect(answer.body == OpenAPIDocument.bytes)
        #expect(await daemon.terminate() == 0)
    }
}
