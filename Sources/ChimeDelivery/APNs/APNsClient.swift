import CCurl
import ChimeCurl
import Dispatch
public import Foundation
import Synchronization

/// A provider's connection to APNs: HTTP/2 on libcurl, one connection per provider key and environment
/// carrying every request as a stream of its own (Apple asks providers to keep connections open and
/// multiplex them rather than open many), each request signed with that key's provider token — one token
/// per connection, as APNs expects (two keys' tokens alternating on one connection count as updates, and
/// APNs answers `TooManyProviderTokenUpdates`).
///
/// `send` makes one request and says what APNs answered. When APNs says the provider token is expired or
/// invalid, the token is replaced once (`APNsProviderToken`) and the request sent again with it; any other
/// answer is the caller's to act on (see `APNsAnswer.reason`).
public final class APNsClient: Sendable {
    public enum Environment: String, Sendable, Hashable {
        case production, development
    }

    public struct Configuration: Sendable {
        /// Apple's hosts: `api.push.apple.com` and `api.sandbox.push.apple.com`.
        public var production = "https://api.push.apple.com"
        public var development = "https://api.sandbox.push.apple.com"
        /// Certificate authorities to trust instead of the system's (a stand-in's own certificate).
        public var certificateAuthorities: String?
        public var timeout: Duration = .seconds(15)

        public init() {}

        func base(_ environment: Environment) -> String {
            environment == .production ? production : development
        }
    }

    /// Why no answer came: the request was not sent (`notSent`), or the connection failed or timed out.
    public enum Failure: Error, Sendable, Hashable {
        case notSent(String)
        case noAnswer(String)
    }

    public let configuration: Configuration
    private let connections: Mutex<[String: (loop: CurlLoop, used: UInt64)]> = Mutex([:])
    private let tokens: Mutex<[String: APNsProviderToken]> = Mutex([:])
    /// Connections (each a thread, a multi handle and its descriptors) kept at most: past it, the one used
    /// longest ago is closed once its requests end. Keys whose tokens are kept at most, likewise.
    public static let maximumConnections = 64
    static let maximumTokens = 4096

    public init(configuration: Configuration = Configuration()) {
        _ = curl_global_init(Int(CURL_GLOBAL_ALL))
        self.configuration = configuration
    }

    deinit {
        connections.withLock { $0.values.forEach { $0.loop.stop() } }
    }

    /// Sends `notification` to APNs in `environment`, signed for `credentials`' team.
    public func send(_ notification: APNsNotification, environment: Environment, credentials: APNsCredentials, now: Date = Date())
        async throws(Failure) -> APNsAnswer
    {
        guard notification.payload.count <= APNsNotification.maximumPayloadSize else {
            throw .notSent("PayloadTooLarge: the payload is \(notification.payload.count) bytes; APNs takes at most \(APNsNotification.maximumPayloadSize)")
        }
        let provider = token(for: credentials)
        let connection = connection(for: credentials.identity, environment)
        let url = configuration.base(environment) + "/3/device/" + notification.deviceToken
        var token = provider.token(now: now)
        var answer = try await transfer(notification, to: url, token: token, on: connection)
        if answer.status == 403, ["ExpiredProviderToken", "InvalidProviderToken"].contains(answer.reason), let fresh = provider.replace(rejected: token, now: now),
            fresh != token
        {
            token = fresh
            answer = try await transfer(notification, to: url, token: token, on: connection)
        }
        return answer
    }

    private func token(for credentials: APNsCredentials) -> APNsProviderToken {
        tokens.withLock { tokens in
            if let existing = tokens[credentials.identity] { return existing }
            if tokens.count >= Self.maximumTokens { tokens.removeAll() }
            let made = APNsProviderToken(credentials: credentials)
            tokens[credentials.identity] = made
            return made
        }
    }

    private func connection(for identity: String, _ environment: Environment) -> CurlLoop {
        let now = DispatchTime.now().uptimeNanoseconds
        return connections.withLock { connections in
            let name = identity + "\u{0}" + environment.rawValue
            if let existing = connections[name] {
                connections[name] = (existing.loop, now)
                return existing.loop
            }
            if connections.count >= Self.maximumConnections, let oldest = connections.min(by: { $0.value.used < $1.value.used }) {
                // Its thread ends once the requests under way on it have.
                oldest.value.loop.stop()
                connections[oldest.key] = nil
            }
            let made = CurlLoop(name: "chime.apns", connectionsPerHost: 1, startsOnSubmit: false)
            connections[name] = (made, now)
            return made
        }
    }

    private func transfer(_ notification: APNsNotification, to url: String, token: String, on loop: CurlLoop) async throws(Failure) -> APNsAnswer {
        guard let curl = curl_easy_init() else { throw .noAnswer("libcurl could not start a transfer") }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "authorization: bearer \(token)")
        for (name, value) in notification.headers { headers = curl_slist_append(headers, "\(name): \(value)") }
        headers = curl_slist_append(headers, "Expect:")
        let milliseconds = Int(configuration.timeout.components.seconds * 1000 + configuration.timeout.components.attoseconds / 1_000_000_000_000_000)
        _ = chime_curl_setopt_string(curl, CURLOPT_URL, url)
        _ = chime_curl_setopt_long(curl, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Waits for the team's connection to say whether it multiplexes, rather than open a second one.
        _ = chime_curl_setopt_long(curl, CURLOPT_PIPEWAIT, 1)
        _ = chime_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "https")
        _ = chime_curl_setopt_string(curl, CURLOPT_PROXY, "")
        _ = chime_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = chime_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = chime_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000))
        if let authorities = configuration.certificateAuthorities { _ = chime_curl_setopt_string(curl, CURLOPT_CAINFO, authorities) }
        _ = chime_curl_setopt_list(curl, CURLOPT_HTTPHEADER, headers)
        _ = chime_curl_setopt_long(curl, CURLOPT_POST, 1)
        _ = chime_curl_setopt_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(notification.payload.count))
        notification.payload.withUnsafeBytes { bytes in
            _ = chime_curl_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
        }
        let buffer = AnswerBuffer()
        let context = Unmanaged.passUnretained(buffer).toOpaque()
        _ = chime_curl_setopt_write(curl, keepBody)
        _ = chime_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, context)
        _ = chime_curl_setopt_header(curl, keepHeader)
        _ = chime_curl_setopt_pointer(curl, CURLOPT_HEADERDATA, context)
        let (code, status) = await withCheckedContinuation { (continuation: CheckedContinuation<(CURLcode, Int), Never>) in
            loop.submit(
                CurlLoop.Transfer(
                    easy: CurlLoop.Pointer(raw: curl), headers: headers.map { CurlLoop.Pointer(raw: UnsafeMutableRawPointer($0)) },
                    completion: { code, status in
                        // The buffer lives until the transfer ends: libcurl writes into it until then.
                        withExtendedLifetime(buffer) { continuation.resume(returning: (code, status)) }
                    }))
        }
        guard code == CURLE_OK else { throw .noAnswer(String(cString: curl_easy_strerror(code))) }
        return buffer.answer(status: status)
    }
}

/// What a transfer keeps of APNs' answer: the `apns-id` header and the body (a small JSON object).
private final class AnswerBuffer: @unchecked Sendable {  // written only by the loop's thread while its transfer runs
    var apnsID: String?
    var body: [UInt8] = []

    static let maximumBody = 16 << 10

    func answer(status: Int) -> APNsAnswer {
        APNsAnswer(status: status, apnsID: apnsID, body: body)
    }
}

private let keepBody: chime_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let length = size * count
    let buffer = Unmanaged<AnswerBuffer>.fromOpaque(context).takeUnretainedValue()
    guard buffer.body.count + length <= AnswerBuffer.maximumBody else { return 0 }  // ends the transfer: no answer is this long
    data.withMemoryRebound(to: UInt8.self, capacity: length) { buffer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}

private let keepHeader: chime_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let length = size * count
    // Only `apns-id:` is kept; every other line is passed over without making a string of it.
    let name = Array("apns-id:".utf8)
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    guard length > name.count, zip(bytes, name).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return length }
    let value = String(decoding: bytes[name.count...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    Unmanaged<AnswerBuffer>.fromOpaque(context).takeUnretainedValue().apnsID = value
    return length
}
