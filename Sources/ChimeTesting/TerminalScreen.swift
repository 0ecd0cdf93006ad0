import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the user sees of a terminal program: everything written to the other end of its output (a pipe,
/// or a pseudo-terminal's controlling side), read on a thread of its own as it arrives.
///
/// A rendezvous: `next(through:)` waits until a text appears and returns everything written since the
/// previous call, through that text — so a test asserts exactly what the user saw, in order, without
/// sleeping. Each wait is bounded; on timeout it throws with what was seen.
public final class TerminalScreen: Sendable {
    /// What was awaited did not appear in time (or before the output ended).
    public struct Timeout: Error, CustomStringConvertible {
        public let expected: String
        public let seen: String
        public var description: String { "\(expected.debugDescription) did not appear; the screen shows \(seen.debugDescription)" }
    }

    private struct Waiter {
        let id: Int
        /// The bytes to wait for; empty waits for the end of the output.
        let marker: [UInt8]
        let continuation: CheckedContinuation<String, any Error>
    }

    private struct State {
        var bytes: [UInt8] = []
        var consumed = 0
        var ended = false
        var nextID = 0
        var waiters: [Waiter] = []
        var expired: Set<Int> = []
        /// A carriage return at the end of a chunk, kept back until the next byte shows whether it
        /// starts a CR LF.
        var heldReturn = false
    }

    private let state = Mutex(State())
    /// A pseudo-terminal turns "\n" into "\r\n" (ONLCR); with this set the screen turns it back.
    private let joinsCarriageReturns: Bool

    /// Starts reading `fileDescriptor` until it ends (end of file, or EIO from a pseudo-terminal whose
    /// other side closed). The caller keeps it open meanwhile.
    public init(reading fileDescriptor: Int32, joinsCarriageReturns: Bool = false) {
        self.joinsCarriageReturns = joinsCarriageReturns
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fileDescriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                append(buffer[0..<count])
            }
            end()
        }
        thread.start()
    }

    /// Waits until `marker` appears, and returns what was written since the previous call, through it.
    public func next(through marker: String, within seconds: Int = 10) async throws -> String {
        try await wait(for: Array(marker.utf8), expected: marker, within: seconds)
    }

    /// Waits until the output ends, and returns what was written since the previous call.
    public func rest(within seconds: Int = 10) async throws -> String {
        try await wait(for: [], expected: "the end of the output", within: seconds)
    }

    private func wait(for marker: [UInt8], expected: String, within seconds: Int) async throws -> String {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [self] in
            try await Task.sleep(for: .seconds(seconds))
            expire(id, expected: expected)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let expired = state.withLock { state in
                if state.expired.remove(id) != nil { return true }
                state.waiters.append(Waiter(id: id, marker: marker, continuation: continuation))
                return false
            }
            if expired {
                continuation.resume(throwing: Timeout(expected: expected, seen: seen()))
            } else {
                settle()
            }
        }
    }

    private func append(_ chunk: ArraySlice<UInt8>) {
        state.withLock { state in
            guard joinsCarriageReturns else { return state.bytes.append(contentsOf: chunk) }
            for byte in chunk {
                if state.heldReturn && byte != UInt8(ascii: "\n") { state.bytes.append(UInt8(ascii: "\r")) }
                state.heldReturn = byte == UInt8(ascii: "\r")
                if !state.heldReturn { state.bytes.append(byte) }
            }
        }
        settle()
    }

    private func end() {
        state.withLock { state in
            if state.heldReturn { state.bytes.append(UInt8(ascii: "\r")) }
            state.heldReturn = false
            state.ended = true
        }
        settle()
    }

    /// Resumes the waiters whose text has appeared (or whose output ended).
    private func settle() {
        let ready = state.withLock { state -> [(CheckedContinuation<String, any Error>, Result<String, any Error>)] in
            var ready: [(CheckedContinuation<String, any Error>, Result<String, any Error>)] = []
            while let waiter = state.waiters.first {
                let unread = Array(state.bytes[state.consumed...])
                if waiter.marker.isEmpty {
                    guard state.ended else { break }
                    state.consumed = state.bytes.count
                    ready.append((waiter.continuation, .success(String(decoding: unread, as: UTF8.self))))
                } else if let end = Self.end(of: waiter.marker, in: unread) {
                    state.consumed += end
                    ready.append((waiter.continuation, .success(String(decoding: unread[..<end], as: UTF8.self))))
                } else if state.ended {
                    let seen = String(decoding: unread, as: UTF8.self)
                    ready.append((waiter.continuation, .failure(Timeout(expected: String(decoding: waiter.marker, as: UTF8.self), seen: seen))))
                } else {
                    break
                }
                state.waiters.removeFirst()
            }
            return ready
        }
        for (continuation, result) in ready { continuation.resume(with: result) }
    }

    private func expire(_ id: Int, expected: String) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.expired.insert(id)
                return nil
            }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: Timeout(expected: expected, seen: seen()))
    }

    private func seen() -> String {
        state.withLock { String(decoding: $0.bytes[$0.consumed...], as: UTF8.self) }
    }

    /// Where the first `marker` in `bytes` ends.
    private static func end(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            return start + marker.count
        }
        return nil
    }
}
