import CMHD
public import ChimeEngine
import Foundation
import Synchronization

/// What answers the requests of an `HTTPServer`.
///
/// The server calls these on libmicrohttpd's threads, which serve every connection: the synchronous ones
/// must return at once (no waiting on locks held long, no I/O), and anything that waits goes into
/// `respond(to:)`, which runs in a task while the connection is suspended.
public protocol HTTPHandler: Sendable {
    /// The request's line and headers arrived and no body has been read: a refusal here (authentication,
    /// a body that is declared too large) is the answer, and the body is never read.
    func screen(_ head: HTTPRequestHead) -> HTTPScreening
    /// The answer to a body larger than `limit` bytes.
    func tooLarge(_ head: HTTPRequestHead, limit: Int) -> HTTPResponse
    /// The answer while the server stops.
    func unavailable(_ head: HTTPRequestHead) -> HTTPResponse
    /// An answer that needs no waiting (a cached document), or `nil` to go through `respond(to:)`.
    func answerAtOnce(_ request: HTTPRequest) -> HTTPResponse?
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// What `HTTPHandler.screen` decided about a request.
public enum HTTPScreening: Sendable {
    /// Answer with this at once; the body is never read.
    case refuse(HTTPResponse)
    /// Read the body and go on. `context` (what the handler learnt from the head, such as the route) comes
    /// back with the request as `HTTPRequest.context`, so it is worked out once.
    case admit(context: (any Sendable)?)
}

/// An HTTP/1.1 server on one listening socket, on libmicrohttpd (https://www.gnu.org/software/libmicrohttpd/).
///
/// libmicrohttpd runs a few threads that each watch many connections with epoll, so a connection costs a
/// file descriptor and a small memory pool, not a thread. A request is read on those threads; a handler
/// that must wait (the store, the engine) runs in a task while its connection is suspended, and the answer
/// is queued when the task resumes it — so no connection, however slow, holds a thread, and a peer that
/// stops reading only fills its own socket. The options bound everything a peer can make the server hold:
/// connections (`connectionLimit`; at the limit new ones are closed at once, and when the process runs out
/// of file descriptors libmicrohttpd stops accepting until one closes, then goes on), an idle timeout, a
/// memory pool per connection for the request line and headers, and `maximumBodySize` for bodies.
///
/// The listening socket is made by the caller (`ListeningSocket`), so the same server serves a Unix
/// socket or loopback TCP; the server closes it when it stops.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        /// Connections served at once; further ones are closed when accepted.
        public var connectionLimit = 4096
        /// Seconds a connection may stay idle (nothing read or written) before it is closed. Event
        /// streams send a heartbeat more often than this.
        public var idleTimeout = 60
        /// Bytes each connection may use for its request line, headers and read buffer.
        public var connectionMemoryLimit = 64 << 10
        /// Threads that serve the connections.
        public var threads = 2
        /// The largest request body read; a larger one is answered with `HTTPHandler.tooLarge`.
        public var maximumBodySize = 1 << 20

        public init() {}
    }

    let handler: any HTTPHandler
    let configuration: Configuration
    let peerKind: PeerKind
    let log: any EngineLog
    /// libmicrohttpd's daemon handle; set once in `init`, read by `stop()`.
    private let daemon: Mutex<DaemonHandle?>
    /// Requests whose handler task runs, and whether the server stops.
    private let flight = Mutex(Flight())

    /// The requests whose handler runs (their connections suspended), and who waits for them to end.
    private struct Flight {
        var running: [Int: (exchange: HTTPExchange, connection: SuspendedConnection)] = [:]
        var next = 0
        var stopping = false
        var graceOver = false
        var drained: [CheckedContinuation<Void, Never>] = []
    }
    private let libraryMessages = Mutex<[String: ContinuousClock.Instant]>([:])

    enum PeerKind: Sendable { case unix, tcp }

    struct DaemonHandle: @unchecked Sendable {  // libmicrohttpd's daemon is thread-safe for the calls made on it
        let pointer: OpaquePointer
    }

    /// Starts serving on `listeningSocket` (already bound and listening).
    ///
    /// - Throws: `HTTPServerError` when libmicrohttpd cannot start (the socket is not a listening socket,
    ///   threads cannot be created).
    public init(listening socket: ListeningSocket, configuration: Configuration, handler: any HTTPHandler, log: any EngineLog) throws {
        self.handler = handler
        self.configuration = configuration
        self.log = log
        peerKind = socket.isUnix ? .unix : .tcp
        daemon = Mutex(nil)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let options: [any CVarArg] = [
            // First, so that libmicrohttpd reports everything after it here.
            MHD_OPTION.EXTERNAL_LOGGER.rawValue, unsafeBitCast(libraryLog, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.LISTEN_SOCKET.rawValue, socket.descriptor,
            MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(max(1, configuration.threads)),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(max(1, configuration.connectionLimit)),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(max(1, configuration.idleTimeout)),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, max(8 << 10, configuration.connectionMemoryLimit),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompleted, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.UNESCAPE_CALLBACK.rawValue, unsafeBitCast(keepEscaped, to: OpaquePointer.self), Int(0),
            MHD_OPTION.END.rawValue,
        ]
        let started = withVaList(options) { arguments in
            MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, context, arguments)
        }
        guard let started else {
            throw HTTPServerError(description: "libmicrohttpd could not start on socket \(socket.descriptor)")
        }
        socket.handOver()
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
    }

    /// Stops accepting, answers requests still arriving with `HTTPHandler.unavailable`, waits for the
    /// handlers that run (at most `grace`), then closes every connection and the listening socket.
    /// Event streams must have been closed first (their connections are suspended).
    public func stop(grace: Duration = .seconds(5)) async {
        guard let handle = daemon.withLock({ $0 }) else { return }
        let listening = MHD_quiesce_daemon(handle.pointer)
        // Wait for the handlers that run, or the grace period, whichever ends first. (A task group would
        // wait for the waiting child even after the grace: a continuation does not end on cancellation.)
        let timer = Task {
            try? await Task.sleep(for: grace)
            self.releaseDrainWaiters()
        }
        await withCheckedContinuation { continuation in
            let drained = flight.withLock { flight -> Bool in
                flight.stopping = true
                if flight.running.isEmpty || flight.graceOver { return true }
                flight.drained.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
        timer.cancel()
        // Requests still running past the grace period (a question the user has not answered) are answered
        // `unavailable` now — libmicrohttpd cannot stop with suspended connections — and their handlers,
        // when they end, find no connection to resume.
        let late = daemon.withLock { daemon in
            daemon = nil
            return flight.withLock { flight in
                defer { flight.drained = [] }
                for (exchange, connection) in flight.running.values {
                    exchange.setResponse(handler.unavailable(exchange.head))
                    MHD_resume_connection(connection.pointer)
                }
                flight.running = [:]
                return flight.drained
            }
        }
        for waiter in late { waiter.resume() }
        MHD_stop_daemon(handle.pointer)
        if listening >= 0 { close(listening) }
    }

    private func releaseDrainWaiters() {
        let waiters = flight.withLock { flight in
            flight.graceOver = true
            defer { flight.drained = [] }
            return flight.drained
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Requests (on libmicrohttpd's threads)

    func handle(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = context.pointee else {
            let head = HTTPRequestHead(
                method: String(cString: method), path: String(cString: url), query: Self.query(of: connection), headers: Self.headers(of: connection),
                peer: peer(of: connection))
            let exchange = HTTPExchange(head: head)
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            switch handler.screen(head) {
            case .refuse(let refusal): return queue(refusal, on: connection)
            case .admit(let handlerContext): exchange.context = handlerContext
            }
            if let length = head.contentLength, length > configuration.maximumBodySize {
                return queue(handler.tooLarge(head, limit: configuration.maximumBodySize), on: connection)
            }
            return .YES
        }
        let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload { exchange.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee), limit: configuration.maximumBodySize) }
            uploadSize.pointee = 0
            return .YES
        }
        if let response = exchange.takeResponse() { return queue(response, on: connection) }
        guard exchange.startHandling() else { return .YES }
        if exchange.isTooLarge { return queue(handler.tooLarge(exchange.head, limit: configuration.maximumBodySize), on: connection) }
        let request = exchange.request
        if let response = handler.answerAtOnce(request) { return queue(response, on: connection) }
        let suspended = SuspendedConnection(pointer: connection)
        let number = flight.withLock { flight -> Int? in
            guard !flight.stopping else { return nil }
            flight.next += 1
            flight.running[flight.next] = (exchange, suspended)
            return flight.next
        }
        guard let number else { return queue(handler.unavailable(request.head), on: connection) }
        MHD_suspend_connection(connection)
        Task {
            let response = await self.handler.respond(to: request)
            self.finished(number, with: response)
        }
        return .YES
    }

    /// A handler finished: its answer goes out when its connection resumes (unless the server stopped and
    /// answered for it), and `stop()` wakes when it was the last.
    private func finished(_ number: Int, with response: HTTPResponse) {
        let waiters = daemon.withLock { handle -> [CheckedContinuation<Void, Never>] in
            flight.withLock { flight in
                guard let (exchange, connection) = flight.running.removeValue(forKey: number) else { return [] }
                exchange.setResponse(response)
                if handle != nil { MHD_resume_connection(connection.pointer) }
                guard flight.running.isEmpty else { return [] }
                defer { flight.drained = [] }
                return flight.drained
            }
        }
        for waiter in waiters { waiter.resume() }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            stream.attach(to: StreamingBody.Connection(handle: connection, socket: chime_connection_fd(connection)))
            let retained = Unmanaged.passRetained(stream).toOpaque()
            made = MHD_create_response_from_callback(UInt64.max, 32 << 10, readStream, retained, releaseStream)
            if made == nil { Unmanaged<StreamingBody>.fromOpaque(retained).release() }
        case .file(let file):
            guard let descriptor = file.take() else { return .NO }
            // libmicrohttpd owns the descriptor once it made the response, and closes it when done.
            made = MHD_create_response_from_fd64(file.size, descriptor)
            if made == nil { close(descriptor) }
        }
        guard let made else { return .NO }
        for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    /// A message of libmicrohttpd's own. The same message (a full process table, say) can come thousands of
    /// times a second under attack, so each distinct one is logged at most once a minute.
    func libraryReported(_ message: String) {
        let now = ContinuousClock.now
        let due = libraryMessages.withLock { logged -> Bool in
            if let last = logged[message], now - last < .seconds(60) { return false }
            if logged.count > 64 { logged.removeAll() }
            logged[message] = now
            return true
        }
        if due { log.warning("http: \(message)") }
    }

    private func peer(of connection: OpaquePointer) -> HTTPPeer {
        switch peerKind {
        case .tcp: return .tcp
        case .unix:
            var uid: uid_t = 0
            var pid: pid_t = 0
            let socket = chime_connection_fd(connection)
            guard socket >= 0, chime_peer_credentials(socket, &pid, &uid) == 0 else { return .unix(uid: nil, pid: nil) }
            return .unix(uid: uid, pid: pid)
        }
    }

    private static func headers(of connection: OpaquePointer) -> [String: String] {
        var headers = HeaderCollector()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, pointer)
        }
        return headers.values
    }

    private static func query(of connection: OpaquePointer) -> [(name: String, value: String)] {
        var query = QueryCollector()
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectQueryArgument, pointer)
        }
        return query.arguments
    }
}

public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// A connection suspended while its handler runs.
struct SuspendedConnection: @unchecked Sendable {  // resumed once, through the server's lock on the daemon
    let pointer: OpaquePointer
}

/// One request's state across libmicrohttpd's calls: the head, the body as it arrives, and the answer a
/// handler task leaves for the call that follows the connection's resumption.
final class HTTPExchange: Sendable {
    let head: HTTPRequestHead
    /// The handler's context from `screen`: set on the first call for the request, before anything else
    /// reads it, on the same thread.
    nonisolated(unsafe) var context: (any Sendable)?
    private let state = Mutex((body: [UInt8](), tooLarge: false, handling: false, response: HTTPResponse?.none))

    init(head: HTTPRequestHead) {
        self.head = head
    }

    func append(_ bytes: UnsafeRawBufferPointer, limit: Int) {
        state.withLock { state in
            guard !state.tooLarge else { return }
            guard state.body.count + bytes.count <= limit else {
                state.tooLarge = true
                state.body = []
                return
            }
            state.body.append(contentsOf: bytes)
        }
    }

    var isTooLarge: Bool { state.withLock { $0.tooLarge } }

    var request: HTTPRequest { HTTPRequest(head: head, body: state.withLock { $0.body }, context: context) }

    /// True the first time: the request is complete and goes to the handler.
    func startHandling() -> Bool {
        state.withLock { state in
            defer { state.handling = true }
            return !state.handling
        }
    }

    func setResponse(_ response: HTTPResponse) {
        state.withLock { $0.response = response }
    }

    func takeResponse() -> HTTPResponse? {
        state.withLock { state in
            defer { state.response = nil }
            return state.response
        }
    }
}

struct HeaderCollector {
    var values: [String: String] = [:]
}

struct QueryCollector {
    var arguments: [(name: String, value: String)] = []
}
