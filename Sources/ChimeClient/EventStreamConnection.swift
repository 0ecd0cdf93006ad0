import CCurl
import ChimeCurl
import ChimeAPI
import Foundation
import Synchronization

/// One Server-Sent Events stream from chimed, on a thread of its own with a libcurl multi handle, so
/// `close()` ends it at once (`curl_multi_wakeup`) rather than at the next poll.
///
/// `open` returns once the daemon accepted the stream (its 200 and headers arrived), so whatever the daemon
/// does on opening (the app counts as connected; queued responses are on their way) has happened; it
/// throws the daemon's error when it refused. Events go to `onEvent` in order; `onEnd` is called once when
/// the stream ends (closed, the daemon gone, or silent for 45 s although it sends a heartbeat every 15 s).
final class EventStreamConnection: Sendable {
    private struct Control {
        var multi: MultiHandle?
        var closing = false
    }

    private struct MultiHandle: @unchecked Sendable {  // only `curl_multi_wakeup` is called on it off its thread
        let pointer: UnsafeMutableRawPointer
    }

    /// The multi handle while the stream runs: other threads only call `curl_multi_wakeup` on it, which
    /// libcurl allows from any thread.
    private let control = Mutex(Control())

    private init() {}

    static func open(
        endpoint: HTTPEndpoint, token: String, appHeader: String?, path: String, query: [(String, String)], lastEventID: String?,
        onEvent: @escaping @Sendable (ServerSentEvent) -> Void, onEnd: @escaping @Sendable () -> Void
    ) async throws -> EventStreamConnection {
        let connection = EventStreamConnection()
        let opened: Result<Void, any Error> = await withCheckedContinuation { continuation in
            let state = StreamState(onOpened: { continuation.resume(returning: $0) }, onEvent: onEvent)
            let thread = Thread {
                connection.run(state, endpoint: endpoint, url: endpoint.url(path, query: query), token: token, appHeader: appHeader, lastEventID: lastEventID)
                onEnd()
            }
            thread.name = "chime.client.events"
            thread.start()
        }
        try opened.get()
        return connection
    }

    /// Ends the stream; `onEnd` follows.
    func close() {
        control.withLock { control in
            control.closing = true
            if let multi = control.multi { _ = curl_multi_wakeup(multi.pointer) }
        }
    }

    private func run(_ state: StreamState, endpoint: HTTPEndpoint, url: String, token: String, appHeader: String?, lastEventID: String?) {
        guard let multi = curl_multi_init(), let easy = curl_easy_init() else {
            state.finish(APIError(.notConnected, "libcurl could not start a transfer"))
            return
        }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Authorization: Bearer \(token)")
        headers = curl_slist_append(headers, "Accept: text/event-stream")
        if let appHeader { headers = curl_slist_append(headers, appHeader) }
        if let lastEventID { headers = curl_slist_append(headers, "Last-Event-ID: \(lastEventID)") }
        let context = Unmanaged.passUnretained(state).toOpaque()
        if let socketPath = endpoint.socketPath { _ = chime_curl_setopt_string(easy, CURLOPT_UNIX_SOCKET_PATH, socketPath) }
        _ = chime_curl_setopt_string(easy, CURLOPT_URL, url)
        _ = chime_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = chime_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, 5_000)
        _ = chime_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = chime_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, 45)
        _ = chime_curl_setopt_list(easy, CURLOPT_HTTPHEADER, headers)
        _ = chime_curl_setopt_write(easy, streamBytes)
        _ = chime_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = chime_curl_setopt_header(easy, streamHeader)
        _ = chime_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = curl_multi_add_handle(multi, easy)
        let handle = MultiHandle(pointer: multi)
        control.withLock { $0.multi = handle }

        var result = CURLE_OK
        while true {
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
            }
            if running == 0 || control.withLock({ $0.closing }) { break }
            _ = curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
        control.withLock { $0.multi = nil }
        var status = 0
        _ = chime_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        _ = curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        _ = curl_multi_cleanup(multi)
        curl_slist_free_all(headers)
        if status != 0 && status != 200 {
            state.finish(DaemonClient.error(status: status, body: state.errorBody))
        } else {
            state.finish(HTTPTransport.transportError(result == CURLE_OK ? CURLE_COULDNT_CONNECT : result, endpoint: endpoint, timeout: nil))
        }
    }
}

/// The stream's parser and what it reports; touched only by the stream's thread.
final class StreamState: @unchecked Sendable {  // confined to the stream's thread (libcurl's callbacks run there)
    private var onOpened: ((Result<Void, any Error>) -> Void)?
    private let onEvent: @Sendable (ServerSentEvent) -> Void
    private var parser = ServerSentEventParser()
    private var status = 0
    var errorBody: [UInt8] = []

    init(onOpened: @escaping (Result<Void, any Error>) -> Void, onEvent: @escaping @Sendable (ServerSentEvent) -> Void) {
        self.onOpened = onOpened
        self.onEvent = onEvent
    }

    /// A header line; the blank one ends the headers.
    func header(_ line: String) {
        if line.hasPrefix("HTTP/") {
            status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        } else if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, status == 200 {
            onOpened?(.success(()))
            onOpened = nil
        }
    }

    /// Body bytes; false to abort (an oversized event, a huge error body).
    func body(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard status == 200 else {
            errorBody.append(contentsOf: bytes)
            return errorBody.count < 1 << 20
        }
        do {
            for event in try parser.append(bytes) { onEvent(event) }
            return true
        } catch {
            return false
        }
    }

    /// The stream ended: a stream that never opened reports why.
    func finish(_ error: any Error) {
        onOpened?(.failure(error))
        onOpened = nil
    }
}

let streamBytes: chime_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let length = size * count
    let accepted = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        Unmanaged<StreamState>.fromOpaque(context).takeUnretainedValue().body(UnsafeBufferPointer(start: $0, count: length))
    }
    return accepted ? length : 0
}

let streamHeader: chime_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
    Unmanaged<StreamState>.fromOpaque(context).takeUnretainedValue().header(line)
    return length
}
