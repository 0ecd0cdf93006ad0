import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One event to many Server-Sent Events subscribers of `GET /v1/events` on one chimed: how long each
/// subscriber waits for it (from the add that causes it to the event's arrival), and the daemon's memory
/// before the subscribers, with them, and after the event.
struct APIFanoutBenchmark {
    var subscribers = 10_000
    var chimed: String
    /// Threads reading the subscribers' sockets, each polling its share.
    var readers = 8

    struct Report: Encodable {
        let workload = "api-fanout"
        var subscribers: Int
        var received: Int
        var latency: LatencySummary
        var memoryIdleMiB: Double
        var memorySubscribedMiB: Double
        var memoryAfterEventMiB: Double
        var connectSeconds: Double
    }

    func run() async throws -> Report {
        Self.raiseFileLimit()
        let daemon = try DaemonUnderTest(executable: chimed, extra: ["--max-connections", String(subscribers + 100), "--http", "none"], name: "fanout")
        defer { daemon.stop() }
        let memoryIdle = daemon.residentMemory
        let clock = ContinuousClock()
        let connecting = clock.now
        var sockets: [Int32] = []
        let request = Array("GET /v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(daemon.token)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        for _ in 0..<subscribers {
            let socket = try Self.connect(daemon.socketPath)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            sockets.append(socket)
        }
        // (Loopback is off: chimed shares its descriptor budget between its listeners.)
        // Every subscriber has its answer's head: the stream is open.
        try Self.readUntil(sockets, contains: Array("text/event-stream".utf8), readers: readers, deadline: .now + .seconds(120))
        let connectSeconds = milliseconds(clock.now - connecting) / 1000
        try await Task.sleep(for: .seconds(1))
        let memorySubscribed = daemon.residentMemory

        let client = try await DaemonClient.connect(socketPath: daemon.socketPath, token: daemon.token, appIdentifier: "com.example.fanout")
        _ = try await client.requestAuthorization(options: [.alert])
        // The readers start first, so each arrival is seen when it comes; the add then causes the event.
        let sent = clock.now
        let subscribed = sockets
        let readersDone = Self.onThread {
            try Self.arrivalTimes(subscribed, of: Array("event: pendingChanged".utf8), readers: readers, clock: clock, deadline: .now + .seconds(60))
        }
        try await client.add([try APIRoundTripBenchmark.request(1)])
        let latencies = try await readersDone.value.map { milliseconds($0 - sent) }
        let memoryAfter = daemon.residentMemory
        for socket in sockets { close(socket) }
        return Report(
            subscribers: subscribers, received: latencies.count, latency: LatencySummary(latencies), memoryIdleMiB: memoryIdle.rounded(),
            memorySubscribedMiB: memorySubscribed.rounded(), memoryAfterEventMiB: memoryAfter.rounded(), connectSeconds: (connectSeconds * 100).rounded() / 100)
    }

    /// Runs blocking `work` on a thread of its own and hands back its result.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> Task<T, any Error> {
        Task {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
            }
        }
    }

    static func raiseFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func connect(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in (Array(path.utf8) + [0]).enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw BenchmarkFailure("connect: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// Reads every socket until what it received contains `marker`.
    static func readUntil(_ sockets: [Int32], contains marker: [UInt8], readers: Int, deadline: ContinuousClock.Instant) throws {
        _ = try arrivalTimes(sockets, of: marker, readers: readers, clock: ContinuousClock(), deadline: deadline)
    }

    /// When `marker` arrived on each socket, read by `readers` threads polling a share each.
    static func arrivalTimes(_ sockets: [Int32], of marker: [UInt8], readers: Int, clock: ContinuousClock, deadline: ContinuousClock.Instant) throws
        -> [ContinuousClock.Instant]
    {
        let times = Mutex<[ContinuousClock.Instant]>([])
        let shares = stride(from: 0, to: sockets.count, by: max(1, sockets.count / readers + 1)).map { Array(sockets[$0..<min(sockets.count, $0 + sockets.count / readers + 1)]) }
        let group = DispatchGroup()
        for share in shares {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var received = [[UInt8]](repeating: [], count: share.count)
                var waiting = Set(share.indices)
                var descriptors = share.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !waiting.isEmpty, clock.now < deadline {
                    guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
                    for index in descriptors.indices where descriptors[index].revents != 0 {
                        let count = recv(descriptors[index].fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                        guard count > 0 else { continue }
                        guard waiting.contains(index) else { continue }
                        received[index] += buffer[..<count]
                        if received[index].count >= marker.count, Self.find(marker, in: received[index]) {
                            waiting.remove(index)
                            received[index] = []
                            let now = clock.now
                            times.withLock { $0.append(now) }
                        }
                    }
                }
            }
        }
        group.wait()
        let arrived = times.withLock { $0 }
        guard arrived.count == sockets.count else { throw BenchmarkFailure("\(sockets.count - arrived.count) subscribers did not receive it in time") }
        return arrived
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        return false
    }
}
