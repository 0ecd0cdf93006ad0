public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix domain stream socket's file descriptor with the few blocking calls the API needs.
///
/// Not thread-safe in general: one thread reads, writers serialise among themselves (callers hold a
/// lock or a serial queue), and `shutdown()` may be called from any thread to wake a blocked reader.
/// The descriptor closes on `close()` only.
public struct UnixSocket: Sendable, Hashable {
    public let fileDescriptor: Int32

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Connects to the socket at `path`; throws `IPCError.notConnected` with the reason.
    public static func connect(to path: String) throws(IPCError) -> UnixSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw IPCError(.notConnected, "cannot create a socket: \(String(cString: strerror(errno)))") }
        var address = try socketAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw IPCError(.notConnected, "no daemon answers on \(path): \(reason)")
        }
        return UnixSocket(fileDescriptor: fd)
    }

    /// Binds and listens at `path`, which must not exist.
    public static func listen(at path: String) throws(IPCError) -> UnixSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw IPCError(.internalError, "cannot create a socket: \(String(cString: strerror(errno)))") }
        var address = try socketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw IPCError(.internalError, "cannot listen on \(path): \(reason)")
        }
        return UnixSocket(fileDescriptor: fd)
    }

    private static func socketAddress(_ path: String) throws(IPCError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw IPCError(.internalError, "the socket path is longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            buffer[bytes.count] = 0
        }
        return address
    }

    /// Waits for a connection or for `wake` to become readable; `nil` when woken or on error.
    public func accept(orWakeOn wake: Int32) -> UnixSocket? {
        while true {
            var fds = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return nil }
            let client = Glibc.accept(fileDescriptor, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return UnixSocket(fileDescriptor: client)
            }
            if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
            return nil
        }
    }

    /// Reads what is there (blocking until something is); empty at the end of the stream or on error.
    public func read(max: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max)
        while true {
            let count = Glibc.read(fileDescriptor, &buffer, max)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return [] }
            return Array(buffer[0..<count])
        }
    }

    /// Writes all of `data`; false when the peer is gone.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let written = send(fileDescriptor, pointer, remaining, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                pointer += written
                remaining -= written
            }
            return true
        }
    }

    /// Wakes a thread blocked reading and refuses further writes; the descriptor stays open.
    public func shutdown() {
        _ = Glibc.shutdown(fileDescriptor, Int32(SHUT_RDWR))
    }

    public func close() {
        _ = Glibc.close(fileDescriptor)
    }
}

/// Splits a byte stream into lines of at most `maximumLength` bytes (newline excluded).
///
/// A longer line is reported once as `.tooLong` and its bytes are dropped up to its newline, so the
/// stream stays in step and the next line reads normally.
public struct LineSplitter: Sendable {
    public enum Item: Sendable, Hashable {
        case line(Data)
        case tooLong
    }

    public let maximumLength: Int
    private var partial: [UInt8] = []
    private var discarding = false

    public init(maximumLength: Int = WireFormat.maximumLineLength) {
        self.maximumLength = maximumLength
    }

    public mutating func append(_ bytes: [UInt8]) -> [Item] {
        var items: [Item] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            let piece = bytes[start..<index]
            if discarding {
                discarding = false
            } else if partial.count + piece.count > maximumLength {
                items.append(.tooLong)
            } else {
                items.append(.line(Data(partial + piece)))
            }
            partial = []
            start = index + 1
        }
        if !discarding {
            partial.append(contentsOf: bytes[start...])
            if partial.count > maximumLength {
                items.append(.tooLong)
                partial = []
                discarding = true
            }
        }
        return items
    }
}
