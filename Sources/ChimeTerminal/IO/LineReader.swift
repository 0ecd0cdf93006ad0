import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a file descriptor on a thread of its own, until the input ends or `stop()`.
///
/// The thread blocks in `poll(2)` on the input and on a wake-up pipe, so `stop()` ends it at once even
/// while nobody types; no read ever blocks the cooperative thread pool. A terminal in its usual
/// (canonical) mode hands over whole lines, edited with the terminal's own keys; pipes and files are
/// split at line feeds. A final line without a line feed still counts. Bytes that are not UTF-8 become
/// U+FFFD; a carriage return before the line feed is dropped.
final class LineReader: Sendable {
    private let input: Int32
    /// The wake-up pipe: `stop()` writes a byte to `wakeWrite`; the thread polls `wakeRead`.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Reads `fileDescriptor`, which the caller keeps open while the reader runs.
    init(fileDescriptor: Int32) {
        input = fileDescriptor
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 {
            fds = [-1, -1]  // without a wake-up pipe, stop() waits for the next line or the end of input
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Starts the thread: it calls `line` for each line and `end` once when the input ends (not after
    /// `stop()`). Call once.
    func start(line: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            if run(line: line) { end() }
        }
        thread.name = "chime.terminal.input"
        thread.start()
    }

    /// Ends the thread without calling `end`; lines not yet read stay unread.
    func stop() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Reads until the input ends (returns `true`) or `stop()` (returns `false`).
    private func run(line: (String) -> Void) -> Bool {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var watched = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, nfds_t(wakeRead >= 0 ? 2 : 1), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if watched[1].revents != 0 && wakeRead >= 0 { return false }
            guard watched[0].revents != 0 else { continue }
            let count = read(input, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break  // EIO when a pseudo-terminal's other side closed: the input ended
            }
            if count == 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                line(Self.decode(pending[..<newline]))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { line(Self.decode(pending[...])) }
        return true
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        let trimmed = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
        return String(decoding: trimmed, as: UTF8.self)
    }
}
