import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A tool the desktop tests run: found on the machine, or a clear failure telling how to install it.
/// Tests never skip for a missing tool: CI installs everything (`script/bootstrap`), so a missing one is
/// a broken setup, and a developer should see why.
public enum Tool {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The absolute path of `name`, from `PATH` or the usual system directories.
    public static func path(_ name: String, package: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"]
        for directory in directories {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(description: "\(name) is not installed: run script/bootstrap (Debian package \(package))")
    }

    /// The system Python with dbus-next (Debian's python3-dbus-next), which the scripted server needs.
    /// Another `python3` earlier on `PATH` (pyenv, a venv) usually lacks it.
    public static func pythonWithDBusNext() throws -> String {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Missing(description: "/usr/bin/python3 is not installed: run script/bootstrap (Debian package python3)")
        }
        let status = checkedDBusNext.withLock { checked -> Bool in
            if let checked { return checked }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", "import dbus_next"]
            process.standardError = FileHandle.nullDevice
            let ok = (try? process.run()) != nil && { process.waitUntilExit(); return process.terminationStatus == 0 }()
            checked = ok
            return ok
        }
        guard status else {
            throw Missing(description: "\(python) cannot import dbus_next: run script/bootstrap (Debian package python3-dbus-next, or pip dbus-next)")
        }
        return python
    }

    private static let checkedDBusNext = Mutex<Bool?>(nil)
}

/// A waiting step that took too long; says what it waited for and what it saw.
public struct Timeout: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Lines a process writes, read on a thread of their own as they come, kept in order.
///
/// A rendezvous: `take(where:)` waits until a line matches, and hands each line out once, so a test reads
/// as the story of what the process said. Every wait has a deadline; on timeout it throws with the lines
/// seen.
public final class LineLog: Sendable {
    private struct Waiter {
        let id: Int
        let predicate: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String, any Error>
    }

    private struct State {
        var lines: [String] = []
        var taken: Set<Int> = []
        var partial: [UInt8] = []
        var ended = false
        /// The stream ended without a line break after its last line (a writer killed mid-line).
        var endedMidLine = false
        var nextID = 0
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())
    public let name: String

    /// Reads `fileDescriptor` until it ends, then closes it.
    public init(reading fileDescriptor: Int32, name: String) {
        self.name = name
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fileDescriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                append(buffer[0..<count])
            }
            close(fileDescriptor)
            end()
        }
        thread.name = "chime.tests.\(name)"
        thread.start()
    }

    /// Every line so far, taken or not.
    public var lines: [String] { state.withLock { $0.lines } }

    /// Every line so far that a line break ended: without a last line cut short by the writer's death.
    public var wholeLines: [String] {
        state.withLock { $0.endedMidLine ? Array($0.lines.dropLast()) : $0.lines }
    }

    /// Whether the stream ended (the process closed it or exited) and every line was read.
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// Every line, once the stream has ended (a process's whole output after it exits).
    public func allLines(within seconds: Double = 10) async throws -> [String] {
        try await eventually("\(name) ended", within: seconds) { hasEnded }
        return lines
    }

    /// Waits for the first line not taken yet that fits `predicate`, takes it and returns it.
    ///
    /// The default bound is a minute: it catches a hang, it does not measure speed. A full test run
    /// starts hundreds of tests at once on two cores, and a line that takes a process, a bus and the
    /// engine's fire to appear has been seen to take longer than 15 s then.
    public func take(_ what: String, within seconds: Double = 60, where predicate: @escaping @Sendable (String) -> Bool) async throws -> String {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [self] in
            try await Task.sleep(for: .seconds(seconds))
            expire(id, what: what)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation)) }
            settle()
        }
    }

    private func append(_ chunk: ArraySlice<UInt8>) {
        state.withLock { state in
            for byte in chunk {
                if byte == UInt8(ascii: "\n") {
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial = []
                } else {
                    state.partial.append(byte)
                }
            }
        }
        settle()
    }

    private func end() {
        state.withLock { state in
            if !state.partial.isEmpty {
                state.lines.append(String(decoding: state.partial, as: UTF8.self))
                state.endedMidLine = true
            }
            state.partial = []
            state.ended = true
        }
        settle()
    }

    private func settle() {
        let ready = state.withLock { state -> [(CheckedContinuation<String, any Error>, Result<String, any Error>)] in
            var ready: [(CheckedContinuation<String, any Error>, Result<String, any Error>)] = []
            state.waiters.removeAll { waiter in
                if let index = state.lines.indices.first(where: { !state.taken.contains($0) && waiter.predicate(state.lines[$0]) }) {
                    state.taken.insert(index)
                    ready.append((waiter.continuation, .success(state.lines[index])))
                    return true
                }
                if state.ended {
                    ready.append((waiter.continuation, .failure(Timeout(description: "\(name) ended without the line; it wrote:\n\(state.lines.joined(separator: "\n"))"))))
                    return true
                }
                return false
            }
            return ready
        }
        for (continuation, result) in ready { continuation.resume(with: result) }
    }

    private func expire(_ id: Int, what: String) {
        let (waiter, lines) = state.withLock { state -> (Waiter?, [String]) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return (nil, []) }
            return (state.waiters.remove(at: index), state.lines)
        }
        waiter?.continuation.resume(throwing: Timeout(description: "timed out waiting for \(what) from \(name); it wrote:\n\(lines.joined(separator: "\n"))"))
    }
}

/// A child process with its output read as lines and its input writable; `stop()` ends it.
public final class ChildProcess: Sendable {
    public let output: LineLog
    public let errors: LineLog
    private let child: Subprocess
    private let input: Mutex<Int32?>

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], name: String) throws {
        var merged = ProcessInfo.processInfo.environment
        // Nothing the tests start may find the machine's own session bus or display by accident.
        merged["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        merged["DBUS_SYSTEM_BUS_ADDRESS"] = "disabled:"
        merged["DISPLAY"] = nil
        merged.merge(environment) { $1 }
        let inputPipe = try ProcessPipe.closingOnExec()
        let outputPipe = try ProcessPipe.closingOnExec()
        let errorPipe = try ProcessPipe.closingOnExec()
        do {
            child = try Subprocess(
                executable, arguments, environment: merged, standardInput: inputPipe.read, standardOutput: outputPipe.write,
                standardError: errorPipe.write)
        } catch {
            for pipe in [inputPipe, outputPipe, errorPipe] { pipe.closeAll() }
            throw error
        }
        // The child has its copies; closing ours lets the readers see the end when the child exits.
        close(inputPipe.read)
        close(outputPipe.write)
        close(errorPipe.write)
        input = Mutex(inputPipe.write)
        output = LineLog(reading: outputPipe.read, name: name)
        errors = LineLog(reading: errorPipe.read, name: name + " (stderr)")
    }

    /// A test that failed before it stopped its process leaves none behind (a daemon left running keeps
    /// serving the clients the test started, and slows every test after it).
    deinit {
        child.send(SIGKILL)
        closeInput()
    }

    public var processIdentifier: Int32 { child.processIdentifier }

    /// Writes `line` and a line break to the process's input.
    public func send(_ line: String) {
        input.withLock { descriptor in
            guard let descriptor else { return }
            var bytes = Array((line + "\n").utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// Closes the process's input: it reads the end.
    public func closeInput() {
        input.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    /// Waits until the process exits by itself, and returns its exit status (the signal's number when a
    /// signal ended it).
    public func exitStatus() async -> Int32 {
        let status = await child.exit().status
        // What it wrote before it exited is read to its end too (unless a child of its own holds the pipes).
        _ = try? await output.allLines(within: 5)
        _ = try? await errors.allLines(within: 5)
        return status
    }

    /// How the process ended, once it has.
    public func termination() async -> Subprocess.Termination {
        await child.exit()
    }

    /// Sends `signal` to the process while it runs.
    public func signal(_ signal: Int32) {
        child.send(signal)
    }

    /// Ends the process (SIGTERM, then SIGKILL if it lingers) and waits until it has exited.
    public func stop() async {
        child.send(SIGTERM)
        let killer = Task { [child] in
            try await Task.sleep(for: .seconds(5))
            child.send(SIGKILL)
        }
        _ = await child.exit()
        killer.cancel()
        closeInput()
    }
}
