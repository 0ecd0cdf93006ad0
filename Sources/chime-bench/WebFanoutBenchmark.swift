import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Fire to page: open web-center pages following `GET /v1/events` on chimed's loopback listener with the
/// page's session cookie, while notifications fall due; from each one's due instant to its `delivered`
/// event arriving at every page, beside the same run's fire to presenter (chimed's log presenter line,
/// millisecond timestamps) and fire to one stream on the Unix socket (the same events without the
/// pages); then chimed's memory with many pages open.
///
/// The pages are EventSource clients at the protocol level (a raw SSE reader each, as a browser's
/// EventSource speaks it), not browsers: a hundred headless Chromium tabs would measure Chromium.
struct WebFanoutBenchmark {
    var chimed: String
    var pages = 100
    var notifications = 1000
    /// Over how long they fall due.
    var spread: TimeInterval = 10
    /// Pages open for the memory reading.
    var manyPages = 1000

    struct Report: Encodable {
        let workload = "web-fanout"
        var pages: Int
        var notifications: Int
        var spreadSeconds: Double
        /// Due instant → the event at each page (`pages × notifications` arrivals).
        var fireToPage: LatencySummary
        /// Due instant → chimed's presenter (its log line; millisecond resolution).
        var fireToPresenter: LatencySummary
        /// Due instant → one stream on the Unix socket, the same events without pages.
        var fireToSingleStream: LatencySummary
        var received: Int
        var memoryIdleMiB: Double
        var memoryWithPagesMiB: Double
        var manyPages: Int
        var memoryWithManyPagesMiB: Double
    }

    func run() async throws -> Report {
        APIFanoutBenchmark.raiseFileLimit()
        let daemon = try DaemonUnderTest(
            executable: chimed, extra: ["--http", "127.0.0.1:0", "--max-connections", String(manyPages + pages + 200)], name: "web", keep: "presented ")
        defer { daemon.stop() }
        guard let address = daemon.httpAddress, let port = UInt16(address.split(separator: ":").last ?? "") else {
            throw BenchmarkFailure("chimed serves no loopback address")
        }
        let memoryIdle = daemon.residentMemory
        let user = try await DaemonClient.connect(socketPath: daemon.socketPath, token: daemon.token, appIdentifier: nil)
        let cookie = try Self.sessionCookie(login: try await user.webLogin().url, port: port)
        let pageRequest = Array(
            "GET /v1/events HTTP/1.1\r\nHost: \(address)\r\nCookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        let pageSockets = try (0..<pages).map { _ in try Self.open(Self.connectTCP(port: port), pageRequest) }
        let streamRequest = Array("GET /v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(daemon.token)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        let single = try Self.open(APIFanoutBenchmark.connect(daemon.socketPath), streamRequest)
        let sockets = pageSockets + [single]
        try APIFanoutBenchmark.readUntil(sockets, contains: Array("text/event-stream".utf8), readers: 4, deadline: .now + .seconds(30))
        try await Task.sleep(for: .milliseconds(500))
        let memoryWithPages = daemon.residentMemory

        // The notifications, due evenly over `spread` seconds from two seconds on.
        let app = try await DaemonClient.connect(socketPath: daemon.socketPath, token: daemon.token, appIdentifier: "com.example.web")
        _ = try await app.requestAuthorization(options: [.alert])
        let readers = SSEReaders(sockets: sockets, expected: notifications)
        let reading = APIFanoutBenchmark.onThread { readers.read(until: .now + .seconds(Int(spread) + 30)) }
        var due: [String: Date] = [:]
        let first = Date().addingTimeInterval(2)
        for batch in stride(from: 0, to: notifications, by: 100) {
            let requests = try (batch..<min(notifications, batch + 100)).map { index in
                let at = first.addingTimeInterval(spread * Double(index) / Double(notifications))
                return try NotificationRequest(
                    identifier: "web-\(index)", content: NotificationContent(title: "Due \(index)"),
                    trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: at.timeIntervalSinceNow, repeats: false)))
            }
            for added in try await app.add(requests) { due[added.identifier] = added.nextFireDate }
        }
        let arrivals = try await reading.value
        let latencies = { (socket: Int) in arrivals[socket].compactMap { id, at in due[id].map { at.timeIntervalSince($0) * 1000 } } }
        let pageLatencies = pageSockets.indices.flatMap(latencies)
        let singleLatencies = latencies(pageSockets.count)
        let presenterLatencies = daemon.keptLines.lines.withLock { $0 }.compactMap { line -> Double? in
            guard let stamp = line.split(separator: " ").first, let logged = Self.logTime(String(stamp)),
                let id = line.range(of: "com.example.web/").map({ line[$0.upperBound...].prefix { $0 != " " } }), let dueAt = due[String(id)]
            else { return nil }
            return logged.timeIntervalSince(dueAt) * 1000
        }

        // Memory with many pages open.
        let more = try (0..<manyPages).map { _ in try Self.open(Self.connectTCP(port: port), pageRequest) }
        try APIFanoutBenchmark.readUntil(more, contains: Array("text/event-stream".utf8), readers: 4, deadline: .now + .seconds(60))
        try await Task.sleep(for: .seconds(1))
        let memoryMany = daemon.residentMemory
        for socket in sockets + more { close(socket) }
        user.close()
        app.close()
        return Report(
            pages: pages, notifications: notifications, spreadSeconds: spread, fireToPage: LatencySummary(pageLatencies),
            fireToPresenter: LatencySummary(presenterLatencies), fireToSingleStream: LatencySummary(singleLatencies),
            received: pageLatencies.count + singleLatencies.count, memoryIdleMiB: memoryIdle.rounded(), memoryWithPagesMiB: memoryWithPages.rounded(),
            manyPages: manyPages, memoryWithManyPagesMiB: memoryMany.rounded())
    }

    /// Opens the one-time link as a browser does and returns its `Cookie` header value.
    static func sessionCookie(login url: String, port: UInt16) throws -> String {
        guard let path = url.range(of: "/login").map({ String(url[$0.lowerBound...]) }) else { throw BenchmarkFailure("no login link: \(url)") }
        let socket = try connectTCP(port: port)
        defer { close(socket) }
        _ = try open(socket, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = recv(socket, &buffer, buffer.count, 0), count > 0 { answer += buffer[..<count] }
        let cookies = String(decoding: answer, as: UTF8.self).split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
            .compactMap { $0.dropFirst("set-cookie:".count).split(separator: ";").first?.trimmingCharacters(in: .whitespaces) }
        guard cookies.contains(where: { $0.hasPrefix("chime_session=") }) else { throw BenchmarkFailure("the login gave no session") }
        return cookies.joined(separator: "; ")
    }

    static func connectTCP(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw BenchmarkFailure("connect: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// Sends `request` on `socket`; returns the socket.
    static func open(_ socket: Int32, _ request: [UInt8]) throws -> Int32 {
        let sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw BenchmarkFailure("send: \(String(cString: strerror(errno)))") }
        return socket
    }

    /// chimed's log time (`2026-12-05T19:03:50.842Z`).
    static func logTime(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true))
    }
}

/// Reads `delivered` events from SSE streams and notes when each notification's arrived on each.
final class SSEReaders: Sendable {
    let sockets: [Int32]
    let expected: Int

    init(sockets: [Int32], expected: Int) {
        self.sockets = sockets
        self.expected = expected
    }

    /// Per socket, the notification identifiers seen and when (wall clock), once every socket has seen
    /// `expected` or `deadline` passed.
    func read(until deadline: ContinuousClock.Instant) -> [[String: Date]] {
        var arrivals = [[String: Date]](repeating: [:], count: sockets.count)
        // Each answer's head was read already (the streams were open before anything fell due).
        var streams = [ChunkedStream](repeating: ChunkedStream(headRead: true), count: sockets.count)
        var buffers = [[UInt8]](repeating: [], count: sockets.count)
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let marker = Array("event: delivered\ndata: ".utf8)
        let identifierKey = Array(#""identifier":""#.utf8)
        while arrivals.contains(where: { $0.count < expected }), ContinuousClock.now < deadline {
            guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
            let now = Date()
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let count = recv(descriptors[index].fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { continue }
                buffers[index] += streams[index].body(from: chunk[..<count])
                // Complete events end in a blank line; the rest waits for more bytes.
                while let end = Self.range(of: [10, 10], in: buffers[index]) {
                    let event = Array(buffers[index][..<end])
                    buffers[index].removeFirst(end + 2)
                    guard let start = Self.range(of: marker, in: event), let key = Self.range(of: identifierKey, in: Array(event[start...])) else { continue }
                    let valueStart = start + key + identifierKey.count
                    let value = event[valueStart...].prefix { $0 != UInt8(ascii: "\"") }
                    arrivals[index][String(decoding: value, as: UTF8.self)] = now
                }
            }
        }
        return arrivals
    }

    /// The body of an HTTP/1.1 answer sent in chunks (as chimed sends its streams), from the bytes as
    /// they come: the head skipped, each chunk's size line and its line break taken out.
    struct ChunkedStream {
        private var raw: [UInt8] = []
        private var inBody: Bool

        init(headRead: Bool) {
            inBody = headRead
        }
        /// Bytes of the current chunk still to come, and its closing line break.
        private var remaining = 0

        mutating func body(from bytes: ArraySlice<UInt8>) -> [UInt8] {
            raw += bytes
            var body: [UInt8] = []
            if !inBody {
                guard let end = SSEReaders.range(of: [13, 10, 13, 10], in: raw) else { return [] }
                raw.removeFirst(end + 4)
                inBody = true
            }
            while true {
                if remaining > 0 {
                    let take = min(remaining, raw.count)
                    body += raw[..<take]
                    raw.removeFirst(take)
                    remaining -= take
                    if remaining > 0 { return body }
                }
                // "\r\n" after a chunk's data, then the next size line.
                if raw.starts(with: [13, 10]) { raw.removeFirst(2) }
                guard let lineEnd = SSEReaders.range(of: [13, 10], in: raw) else { return body }
                let size = Int(String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
                raw.removeFirst(lineEnd + 2)
                guard size > 0 else { return body }
                remaining = size
            }
        }
    }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) { return start }
        return nil
    }
}
