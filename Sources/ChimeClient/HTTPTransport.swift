import CCurl
import ChimeAPI
import Dispatch
import Foundation
import Synchronization

/// HTTP requests to chimed over its Unix socket, on libcurl (https://curl.se/libcurl/).
///
/// Keeps a few easy handles and reuses them, so consecutive requests reuse their connection (keep-alive).
/// `curl_easy_perform` blocks, so it runs on a queue of its own, never on the cooperative pool; callers
/// suspend on a continuation. Every request has a connect timeout and, unless told otherwise, an overall
/// one, so a daemon that accepts but never answers cannot hang a client.
final class HTTPTransport: Sendable {
    struct Response: Sendable {
        let status: Int
        let body: [UInt8]
    }

    /// An easy handle; used by one request at a time (it leaves the pool while in use).
    struct Handle: @unchecked Sendable {  // a libcurl easy handle, confined to the request that took it
        let pointer: UnsafeMutableRawPointer
    }

    let socketPath: String
    let token: String
    private let idle = Mutex<[Handle]>([])
    private static let queue = DispatchQueue(label: "chime.client.http", attributes: .concurrent)
    /// The largest answer read: a page of a thousand requests is a few megabytes.
    static let maximumResponseSize = 64 << 20

    init(socketPath: String, token: String) {
        Self.initializeLibrary
        self.socketPath = socketPath
        self.token = token
    }

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
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
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: [UInt8]? = nil, timeout: Duration? = .seconds(60),
        idempotent: Bool = true
    ) async throws(APIError) -> Response {
        let url = Self.url(path, query: query)
        var pauses = Self.retryPauses[...]
        while true {
            let handle = idle.withLock { $0.popLast() } ?? Handle(pointer: curl_easy_init())
            let result: Result<Response, Failure> = await withCheckedContinuation { continuation in
                Self.queue.async {
                    continuation.resume(returning: self.perform(handle, method: method, url: url, body: body, timeout: timeout))
                }
            }
            idle.withLock { idle in
                if idle.count < 8 { idle.append(handle) } else { curl_easy_cleanup(handle.pointer) }
            }
            switch result {
            case .success(let response): return response
            case .failure(let failure):
                let retry = failure.code == CURLE_COULDNT_CONNECT || (idempotent && (failure.code == CURLE_GOT_NOTHING || failure.code == CURLE_SEND_ERROR))
                guard retry, let pause = pauses.popFirst() else { throw failure.error }
                try? await Task.sleep(for: pause)
            }
        }
    }

    /// A transfer that failed: libcurl's code, and the error it means.
    struct Failure: Error {
        let code: CURLcode
        let error: APIError
    }

    static func url(_ path: String, query: [(String, String)]) -> String {
        guard !query.isEmpty else { return "http://localhost" + path }
        return "http://localhost" + path + "?" + query.map { "\(PercentEncoding.encodeSegment($0.0))=\(PercentEncoding.encodeSegment($0.1))" }.joined(separator: "&")
    }

    private func perform(_ handle: Handle, method: HTTPMethod, url: String, body: [UInt8]?, timeout: Duration?) -> Result<Response, Failure> {
        let curl = handle.pointer
        curl_easy_reset(curl)
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Authorization: Bearer \(token)")
        headers = curl_slist_append(headers, "Accept: application/json")
        if body != nil { headers = curl_slist_append(headers, "Content-Type: \(WireFormat.jsonMediaType)") }
        defer { curl_slist_free_all(headers) }

        let sink = ResponseSink(limit: Self.maximumResponseSize)
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        _ = chime_curl_setopt_string(curl, CURLOPT_UNIX_SOCKET_PATH, socketPath)
        _ = chime_curl_setopt_string(curl, CURLOPT_URL, url)
        _ = chime_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = chime_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, 5_000)
        if let timeout {
            _ = chime_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        }
        _ = chime_curl_setopt_list(curl, CURLOPT_HTTPHEADER, headers)
        _ = chime_curl_setopt_write(curl, collectBody)
        _ = chime_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, sinkPointer)
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
        let code = curl_easy_perform(curl)
        guard code == CURLE_OK else {
            if sink.overflowed {
                return .failure(Failure(code: code, error: APIError(.notConnected, "chimed's answer was larger than \(Self.maximumResponseSize) bytes")))
            }
            return .failure(Failure(code: code, error: Self.transportError(code, socket: socketPath, timeout: timeout)))
        }
        var status = 0
        _ = chime_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return .success(Response(status: status, body: sink.bytes))
    }

    static func transportError(_ code: CURLcode, socket: String, timeout: Duration?) -> APIError {
        switch code {
        case CURLE_COULDNT_CONNECT: APIError(.notConnected, "no daemon answers on \(socket)")
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
