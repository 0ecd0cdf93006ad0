import Foundation
import Glibc
import Synchronization

/// A bound, listening socket for `HTTPServer`: a Unix socket at a path (chimed's local API, as Docker's and
/// Podman's), or TCP on an address (loopback for pages). Closed when it goes away, unless a server took it.
public final class ListeningSocket: Sendable {
    public let descriptor: Int32
    public let isUnix: Bool
    /// `unix:/path` or `host:port` (with the port the kernel chose when asked for 0).
    public let address: String
    private let owned = Atomic(true)

    private init(descriptor: Int32, isUnix: Bool, address: String) {
        self.descriptor = descriptor
        self.isUnix = isUnix
        self.address = address
    }

    deinit {
        if owned.load(ordering: .acquiring) { close(descriptor) }
    }

    /// A server took the socket: it closes it.
    func handOver() {
        owned.store(false, ordering: .releasing)
    }

    /// Binds a Unix socket at `path` (which must not exist), readable and writable by its owner only.
    public static func unix(path: String, backlog: Int32 = 512) throws(ListeningSocketError) -> ListeningSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw ListeningSocketError("the socket path \(path) is longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            buffer[bytes.count] = 0
        }
        let descriptor = try makeSocket(domain: AF_UNIX)
        // The socket file gets mode 0600 from the start: no moment where another user could connect.
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        return try listening(descriptor, bound: bound, backlog: backlog, isUnix: true, address: "unix:\(path)")
    }

    /// Binds TCP on an IPv4 `host` (`127.0.0.1` by default) and `port` (0: any free port).
    public static func tcp(host: String, port: UInt16, backlog: Int32 = 512) throws(ListeningSocketError) -> ListeningSocket {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw ListeningSocketError("\(host) is not an IPv4 address") }
        let descriptor = try makeSocket(domain: AF_INET)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return try listening(descriptor, bound: bound, backlog: backlog, isUnix: false, address: "\(host):\(UInt16(bigEndian: actual.sin_port))")
    }

    /// The TCP port, for a TCP socket.
    public var port: UInt16? {
        guard !isUnix, let text = address.split(separator: ":").last else { return nil }
        return UInt16(text)
    }

    private static func makeSocket(domain: Int32) throws(ListeningSocketError) -> Int32 {
        // Non-blocking: several server threads accept on it, and one must not block when another took the
        // connection.
        let descriptor = socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw ListeningSocketError("cannot create a socket: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    private static func listening(_ descriptor: Int32, bound: Int32, backlog: Int32, isUnix: Bool, address: String) throws(ListeningSocketError)
        -> ListeningSocket
    {
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ListeningSocketError("cannot listen on \(address): \(reason)")
        }
        return ListeningSocket(descriptor: descriptor, isUnix: isUnix, address: address)
    }
}

public struct ListeningSocketError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
