import ChimeAPI

/// Where a client's requests go: chimed's Unix socket, or the address of a server-mode node.
struct HTTPEndpoint: Sendable, CustomStringConvertible {
    /// The socket libcurl connects to instead of the URL's host; `nil` for a network address.
    let socketPath: String?
    /// The scheme, host and port requests go to; over a socket, a formality (`http://localhost`).
    let baseURL: String

    static func socket(_ path: String) -> HTTPEndpoint {
        HTTPEndpoint(socketPath: path, baseURL: "http://localhost")
    }

    /// A node's address (`http://127.0.0.1:7717`, `https://chime.example.com/`); a path after the host
    /// is kept, so a node behind a proxy's prefix is reached too.
    static func server(_ baseURL: String) -> HTTPEndpoint {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return HTTPEndpoint(socketPath: nil, baseURL: base)
    }

    /// The URL of `path` (which starts with `/`) with `query` percent-encoded.
    func url(_ path: String, query: [(String, String)]) -> String {
        guard !query.isEmpty else { return baseURL + path }
        return baseURL + path + "?" + query.map { "\(PercentEncoding.encodeSegment($0.0))=\(PercentEncoding.encodeSegment($0.1))" }.joined(separator: "&")
    }

    /// What a message names as the place that did not answer.
    var description: String { socketPath ?? baseURL }
}
