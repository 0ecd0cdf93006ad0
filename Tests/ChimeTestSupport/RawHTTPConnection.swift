import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw connection to a server, for writing exactly the bytes a hostile or broken client would: no
/// client library in between. Reads answers with a deadline, so a server that hangs fails the test
/// instead of hanging it.
public final class RawHTTPConnection: @unchecked Sendable {  // used by one test task at a time
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]
        /// Every header line in order, repeated names too (`Set-Cookie`); names in lower case.
        public var headerLines: [(name: String, value: String)] = []
        public var text: String { String(decoding: body, as: UTF8.self) }

        public func values(of name: String) -> [String] { headerLines.filter { $0.name == name }.map(\.value) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to a Unix socket.
    public init(unixPath: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path(unixPath).enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "connect \(unixPath): \(reason)")
        }
    }

    /// Connects to TCP on 127.0.0.1.
    public init(loopbackPort port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "connect 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit {
        close(descriptor)
    }

    private func path(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    /// Writes all of `bytes`; false when the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// A request with `Authorization: Bearer token` (when given), a JSON body (when given), keep-alive.
    @discardableResult
    public func request(_ method: String, _ path: String, token: String?, body: String? = nil, host: String = "localhost", extraHeaders: [String] = [])
        -> Bool
    {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for header in extraHeaders { head += header + "\r\n" }
        let bytes = Array((body ?? "").utf8)
        if body != nil { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(bytes.count)\r\n\r\n"
        return send(Array(head.utf8) + bytes)
    }

    /// Reads one answer (status, headers, a `Content-Length` or chunked body), within `seconds`.
    public func answer(within seconds: Double = 10) throws -> Answer {
        let deadline = Date().addingTimeInterval(seconds)
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = find([13, 10, 13, 10])
            if headerEnd == nil { try fill(until: deadline) }
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        buffer.removeFirst(headerEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        var headerLines: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
            headerLines.append((name, value))
        }
        var body: [UInt8] = []
        if let length = headers["content-length"].flatMap(Int.init) {
            while buffer.count < length { try fill(until: deadline) }
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                var lineEnd = find([13, 10])
                while lineEnd == nil {
                    try fill(until: deadline)
                    lineEnd = find([13, 10])
                }
                let size = Int(String(decoding: buffer[..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
                buffer.removeFirst(lineEnd! + 2)
                while buffer.count < size + 2 { try fill(until: deadline) }
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        }
        return Answer(status: status, headers: headers, body: body, headerLines: headerLines)
    }

    /// Reads whatever arrives within `seconds` (an event stream's first bytes, say).
    public func read(for seconds: Double) -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        while (try? fill(until: deadline)) != nil {}
        defer { buffer = [] }
        return buffer
    }

    /// True when the server closed the connection (reads end) within `seconds`.
    public func isClosed(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                try fill(until: deadline)
            } catch let failure as Failure {
                return failure.description == "closed"
            } catch {
                return false
            }
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for index in 0...(buffer.count - needle.count) where buffer[index..<index + needle.count].elementsEqual(needle) { return index }
        return nil
    }

    private func fill(until deadline: Date) throws {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw Failure(description: "timed out") }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(min(remaining, 60) * 1000))
        guard ready > 0 else { throw Failure(description: "timed out") }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { throw Failure(description: "closed") }
        buffer += chunk[..<count]
    }
}
