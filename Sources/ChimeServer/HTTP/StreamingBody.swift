import CMHD
import Glibc
import Synchronization

/// A response body that stays open (Server-Sent Events): the server writes bytes whenever it has some, the
/// connection sends them as fast as the peer reads, and nothing ever waits for the peer.
///
/// Bounded: at most `capacity` bytes wait. A write that would pass that bound means the peer does not keep
/// up; the stream is then closed at once (its waiting bytes dropped, its socket shut down), so a slow or
/// stopped reader costs the server at most `capacity` bytes and never holds back a writer. Closing is
/// reported once through `onClose`, whoever closed it (the peer left, the server finished or dropped it).
///
/// Threading: `write`, `finish` and `close` may be called from any thread. The connection side (`read`,
/// `released`) runs on libmicrohttpd's thread; when nothing is waiting it suspends the connection, and a
/// write resumes it, so an idle stream costs no polling.
public final class StreamingBody: Sendable {
    public enum WriteResult: Sendable, Hashable {
        case written
        /// The peer did not keep up: the stream was closed.
        case overflow
        /// The stream was already closed.
        case closed
    }

    /// The connection's handle and socket, kept only while the connection uses this body.
    struct Connection: @unchecked Sendable {  // an opaque MHD handle, used only under `state`'s lock
        let handle: OpaquePointer
        let socket: Int32
    }

    private struct State {
        var waiting: [UInt8] = []
        var readOffset = 0
        var finishing = false
        var closed = false
        var suspended = false
        var connection: Connection?
        /// The hangup watcher's token for the connection's socket.
        var watch: UInt64?
        var onClose: (@Sendable () -> Void)?
    }

    public let capacity: Int
    private let state: Mutex<State>

    public init(capacity: Int, onClose: (@Sendable () -> Void)? = nil) {
        self.capacity = capacity
        state = Mutex(State(onClose: onClose))
    }

    /// Bytes waiting to be sent.
    public var waitingCount: Int { state.withLock { $0.waiting.count - $0.readOffset } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Queues `bytes`; closes the stream instead when they would not fit.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> WriteResult {
        let (result, closeHandler) = state.withLock { state -> (WriteResult, (@Sendable () -> Void)?) in
            guard !state.closed, !state.finishing else { return (.closed, nil) }
            guard state.waiting.count - state.readOffset + bytes.count <= capacity else {
                return (.overflow, Self.closeLocked(&state))
            }
            state.waiting.append(contentsOf: bytes)
            Self.resumeLocked(&state)
            return (.written, nil)
        }
        closeHandler?()
        return result
    }

    /// Ends the stream once what waits has been sent.
    public func finish() {
        state.withLock { state in
            state.finishing = true
            Self.resumeLocked(&state)
        }
    }

    /// Closes the stream now: what waits is dropped and the connection ends.
    public func close() {
        let handler = state.withLock { Self.closeLocked(&$0) }
        handler?()
    }

    private static func closeLocked(_ state: inout State) -> (@Sendable () -> Void)? {
        guard !state.closed else { return nil }
        state.closed = true
        state.waiting = []
        state.readOffset = 0
        if let connection = state.connection {
            if state.suspended {
                Self.resumeLocked(&state)  // the reader then ends the stream
            } else {
                // The connection may be blocked writing to a peer that does not read: shutting the socket
                // down makes that write fail, and libmicrohttpd closes the connection. The socket is still
                // open here: libmicrohttpd releases the body before it closes the socket.
                shutdown(connection.socket, Int32(SHUT_RDWR))
            }
        }
        defer { state.onClose = nil }
        return state.onClose
    }

    private static func resumeLocked(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        state.suspended = false
        MHD_resume_connection(connection.handle)
    }

    // MARK: The connection's side

    /// The connection took this body: from now on an empty stream suspends it, and the stream closes as
    /// soon as the peer hangs up (`HangupWatcher`).
    func attach(to connection: Connection) {
        let watch = HangupWatcher.shared.watch(connection.socket, for: self)
        state.withLock { state in
            state.connection = connection
            state.watch = watch
        }
    }

    /// Copies waiting bytes into `buffer`; 0 after suspending the connection when none wait; -1 at the end.
    func read(into buffer: UnsafeMutablePointer<CChar>, maximum: Int) -> Int {
        state.withLock { state -> Int in
            if state.closed { return -1 }
            let available = state.waiting.count - state.readOffset
            if available == 0 {
                if state.finishing { return -1 }
                if let connection = state.connection {
                    state.suspended = true
                    MHD_suspend_connection(connection.handle)
                }
                return 0
            }
            let count = min(available, maximum)
            state.waiting.withUnsafeBufferPointer { waiting in
                UnsafeMutableRawPointer(buffer).copyMemory(from: waiting.baseAddress! + state.readOffset, byteCount: count)
            }
            state.readOffset += count
            if state.readOffset == state.waiting.count {
                state.waiting.removeAll(keepingCapacity: state.waiting.count <= 64 << 10)
                state.readOffset = 0
            } else if state.readOffset >= 64 << 10 {
                state.waiting.removeFirst(state.readOffset)
                state.readOffset = 0
            }
            return count
        }
    }

    /// The connection is done with this body (the peer left, or the stream ended); its socket is still open.
    func released() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            if let watch = state.watch, let connection = state.connection { HangupWatcher.shared.stop(watch, socket: connection.socket) }
            state.watch = nil
            state.connection = nil
            state.suspended = false
            state.closed = true
            state.waiting = []
            defer { state.onClose = nil }
            return state.onClose
        }
        handler?()
    }
}
