import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Follows a tenant's event stream (`GET /v1/events`) over loopback HTTP, as a backend would, on a thread
/// of its own, and notes for each `delivered` event how long after its scheduled instant it arrived: the
/// lateness a stream's reader sees, which is what counts once fires are recorded ahead of their instant.
///
/// HTTP/1.0, so the stream comes without chunked framing; the scheduled date is read straight from the
/// event's bytes (`"scheduledDate":` is a field of the delivered notification only) to keep the probe's
/// own cost small beside the nodes it shares the process with.
final class StreamLatenessProbe: @unchecked Sendable {  // `lateness` is read only after `stop()`
    private let descriptor: Int32
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)
    /// Milliseconds from each delivered event's scheduled instant to its arrival, in arrival order.
    private(set) var lateness: [Double] = []

    init(port: UInt16, key: String) throws {
        descriptor = try WebFanoutBenchmark.connectTCP(port: port)
        let request = "GET /v1/events HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(key)\r\nAccept: text/event-stream\r\n\r\n"
        _ = try WebFanoutBenchmark.open(descriptor, Array(request.utf8))
        let thread = Thread { [self] in follow() }
        self.thread = thread
        thread.start()
    }

    /// Ends the stream and waits for the reader; `lateness` is complete then.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        done.wait()
        close(descriptor)
    }

    private func follow() {
        defer { done.signal() }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            let arrived = Date().timeIntervalSince1970
            pending += chunk[..<count]
            // Each complete event (up to a blank line), scanned with memmem: the probe must cost little.
            let consumed = pending.withUnsafeBytes { bytes -> Int in
                var start = 0
                while let end = Self.find("\n\n", in: bytes, from: start) {
                    if let scheduled = Self.scheduledDate(in: UnsafeRawBufferPointer(rebasing: bytes[start..<end])) {
                        lateness.append((arrived - scheduled) * 1_000)
                    }
                    start = end + 2
                }
                return start
            }
            pending.removeFirst(consumed)
        }
    }

    /// Where `needle` starts in `bytes` at or after `from`: a plain scan on raw bytes, which the optimizer
    /// makes fast (the generic `firstRange(of:)` cost more than the nodes it measured).
    static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, bytes.count >= count else { return nil }
        let first = needle.utf8Start.pointee
        var index = from
        while index <= bytes.count - count {
            if bytes[index] == first {
                var matched = 1
                while matched < count && bytes[index + matched] == needle.utf8Start[matched] { matched += 1 }
                if matched == count { return index }
            }
            index += 1
        }
        return nil
    }

    /// The number after `"scheduledDate":` in an event's bytes.
    static func scheduledDate(in event: UnsafeRawBufferPointer) -> Double? {
        let key: StaticString = #""scheduledDate":"#
        guard let start = find(key, in: event, from: 0) else { return nil }
        let digits = event[(start + key.utf8CodeUnitCount)...].prefix { (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B }
        return Double(String(decoding: digits, as: UTF8.self))
    }
}
