import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation
import Synchronization

/// Many clients adding at once, one durable add per request: the rate, the latency each client sees,
/// and what the daemon holds before and after (memory, file descriptors). With `--baseline-chimed`, the
/// same load on the older chimed's newline-JSON protocol, in the same run.
struct APILoadBenchmark {
    var clients = 50
    var requestsPerClient = 1000
    var chimed: String
    var baselineChimed: String?

    struct Side: Encodable {
        var addsPerSecond: Double
        var latency: LatencySummary
        var memoryBeforeMiB: Double
        var memoryAfterMiB: Double
        var descriptorsBefore: Int
        var descriptorsAfter: Int
        var failures: Int
    }

    struct Report: Encodable {
        let workload = "api-load"
        var clients: Int
        var requestsPerClient: Int
        var http: Side
        var lineProtocol: Side?
    }

    func run() async throws -> Report {
        let http = try await measure(chimed, name: "load-http") { daemon, client, index in
            let connection = try await DaemonClient.connect(socketPath: daemon.socketPath, token: daemon.token, appIdentifier: "com.example.load")
            return { request in try await connection.add([request]) }
        }
        var line: Side?
        if let baselineChimed {
            line = try await measure(baselineChimed, name: "load-line") { daemon, _, index in
                let socket = try LineSocket(path: daemon.socketPath)
                try socket.call(#"{"id":0,"method":"hello","params":{"token":"\#(daemon.token)","app":"com.example.load"}}"#)
                let encoder = WireFormat.encoder()
                let counter = Mutex(0)
                return { request in
                    let json = String(decoding: try encoder.encode(request), as: UTF8.self)
                    let id = counter.withLock { value in
                        value += 1
                        return value
                    }
                    // The socket blocks: keep it off the cooperative pool.
                    try await Self.offPool { try socket.call(#"{"id":\#(id),"method":"add","params":{"requests":[\#(json)]}}"#) }
                }
            }
        }
        return Report(clients: clients, requestsPerClient: requestsPerClient, http: http, lineProtocol: line)
    }

    /// Runs `work` on a thread outside the cooperative pool.
    static func offPool(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try work()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private func measure(
        _ executable: String, name: String,
        connect: @escaping @Sendable (DaemonUnderTest, Int, Int) async throws -> @Sendable (NotificationRequest) async throws -> Void
    ) async throws -> Side {
        let daemon = try DaemonUnderTest(executable: executable, name: name)
        defer { daemon.stop() }
        if name == "load-http" {
            let setup = try await DaemonClient.connect(socketPath: daemon.socketPath, token: daemon.token)
            _ = try await setup.requestAuthorization(options: [.alert], app: "com.example.load")
        } else {
            let socket = try LineSocket(path: daemon.socketPath)
            try socket.call(#"{"id":0,"method":"hello","params":{"token":"\#(daemon.token)","app":"com.example.load"}}"#)
            try socket.call(#"{"id":1,"method":"requestAuthorization","params":{"options":["alert"]}}"#)
        }
        let memoryBefore = daemon.residentMemory
        let descriptorsBefore = daemon.openFiles
        let collected = Collected()
        let clock = ContinuousClock()
        let started = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask { [requestsPerClient] in
                    let add = try await connect(daemon, client, 0)
                    var mine: [Double] = []
                    mine.reserveCapacity(requestsPerClient)
                    for index in 0..<requestsPerClient {
                        let request = try APIRoundTripBenchmark.request(client * 1_000_000 + index)
                        let sent = clock.now
                        do {
                            try await add(request)
                            mine.append(milliseconds(clock.now - sent))
                        } catch {
                            collected.failures.withLock { $0 += 1 }
                        }
                    }
                    collected.latencies.withLock { $0 += mine }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = milliseconds(clock.now - started) / 1000
        let all = collected.latencies.withLock { $0 }
        return Side(
            addsPerSecond: (Double(all.count) / elapsed).rounded(), latency: LatencySummary(all), memoryBeforeMiB: memoryBefore.rounded(),
            memoryAfterMiB: daemon.residentMemory.rounded(), descriptorsBefore: descriptorsBefore, descriptorsAfter: daemon.openFiles,
            failures: collected.failures.withLock { $0 })
    }

    /// What the clients measured, gathered from their tasks.
    final class Collected: Sendable {
        let latencies = Mutex<[Double]>([])
        let failures = Mutex(0)
    }
}
