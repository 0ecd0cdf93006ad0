import ChimeAPI
import ChimeCore
import Foundation

/// A request matched to a route: its path parameters, query and JSON body, read into typed values with
/// `APIError`s that name the parameter at fault.
struct APIRequest {
    let request: HTTPRequest
    let parameters: [String: String]

    /// A path parameter.
    func parameter(_ name: String) throws(APIError) -> String {
        guard let value = parameters[name], !value.isEmpty else { throw APIError(.invalidParameters, field: name, "\(name) must not be empty") }
        return value
    }

    /// The `{app}` parameter: an app identifier of at most 255 bytes, without control characters.
    var app: String {
        get throws(APIError) {
            let app = try parameter("app")
            guard app.utf8.count <= 255, !app.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw APIError(.invalidParameters, field: "app", "an app identifier has at most 255 bytes and no control characters")
            }
            return app
        }
    }

    var lastEventID: String? { request.head.headers["last-event-id"] }

    /// Whether the client asked for the minimal answer (`Prefer: return=minimal`, RFC 7240).
    var prefersMinimalReturn: Bool {
        guard let prefer = request.head.headers["prefer"] else { return false }
        return prefer.split(separator: ",").contains { preference in
            let token = preference.split(separator: ";").first.map(String.init) ?? ""
            return token.filter { !$0.isWhitespace }.lowercased() == "return=minimal"
        }
    }

    /// The JSON body, decoded.
    func body<Body: Decodable>(_ type: Body.Type) throws -> Body {
        guard let body = try optionalBody(type) else { throw APIError(.malformedRequest, "this route takes a JSON body") }
        return body
    }

    /// The JSON body, decoded, or `nil` when there is none.
    func optionalBody<Body: Decodable>(_ type: Body.Type) throws -> Body? {
        guard !request.body.isEmpty else { return nil }
        if let contentType = request.head.headers["content-type"],
            contentType.split(separator: ";").first.map(HTTPText.trimmed)?.lowercased() != WireFormat.jsonMediaType
        {
            throw APIError(.unsupportedMediaType, field: "Content-Type", "bodies are \(WireFormat.jsonMediaType)")
        }
        do {
            return try WireFormat.decoder().decode(Body.self, from: Data(request.body))
        } catch let error as ChimeError {
            throw error
        } catch DecodingError.keyNotFound(let key, let context) {
            throw APIError(.invalidParameters, field: Self.path(context.codingPath + [key]), "a required field is missing")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw APIError(.invalidParameters, field: Self.path(context.codingPath), "a field has the wrong type")
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            throw APIError(.invalidParameters, field: Self.path(context.codingPath), "a field has a value it cannot take")
        } catch {
            throw APIError(.malformedRequest, "the body is not valid JSON")
        }
    }

    /// `cursor` and `limit` from the query.
    func page() throws(APIError) -> PageRequest {
        var limit = Page<PendingItem>.defaultLimit
        if let given = request.head.queryValue("limit") {
            guard let number = Int(given) else { throw APIError(.invalidParameters, field: "limit", "limit is a whole number") }
            limit = number
        }
        let cursor = request.head.queryValue("cursor").flatMap { $0.isEmpty ? nil : $0 }
        return try PageRequest(cursor: cursor, limit: limit)
    }

    /// A whole-number query argument; absent is 0.
    func count(_ name: String) throws(APIError) -> Int {
        guard let given = request.head.queryValue(name) else { return 0 }
        guard let number = Int(given) else { throw APIError(.invalidParameters, field: name, "\(name) is a whole number") }
        return number
    }

    /// A `true`/`false` query argument; absent is false.
    func flag(_ name: String) throws(APIError) -> Bool {
        switch request.head.queryValue(name)?.lowercased() {
        case nil, "false", "0": return false
        case "true", "1", "": return true
        default: throw APIError(.invalidParameters, field: name, "\(name) is true or false")
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
