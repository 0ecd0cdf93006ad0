import ChimeIPC
import Foundation
import Synchronization

/// One client's connection: a reader thread that splits lines and hands them on, and writes serialised
/// by a lock (each message is one line, written whole).
///
/// What the connection says about itself (authenticated, its app, subscribed) is kept by `Daemon`.
final class ClientConnection: Sendable {
    let id: Int
    let socket: UnixSocket
    private let writeLock = Mutex(false)  // true once closed

    init(id: Int, socket: UnixSocket) {
        self.id = id
        self.socket = socket
    }

    /// Starts reading on a thread of its own; `received` gets each line (or `.tooLong`) in order, and
    /// `ended` once the peer closed or `close()` was called.
    func start(received: @escaping @Sendable (LineSplitter.Item) -> Void, ended: @escaping @Sendable () -> Void) {
        let socket = socket
        let thread = Thread {
            var splitter = LineSplitter()
            while true {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                for item in splitter.append(bytes) { received(item) }
            }
            ended()
        }
        thread.name = "chimed.connection.\(id)"
        thread.start()
    }

    /// Sends one message; false when the connection is closed.
    @discardableResult
    func send(_ message: some Encodable) -> Bool {
        guard let line = try? WireFormat.line(message) else { return false }
        return writeLock.withLock { closed in
            guard !closed else { return false }
            return socket.write(line)
        }
    }

    /// Closes the connection; the reader thread ends and calls `ended`.
    func close() {
        writeLock.withLock { closed in
            guard !closed else { return }
            closed = true
            socket.shutdown()
        }
    }

    /// Releases the descriptor, once the reader has ended.
    func release() {
        close()
        socket.close()
    }
}

/// Accepts connections on the daemon's socket, on a thread of its own, until `stop()`.
final class SocketListener: Sendable {
    let socket: UnixSocket
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(path: String) throws {
        socket = try UnixSocket.listen(at: path)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DaemonError("cannot create a pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // not for apps the daemon launches
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    func start(accepted: @escaping @Sendable (UnixSocket) -> Void, stopped: @escaping @Sendable () -> Void) {
        let (socket, wake) = (socket, wakeRead)
        let thread = Thread {
            while let client = socket.accept(orWakeOn: wake) { accepted(client) }
            stopped()
        }
        thread.name = "chimed.accept"
        thread.start()
    }

    func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    func release() {
        socket.close()
        close(wakeRead)
        close(wakeWrite)
    }
}
