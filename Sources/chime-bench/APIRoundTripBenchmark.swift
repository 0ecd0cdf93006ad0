import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One durable add per request, one after another, over the Unix socket, beside the newline-JSON protocol
/// that chimed spoke before it (an older chimed binary, `--baseline-chimed`), in the same run.
///
/// Two HTTP clients: a blocking one that writes the request and reads the answer on the calling thread,
/// as the line protocol's client here does — the like-for-like comparison of the two servers and
/// protocols — and `DaemonClient` (libcurl on a thread of its own, keep-alive, the answer decoded), what
/// apps and the CLI use.
struct APIRoundTripBenchmark {
    var requests = 2000
    var chimed: String
    var baselineChimed: String?

    struct Report: Encodable {
        let workload = "api-roundtrip"
        var requests: Int
        /// Adds over HTTP from the blocking client.
        var http: LatencySummary
        /// Adds through `DaemonClient`.
        var httpDaemonClient: LatencySummary
        /// Where the time goes: a request answered on the server's own thread (a cached status), and one
        /// that goes through a handler task without touching the store (the focus switch), both through
        /// `DaemonClient`.
        var httpStatus: LatencySummary
        var httpFocus: LatencySummary
        var lineProtocol: LatencySummary?
        /// http p50 / line protocol p50, same kind of client (the target is at most 1.2).
        var p50Ratio: Double?
        /// httpDaemonClient p50 / line protocol p50.
        var daemonClientP50Ratio: Double?
    }

    /// Rounds alternate between the two protocols, so a busy moment of the machine falls on both; each
    /// side's round with the lowest p50 counts.
    var rounds = 5

    func run() async throws -> Report {
        var best: HTTPRound?
        var line: LatencySummary?
        for _ in 0..<rounds {
            let measured = try await measureHTTP()
            if measured.raw.p50 < best?.raw.p50 ?? .infinity { best = measured }
            if let baselineChimed {
                let round = try measureLineProtocol(baselineChimed)
                if round.p50 < line?.p50 ?? .infinity { line = round }
            }
        }
        guard let best else { throw BenchmarkFailure("no round ran") }
        func ratio(_ http: LatencySummary) -> Double? {
            line.map { ($0.p50 > 0 ? http.p50 / $0.p50 : 0) * 100 }.map { $0.rounded() / 100 }
        }
        return Report(
            requests: requests, http: best.raw, httpDaemonClient: best.client, httpStatus: best.status, httpFocus: best.focus, lineProtocol: line,
            p50Ratio: ratio(best.raw), daemonClientP50Ratio: ratio(best.client))
    }

    struct HTTPRound {
        var raw: LatencySummary
        var client: LatencySummary
        var status: LatencySummary
        var focus: LatencySummary
    }

    static func request(_ index: Int) throws -> NotificationRequest {
        var content = NotificationContent(title: "Reminder \(index)")
        content.body = LocalizableText(stringLiteral: String(repeating: "b", count: 100))
        return try NotificationRequest(identifier: "bench-\(index)", content: content, trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 86_400, repeats: false)))
    }

    private func measureHTTP() async throws -> HTTPRound {
        let daemon = try DaemonUnderTest(executable: chimed, name: "http")
        defer { daemon.stop() }
        let client = try await DaemonClient.connect(socketPath: daemon.socketPath, token: daemon.token, appIdentifier: "com.example.bench")
        _ = try await client.requestAuthorization(options: [.alert])
        for index in 0..<50 { try await client.add([try Self.request(-1 - index)]) }  // warm up
        var latencies: [Double] = []
        let clock = ContinuousClock()
        for index in 0..<requests {
            let request = try Self.request(index)
            let started = clock.now
            try await client.add([request])
            latencies.append(milliseconds(clock.now - started))
        }

        let socket = try HTTPSocket(path: daemon.socketPath, token: daemon.token, app: "com.example.bench")
        let encoder = WireFormat.encoder()
        var raw: [Double] = []
        for index in 0..<requests {
            let request = try Self.request(requests + index)
            let started = clock.now
            try socket.post("/v1/apps/com.example.bench/pending", body: Array(try encoder.encode(AddRequests(requests: [request]))))
            raw.append(milliseconds(clock.now - started))
        }

        var status: [Double] = []
        var focus: [Double] = []
        for _ in 0..<requests {
            var started = clock.now
            _ = try await client.status()
            status.append(milliseconds(clock.now - started))
            started = clock.now
            _ = try await client.focus()
            focus.append(milliseconds(clock.now - started))
        }
        return HTTPRound(raw: LatencySummary(raw), client: LatencySummary(latencies), status: LatencySummary(status), focus: LatencySummary(focus))
    }

    /// The old protocol, spoken by hand: `hello`, then one `add` line per request, each reply read before
    /// the next is sent.
    private func measureLineProtocol(_ executable: String) throws -> LatencySummary {
        let daemon = try DaemonUnderTest(executable: executable, name: "line")
        defer { daemon.stop() }
        let socket = try LineSocket(path: daemon.socketPath)
        try socket.call(#"{"id":0,"method":"hello","params":{"token":"\#(daemon.token)","app":"com.example.bench"}}"#)
        try socket.call(#"{"id":0,"method":"requestAuthorization","params":{"options":["alert"]}}"#)
        let encoder = WireFormat.encoder()
        func line(_ request: NotificationRequest, _ id: Int) throws -> String {
            let json = String(decoding: try encoder.encode(request), as: UTF8.self)
            return #"{"id":\#(id),"method":"add","params":{"requests":[\#(json)]}}"#
        }
        for index in 0..<50 { try socket.call(try line(try Self.request(-1 - index), index + 1)) }
        var latencies: [Double] = []
        let clock = ContinuousClock()
        for index in 0..<requests {
            let request = try Self.request(index)
            // Encoding counts on both sides: the old client encoded each request as it sent it.
            let started = clock.now
            try socket.call(try line(request, index + 100))
            latencies.append(milliseconds(clock.now - started))
        }
        return LatencySummary(latencies)
    }
}

/// A blocking newline-JSON client for the old protocol: writes a line, reads the reply line.
final class LineSocket: @unchecked Sendable {  // used by one client task at a time
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in (Array(path.utf8) + [0]).enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw BenchmarkFailure("cannot connect to \(path)") }
    }

    /// Takes over a connected socket (a TCP one: `WebFanoutBenchmark.connectTCP`).
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends `line` and returns the reply line; throws on an error reply.
    @discardableResult
    func call(_ line: String) throws -> String {
        send(Array((line + "\n").utf8))
        let reply = String(decoding: try read(through: [0x0A]).dropLast(), as: UTF8.self)
        if reply.contains(#""error""#) { throw BenchmarkFailure("the line protocol answered an error: \(reply)") }
        return reply
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The bytes up to and including the first `terminator`.
    func read(through terminator: [UInt8]) throws -> [UInt8] {
        while true {
            if let range = pending.firstRange(of: terminator) {
                defer { pending.removeFirst(range.upperBound) }
                return Array(pending[..<range.upperBound])
            }
            try receive()
        }
    }

    /// The next `count` bytes.
    func read(count: Int) throws -> [UInt8] {
        while pending.count < count { try receive() }
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { throw BenchmarkFailure("the daemon closed the connection") }
        pending += chunk[..<count]
    }
}

/// A blocking HTTP/1.1 client on one keep-alive connection: writes a request, reads its answer.
final class HTTPSocket: @unchecked Sendable {  // used by one client task at a time
    private let socket: LineSocket
    private let head: String

    init(path: String, token: String, app: String) throws {
        socket = try LineSocket(path: path)
        head = "Host: localhost\r\nAuthorization: Bearer \(token)\r\nChime-App: \(app)\r\nContent-Type: application/json\r\nPrefer: return=minimal\r\n"
    }

    /// A client of server mode's API on loopback TCP, with a tenant's key.
    init(port: UInt16, key: String) throws {
        socket = LineSocket(descriptor: try WebFanoutBenchmark.connectTCP(port: port))
        head = "Host: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/json\r\n"
    }

    /// POSTs `body` to `path`; throws unless the answer is a success.
    func post(_ path: String, body: [UInt8]) throws {
        let (status, answer) = try request("POST", path, body: body)
        guard (200..<300).contains(status) else { throw BenchmarkFailure("chimed answered \(status): \(String(decoding: answer.prefix(200), as: UTF8.self))") }
    }

    /// Sends one request and returns the answer's status and body (answers with a `Content-Length`).
    func request(_ method: String, _ path: String, body: [UInt8] = []) throws -> (status: Int, body: [UInt8]) {
        socket.send(Array("\(method) \(path) HTTP/1.1\r\n\(head)Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        let header = try socket.read(through: Array("\r\n\r\n".utf8))
        let text = String(decoding: header, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)) else { throw BenchmarkFailure("not an HTTP answer: \(text.prefix(80))") }
        let length = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        return (status, try socket.read(count: length))
    }
}
