import CCurl
import ChimeDelivery
import ChimeEngine
import ChimeServer
import Dispatch
import Foundation

/// Webhook deliveries per second to a receiver on loopback (a process of its own) that answers 204 at once,
/// through `WebhookSender` (a signature per delivery, the host's addresses looked up, checked and pinned,
/// transfers on one multi handle that keeps connections open), beside the same run's raw libcurl floor:
/// the same POSTs from as many threads, each reusing one easy handle (keep-alive), unsigned, unchecked.
///
/// Then the same with a receiver that takes 50 ms to answer: what `--clients` attempts in flight buy.
struct WebhooksBenchmark {
    var deliveries = 2_000
    /// Attempts in flight at once (the delivery loop's batch).
    var concurrency = 32

    struct Side: Encodable {
        let deliveriesPerSecond: Double
        let floorPerSecond: Double
        /// Chime's rate as a ratio of the floor.
        let ratio: Double
    }

    struct Result: Encodable {
        let workload = "webhooks"
        let deliveries: Int
        let concurrency: Int
        let bodyBytes: Int
        let immediate: Side
        /// The receiver answers after 50 ms.
        let after50ms: Side
    }

    /// Answers every POST with 204, after `delay`.
    struct Receiver: HTTPHandler {
        let delay: Duration?
        func screen(_ head: HTTPRequestHead) -> HTTPScreening { .admit(context: nil) }
        func tooLarge(_ head: HTTPRequestHead, limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }
        func unavailable(_ head: HTTPRequestHead) -> HTTPResponse { HTTPResponse(status: 503) }
        func answerAtOnce(_ request: HTTPRequest) -> HTTPResponse? { delay == nil ? HTTPResponse(status: 204) : nil }
        func respond(to request: HTTPRequest) async -> HTTPResponse {
            if let delay { try? await Task.sleep(for: delay) }
            return HTTPResponse(status: 204)
        }
    }

    func run() async throws -> Result {
        // A delivered event of the usual size.
        let body = Array(
            (#"{"type":"notification.delivered","timestamp":"2026-12-07T08:00:00.000Z","data":{"alerting":"normally","app":"com.example.todo","#
                + #""notification":{"date":1796630400,"isLate":false,"request":{"content":{"body":"Water the plants on the balcony","title":"Reminder"},"#
                + #""identifier":"r42","misfirePolicy":"deliverLate"}},"recipient":"u42","text":{"body":"Water the plants on the balcony","#
                + #""language":null,"subtitle":"","title":"Reminder"}}}"#).utf8)
        var sides: [Side] = []
        for delay in [0, 50] {
            // The receiver is a process of its own, as a tenant's is: its threads are not the sender's.
            let receiver = Process()
            receiver.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            receiver.arguments = ["webhooks-receiver", String(delay)]
            let output = Pipe()
            receiver.standardOutput = output
            try receiver.run()
            defer { receiver.terminate() }
            guard let line = String(data: output.fileHandleForReading.availableData, encoding: .utf8), let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines))
            else { throw BenchmarkFailure("the receiver printed no port") }
            let url = "http://127.0.0.1:\(port)/hook"
            let floor = try await Self.onThreadOfItsOwn { try measureFloor(url: url, body: body) }
            let chime = try await measureSender(url: url, body: body)
            sides.append(Side(deliveriesPerSecond: chime.rounded(), floorPerSecond: floor.rounded(), ratio: (chime / floor * 1000).rounded() / 1000))
        }
        return Result(deliveries: deliveries, concurrency: concurrency, bodyBytes: body.count, immediate: sides[0], after50ms: sides[1])
    }

    /// `work`, blocking, on a thread that is not one Swift concurrency needs.
    static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
        }
    }

    /// `chime-bench webhooks-receiver <milliseconds>`: answers every request with 204 after that long, on
    /// loopback; prints its port, then serves until killed.
    static func serveReceiver(delayMilliseconds: Int) async throws -> Never {
        let socket = try ListeningSocket.tcp(host: "127.0.0.1", port: 0)
        guard let port = socket.port else { throw BenchmarkFailure("the receiver's socket has no port") }
        var configuration = HTTPServer.Configuration()
        configuration.threads = 2
        let server = try HTTPServer(
            listening: socket, configuration: configuration, handler: Receiver(delay: delayMilliseconds > 0 ? .milliseconds(delayMilliseconds) : nil),
            log: QuietLog())
        FileHandle.standardOutput.write(Data("\(port)\n".utf8))
        while true { try await Task.sleep(for: .seconds(3600)) }
        _ = server
    }

    /// Chime's sender: `concurrency` tasks, each sending its share one after another.
    private func measureSender(url: String, body: [UInt8]) async throws -> Double {
        let sender = WebhookSender()
        let policy = OutboundAddressPolicy(operatorAllowed: [IPNetwork("127.0.0.1")!])
        let secret = WebhookSecret.generate()
        let started = ContinuousClock.now
        let failures = await withTaskGroup(of: [String].self) { group in
            for lane in 0..<concurrency {
                let count = deliveries / concurrency + (lane < deliveries % concurrency ? 1 : 0)
                group.addTask {
                    var failed: [String] = []
                    for index in 0..<count {
                        let signature = WebhookSignature(
                            id: "msg_\(lane)_\(index)", timestamp: Int64(Date().timeIntervalSince1970), body: body, secrets: [secret])
                        let outcome = await sender.send(body, headers: signature.headers, to: url, policy: policy)
                        if case .accepted = outcome {} else { failed.append("\(outcome)") }
                    }
                    return failed
                }
            }
            return await group.reduce([], +)
        }
        guard failures.isEmpty else { throw BenchmarkFailure("\(failures.count) webhook attempts were not accepted, such as \(failures[0])") }
        return Double(deliveries) / ServerAddsBenchmark.seconds(ContinuousClock.now - started)
    }

    /// The floor: `concurrency` threads, each with one easy handle it reuses, POSTing its share.
    private func measureFloor(url: String, body: [UInt8]) throws -> Double {
        _ = curl_global_init(Int(CURL_GLOBAL_ALL))
        let failures = Atomic(0)
        let started = ContinuousClock.now
        // A thread per lane: `concurrentPerform` runs only as many lanes at once as there are cores, which
        // for a receiver that takes 50 ms measured the cores, not libcurl.
        let group = DispatchGroup()
        let lanes = (0..<concurrency).map { index in
            group.enter()
            return Thread {
                defer { group.leave() }
                post(lane: index)
            }
        }
        @Sendable func post(lane: Int) {
            let count = deliveries / concurrency + (lane < deliveries % concurrency ? 1 : 0)
            guard let curl = curl_easy_init() else {
                failures.add(count)
                return
            }
            defer { curl_easy_cleanup(curl) }
            var headers: UnsafeMutablePointer<curl_slist>?
            headers = curl_slist_append(headers, "Content-Type: application/json")
            headers = curl_slist_append(headers, "Expect:")
            defer { curl_slist_free_all(headers) }
            _ = chime_curl_setopt_string(curl, CURLOPT_URL, url)
            _ = chime_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
            _ = chime_curl_setopt_list(curl, CURLOPT_HTTPHEADER, headers)
            _ = chime_curl_setopt_write(curl, dropBody)
            for _ in 0..<count {
                _ = chime_curl_setopt_long(curl, CURLOPT_POST, 1)
                _ = chime_curl_setopt_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                body.withUnsafeBytes { _ = chime_curl_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress!)) }
                var status = 0
                if curl_easy_perform(curl) != CURLE_OK || chime_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK || status != 204 {
                    failures.add(1)
                }
            }
        }
        lanes.forEach { $0.start() }
        group.wait()
        guard failures.load() == 0 else { throw BenchmarkFailure("\(failures.load()) floor requests failed") }
        return Double(deliveries) / ServerAddsBenchmark.seconds(ContinuousClock.now - started)
    }
}

private let dropBody: chime_curl_data_callback = { _, size, count, _ in size * count }

/// A counter several threads add to.
private final class Atomic: @unchecked Sendable {  // guarded by its lock
    private let lock = NSLock()
    private var value: Int
    init(_ value: Int) { self.value = value }
    func add(_ amount: Int) { lock.withLock { value += amount } }
    func load() -> Int { lock.withLock { value } }
}
