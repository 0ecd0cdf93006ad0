import CCurl
import ChimeCurl
import ChimeAPI
import Dispatch
import Foundation
import Synchronization

/// HTTP requests to chimed over its Unix socket, or to a server-mode node at its address, on libcurl
/// (https://curl.se/libcurl/).
///
/// Transfers run on the client's own `CurlLoop` thread, never on a thread Swift concurrency needs; callers
/// suspend until their answer. The loop keeps connections between requests (keep-alive). Every request
/// has a connect timeout and, unless told otherwise, an overall one, so a daemon that accepts but never
/// answers cannot hang a client.
final class HTTPTransport: Sendable {
    struct Response: Sendable {
        let status: Int
        let body: [UInt8]
    }

    let endpoint: HTTPEndpoint
    let token: String
    /// `Chime-App: <app>` (percent-encoded), sent by a client that speaks for an app.
    let appHeader: String?
    private let loop: CurlLoop
    /// The largest answer read: a page of a thousand requests is a few megabytes.
    static let maximumResponseSize = 64 << 20

    init(endpoint: HTTPEndpoint, token: String, appIdentifier: String? = nil) {
        Self.initializeLibrary
        self.endpoint = endpoint
        self.token = token
        appHeader = appIdentifier.map { "Chime-App: " + PercentEncoding.encodeSegment($0) }
        loop = CurlLoop(name: "chime.client.http")
    }

    deinit {
        loop.stop()
    }

    private static let initializeLibrary: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()

    /// Pauses before trying again a request the daemon did not take (its connections are all in use, or
    /// it is restarting): about 6 s in all.
    static let retryPauses: [Duration] = [.milliseconds(100), .milliseconds(300), .milliseconds(600), .seconds(1), .seconds(2), .seconds(2)]

    /// Sends one request and returns the status and body; throws `APIError.notConnected` when no answer
    /// came (no daemon, a broken connection, the timeout).
    ///
    /// A request that never reached the daemon (no connection could be made, or the daemon closed the
    /// connection without reading it, as it does when all its connections are in use) is tried again a
    /// few times; one that may have been carried out is tried again only when `idempotent`.
    func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: [UInt8]? = nil, headers: [String] = [],
        timeout: Duration? = .seconds(60), idempotent: Bool = true
    ) async throws(APIError) -> Response {
        let url = endpoint.url(path, query: query)
        var pauses = Self.retryPauses[...]
        while true {
            let sink = ResponseSink(limit: Self.maximumResponseSize)
            let (code, status) = await withCheckedContinuation { (continuation: CheckedContinuation<(CURLcode, Int), Never>) in
                loop.submit(transfer(method: method, url: url, body: body, headers: headers, timeout: timeout, sink: sink) { code, status in
                    continuation.resume(returning: (code, status))
                })
            }
            if code == CURLE_OK { return Response(status: status, body: sink.bytes) }
            if sink.overflowed { throw APIError(.notConnected, "chimed's answer was larger than \(Self.maximumResponseSize) bytes") }
            let retry = code == CURLE_COULDNT_CONNECT || (idempotent && (code == CURLE_GOT_NOTHING || code == CURLE_SEND_ERROR))
            guard retry, let pause = pauses.popFirst() else { throw Self.transportError(code, endpoint: endpoint, timeout: timeout) }
            try? await Task.sleep(for: pause)
        }
    }

    /// An easy handle set up for one request, its answer collected into `sink`.
    private func transfer(
        method: HTTPMethod, url: String, body: [UInt8]?, headers extra: [String], timeout: Duration?, sink: ResponseSink,
        completion: @escaping @Sendable (CURLcode, Int) -> Void
    ) -> CurlLoop.Transfer {
        let curl = curl_easy_init()!
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Authorization: Bearer \(token)")
        headers = curl_slist_append(headers, "Accept: application/json")
        if let appHeader { headers = curl_slist_append(headers, appHeader) }
        if body != nil {
            headers = curl_slist_append(headers, "Content-Type: \(WireFormat.jsonMediaType)")
            // No "Expect: 100-continue" (libcurl's default above 1 KiB): waiting for chimed's interim
            // answer before sending the body costs a round trip, and a body chimed refuses is small anyway.
            headers = curl_slist_append(headers, "Expect:")
        }
        for header in extra { headers = curl_slist_append(headers, header) }
        if let socketPath = endpoint.socketPath { _ = chime_curl_setopt_string(curl, CURLOPT_UNIX_SOCKET_PATH, socketPath) }
        _ = chime_curl_setopt_string(curl, CURLOPT_URL, url)
        _ = chime_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = chime_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, 5_000)
        if let timeout {
            _ = chime_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        }
        _ = chime_curl_setopt_list(curl, CURLOPT_HTTPHEADER, headers)
        _ = chime_curl_setopt_write(curl, collectBody)
        // The loop keeps the transfer, and so the sink, until it completes.
        _ = chime_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
        switch method {
        case .get: _ = chime_curl_setopt_long(curl, CURLOPT_HTTPGET, 1)
        case .post: _ = chime_curl_setopt_long(curl, CURLOPT_POST, 1)
        case .put, .delete: _ = chime_curl_setopt_string(curl, CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
        if let body, !body.isEmpty {
            _ = chime_curl_setopt_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                _ = chime_curl_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress!))
            }
        } else if method != .get {
            _ = chime_curl_setopt_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, 0)
            _ = chime_curl_setopt_string(curl, CURLOPT_COPYPOSTFIELDS, "")
        }
        return CurlLoop.Transfer(
            easy: CurlLoop.Pointer(raw: curl), headers: headers.map { CurlLoop.Pointer(raw: UnsafeMutableRawPointer($0)) },
            completion: { code, status in
                withExtendedLifetime(sink) { completion(code, status) }
            })
    }

    static func transportError(_ code: CURLcode, endpoint: HTTPEndpoint, timeout: Duration?) -> APIError {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: APIError(.notConnected, "no daemon answers on \(endpoint)")
        case CURLE_OPERATION_TIMEDOUT: APIError(.notConnected, "chimed did not answer within \(timeout.map { "\($0)" } ?? "the connect timeout")")
        default: APIError(.notConnected, "the connection to chimed failed: \(String(cString: curl_easy_strerror(code)))")
        }
    }
}

/// What a request's answer collects into; refuses more than `limit` bytes.
final class ResponseSink: @unchecked Sendable {  // written only by the libcurl transfer that owns it
    let limit: Int
    var bytes: [UInt8] = []
    var overflowed = false

    init(limit: Int) {
        self.limit = limit
    }
}

/// libcurl's write callback for a request: appends to its `ResponseSink`.
let collectBody: chime_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard sink.bytes.count + length <= sink.limit else {
        sink.overflowed = true
        return 0  // aborts the transfer
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}
