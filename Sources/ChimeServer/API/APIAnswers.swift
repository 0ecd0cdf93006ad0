public import ChimeAPI
import Foundation

/// The API's answers as HTTP, one shape for every handler (the per-user daemon's and server mode's):
/// JSON bodies, errors with the status `HTTPErrorMapping` gives them, event streams.
extension HTTPResponse {
    public static let jsonHeaders: [(name: String, value: String)] = [
        ("Content-Type", WireFormat.jsonMediaType), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
    ]

    public static func json(_ value: some Encodable, status: Int = 200) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: .bytes(Array(try WireFormat.encoder().encode(value))))
    }

    public static func apiError(_ error: APIError) -> HTTPResponse {
        let bytes = (try? WireFormat.encoder().encode(ErrorBody(error: error))).map(Array.init) ?? []
        return HTTPResponse(status: HTTPErrorMapping.status(of: error), headers: jsonHeaders, body: .bytes(bytes))
    }

    public static func eventStream(_ body: StreamingBody) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
            body: .stream(body))
    }
}
