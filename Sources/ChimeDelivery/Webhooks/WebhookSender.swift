import CCurl
import ChimeCrypto
import ChimeCurl
import Dispatch
import Foundation

/// One webhook attempt: a signed POST to the endpoint's URL, on libcurl.
///
/// Before anything is sent, the URL's host is resolved and every address it has must pass the tenant's
/// `OutboundAddressPolicy`; the request then goes to those addresses and no others (`CURLOPT_RESOLVE`), so
/// a DNS answer that changes between the check and the connection cannot redirect it. Redirects are not
/// followed (a `3xx` is a failure, as the Standard Webhooks specification advises); only `http` and `https`
/// are spoken, through no proxy; the attempt ends after `timeout`; the answer's body is read and dropped.
public struct WebhookSender: Sendable {
    public enum Outcome: Sendable, Hashable {
        /// A `2xx`: delivered.
        case accepted(status: Int)
        /// `410 Gone`: the receiver wants no more; the endpoint should be turned off.
        case gone
        /// Any other answer; `retryAfterSeconds` from its `Retry-After` header (seconds or an HTTP-date), if any.
        case rejected(status: Int, retryAfterSeconds: Int?)
        /// No answer: the connection failed, timed out, or broke.
        case failed(String)
        /// Not sent, and never will be as it is: the URL is malformed or its host may not be called.
        case refused(String)
    }

    public var timeout: Duration
    /// Certificate authorities to trust instead of the system's (a test's push service with its own
    /// certificate).
    public var certificateAuthorities: String?

    public init(timeout: Duration = .seconds(15), certificateAuthorities: String? = nil) {
        self.timeout = timeout
        self.certificateAuthorities = certificateAuthorities
    }

    /// Host lookups block: they run here, several at once, never on a thread Swift concurrency needs.
    private static let lookups = DispatchQueue(label: "chime.webhooks.lookup", attributes: .concurrent)
    /// The transfers themselves, any number at once on one thread of their own, which keeps connections
    /// to a receiver open between attempts.
    private static let loop = CurlLoop(name: "chime.webhooks")
    private static let initializeLibrary: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()

    /// POSTs `body` (JSON unless `contentType` says otherwise) with `headers` to `url`, if `policy` lets its
    /// host be reached. Web Push messages go this way too: to a browser's push service, as a webhook goes
    /// to its receiver.
    public func send(
        _ body: [UInt8], headers: [(name: String, value: String)], to url: String, policy: OutboundAddressPolicy, contentType: String = "application/json"
    ) async -> Outcome {
        let looked = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Target, TargetError>, Never>) in
            Self.lookups.async { continuation.resume(returning: Result { () throws(TargetError) in try Self.target(url, policy: policy) }) }
        }
        switch looked {
        case .success(let target): return await perform(target, body: body, headers: [("Content-Type", contentType)] + headers)
        case .failure(.refused(let reason)): return .refused(reason)
        case .failure(.unresolved(let reason)): return .failed(reason)
        }
    }

    struct Target {
        let url: String
        /// `host:port:pinned-name:port` for `CURLOPT_CONNECT_TO`: the connection goes to a name that stands
        /// for exactly the checked addresses. libcurl reuses a kept-open connection only for the same
        /// connect-to name, so a connection opened to addresses one policy allowed never carries a request
        /// whose name now resolves elsewhere (DNS rebinding) or that another tenant's policy checked.
        let connectTo: String
        /// `pinned-name:port:address,…` for `CURLOPT_RESOLVE`: the checked addresses, and no others.
        let pin: String
    }

    enum TargetError: Error {
        /// The URL or its host may not be called: it would never be.
        case refused(String)
        /// The host did not resolve now: it may later (a DNS outage), so the attempt is tried again.
        case unresolved(String)
    }

    /// The URL checked and its host's addresses pinned.
    static func target(_ url: String, policy: OutboundAddressPolicy) throws(TargetError) -> Target {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            var host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            !host.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .refused("\(url) is not an http or https URL with a host and without a user name") }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let addresses: [IPAddress]
        do {
            addresses = try HostResolver.addresses(of: host)
        } catch {
            throw .unresolved(error.description)
        }
        // Every address, not just one: a name that also resolves to a private address is refused whole.
        for address in addresses {
            if let refusal = policy.refusal(address) { throw .refused("\(host): \(refusal)") }
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let list = addresses.map { $0.isIPv4 ? $0.description : "[\($0)]" }.joined(separator: ",")
        let pinnedName = "chime-" + Digest.sha256(Array(list.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined() + ".invalid"
        return Target(url: url, connectTo: "\(shownHost):\(port):\(pinnedName):\(port)", pin: "\(pinnedName):\(port):\(list)")
    }

    private func perform(_ target: Target, body: [UInt8], headers extra: [(name: String, value: String)]) async -> Outcome {
        Self.initializeLibrary
        guard let curl = curl_easy_init() else { return .failed("libcurl could not start a transfer") }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Expect:")
        for (name, value) in extra { headers = curl_slist_append(headers, "\(name): \(value)") }
        let pins = Pins(list: curl_slist_append(nil, target.pin), connectTo: curl_slist_append(nil, target.connectTo))
        let answer = Answer()
        let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        _ = chime_curl_setopt_string(curl, CURLOPT_URL, target.url)
        _ = chime_curl_setopt_list(curl, CURLOPT_RESOLVE, pins.list)
        _ = chime_curl_setopt_list(curl, CURLOPT_CONNECT_TO, pins.connectTo)
        _ = chime_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        // No proxy from the environment (http_proxy, ALL_PROXY): a proxy would look the name up again, past
        // the pinned addresses, and reach what the policy refused.
        _ = chime_curl_setopt_string(curl, CURLOPT_PROXY, "")
        _ = chime_curl_setopt_string(curl, CURLOPT_NOPROXY, "*")
        _ = chime_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = chime_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = chime_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = chime_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000))
        _ = chime_curl_setopt_string(curl, CURLOPT_USERAGENT, "Chime-Webhooks/1")
        if let certificateAuthorities { _ = chime_curl_setopt_string(curl, CURLOPT_CAINFO, certificateAuthorities) }
        _ = chime_curl_setopt_list(curl, CURLOPT_HTTPHEADER, headers)
        _ = chime_curl_setopt_long(curl, CURLOPT_POST, 1)
        _ = chime_curl_setopt_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        body.withUnsafeBytes { bytes in
            _ = chime_curl_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
        }
        let context = Unmanaged.passUnretained(answer).toOpaque()
        _ = chime_curl_setopt_write(curl, dropAnswer)
        _ = chime_curl_setopt_header(curl, keepHeader)
        _ = chime_curl_setopt_pointer(curl, CURLOPT_HEADERDATA, context)
        let (code, status) = await withCheckedContinuation { (continuation: CheckedContinuation<(CURLcode, Int), Never>) in
            Self.loop.submit(
                CurlLoop.Transfer(
                    easy: CurlLoop.Pointer(raw: curl), headers: headers.map { CurlLoop.Pointer(raw: UnsafeMutableRawPointer($0)) },
                    completion: { code, status in
                        // The answer and the pinned addresses live until the transfer ends: libcurl uses both until then.
                        withExtendedLifetime(answer) { pins.free() }
                        continuation.resume(returning: (code, status))
                    }))
        }
        guard code == CURLE_OK else { return .failed(String(cString: curl_easy_strerror(code))) }
        switch status {
        case 200..<300: return .accepted(status: status)
        case 410: return .gone
        default: return .rejected(status: status, retryAfterSeconds: answer.retryAfter)
        }
    }
}

/// The `CURLOPT_RESOLVE` and `CURLOPT_CONNECT_TO` lists of one transfer, freed when it ends.
private struct Pins: @unchecked Sendable {  // freed once, by the transfer's completion
    let list: UnsafeMutablePointer<curl_slist>?
    let connectTo: UnsafeMutablePointer<curl_slist>?

    func free() {
        curl_slist_free_all(list)
        curl_slist_free_all(connectTo)
    }
}

/// What a transfer keeps of its answer: `Retry-After` as a pause in seconds.
private final class Answer: @unchecked Sendable {  // written only by the transfer that owns it
    var retryAfter: Int?
}

/// Reads and drops an answer's body.
private let dropAnswer: chime_curl_data_callback = { _, size, count, _ in size * count }

private let keepHeader: chime_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
    if let seconds = RetryAfter.seconds(headerLine: line, now: Date()) {
        Unmanaged<Answer>.fromOpaque(context).takeUnretainedValue().retryAfter = seconds
    }
    return length
}
