import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One durable add per request, one after another, over the Unix socket: chimed's HTTP API through
/// `DaemonClient` (libcurl, keep-alive), beside the newline-JSON protocol that chimed spoke before it
/// (an older chimed binary, `--baseline-chimed`), in the same run.
struct APIRoundTripBenchmark {
    var requests = 2000
    var chimed: String
    var baselineChimed: String?

    struct Report: Encodable {
        let workload = "api-roundtrip"
        var requests: Int
        var http: LatencySummary
        /// Where the time goes: a request answered on the server's own thread (a cached status), and one
        /// that goes through a handler task without touching the store (the focus switch).
        var httpStatus: LatencySummary
        var httpFocus: LatencySummary
        var lineProtocol: LatencySummary?
        /// http p50 / line protocol p50 (the target is at most 1.2).
        var p50Ratio: Double?
    }

    /// Rounds alternate between the two protocols, so a busy moment of the machine falls on both; each
    /// side's round with the lowest p50 counts.
    var rounds = 3

    func run() async throws -> Report {
        var best: (adds: LatencySummary, status: LatencySummary, focus: LatencySummary)?
        var line: LatencySummary?
        for _ in 0..<rounds {
            let measured = try await measureHTTP()
            if measured.adds.p50 < best?.adds.p50 ?? .infinity { best = measured }
            if let baselineChimed {
                let round = try measureLineProtocol(baselineChimed)
                if round.p50 < line?.p50 ?? .infinity { line = round }
            }
        }
        guard let (http, status, focus) = best else { throw BenchmarkFailure("no round ran") }
        return Report(
            requests: requests, http: http, httpStatus: status, httpFocus: focus, lineProtocol: line,
            p50Ratio: line.map { ($0.p50 > 0 ? http.p50 / $0.p50 : 0) * 100 }.map { $0.rounded() / 100 })
    }

    static func request(_ index: Int) throws -> NotificationRequest {
        var content = NotificationContent(title: "Reminder \(index)")
        content.body = LocalizableText(stringLiteral: String(repeating: "b", count: 100))
        return try NotificationRequest(identifier: "bench-\(index)", content: content, trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 86_400, repeats: false)))
    }

    private func measureHTTP() async throws -> (adds: LatencySummary, status: LatencySummary, focus: LatencySummary) {
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
        return (LatencySummary(latencies), LatencySummary(status), LatencySummary(focus))
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
        func line(_ index: Int, _ id: Int) throws -> String {
            let json = String(decoding: try encoder.encode(try Self.request(index)), as: UTF8.self)
            return #"{"id":\#(id),"method":"add","params":{"requests":[\#(json)]}}"#
        }
        for index in 0..<50 { try socket.call(try line(-1 - index, index + 1)) }
        var latencies: [Double] = []
        let clock = ContinuousClock()
        for index in 0..<requests {
            let text = try line(index, index + 100)
            let started = clock.now
            try socket.call(text)
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

    deinit { close(descriptor) }

    /// Sends `line` and returns the reply line; throws on an error reply.
    @discardableResult
    func call(_ line: String) throws -> String {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let reply = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                if reply.contains(#""error""#) { throw BenchmarkFailure("the line protocol answered an error: \(reply)") }
                return reply
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { throw BenchmarkFailure("the line protocol daemon closed the connection") }
            pending += chunk[..<count]
        }
    }
}
