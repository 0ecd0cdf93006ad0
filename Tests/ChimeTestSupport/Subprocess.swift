public import Foundation
import Synchronization

#if canImport(Glibc)
public import Glibc
#endif

/// A child process started with `posix_spawn`, and waited for by a thread of its own.
///
/// Foundation's `Process` is not used for the tests' children: it learns of a child's exit through a
/// socket watched with `select()`, which cannot watch a descriptor numbered 1024 or more, so in a test
/// run with many connections open its `terminationHandler` and `waitUntilExit()` never return; and a
/// `Process` started off a run-loop thread is never released, keeping its pipes open. Here the child
/// starts with no signal blocked (the cooperative pool's threads block nearly all, and a child inherits
/// the mask), with only the descriptors it is given (every other one is closed in the child, so a child
/// cannot hold another test's pipe open), and `exit()` suspends instead of blocking a thread.
public final class Subprocess: Sendable {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        /// The exit status, or the signal's number for a child a signal ended (as `Process` reports it).
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "ended by signal \(signal)"
            }
        }
    }

    public struct LaunchFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public let processIdentifier: pid_t
    private let ending = Mutex<(termination: Termination?, waiters: [CheckedContinuation<Termination, Never>])>((nil, []))

    /// Starts `executable` with `arguments`; the child's standard input, output and error are the given
    /// descriptors (`/dev/null` for `nil`), and its environment is `environment` (this process's when
    /// `nil`).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, standardInput: Int32? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        for (source, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            posix_spawn_file_actions_adddup2(&actions, source ?? null, target)
        }
        guard let closeFrom = Self.addCloseFrom else {
            throw LaunchFailure(description: "this C library lacks posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has it)")
        }
        closeFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let result = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(variables) { envp in
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else {
            throw LaunchFailure(description: "\(executable) could not be started: \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        let thread = Thread { [self, pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            finish(signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal))
        }
        thread.name = "chime.tests.wait.\(pid)"
        thread.start()
    }

    /// The child's termination, once it has ended.
    public var termination: Termination? { ending.withLock { $0.termination } }

    public var isRunning: Bool { termination == nil }

    /// Waits until the child ends.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            let ended = ending.withLock { state -> Termination? in
                if state.termination == nil { state.waiters.append(continuation) }
                return state.termination
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Waits until the child ends, at most `seconds`; `nil` when it is still running then.
    public func exit(within seconds: Double) async -> Termination? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let termination { return termination }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return termination
    }

    /// Sends `signal` to the child, unless it has already been waited for (its number may be reused).
    public func send(_ signal: Int32) {
        ending.withLock { state in
            if state.termination == nil { kill(processIdentifier, signal) }
        }
    }

    private func finish(_ termination: Termination) {
        let waiters = ending.withLock { state in
            state.termination = termination
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: termination) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not export
    /// (it is declared for `_GNU_SOURCE` only).
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}

extension Subprocess {
    /// What a child that ran to its end wrote, and how it ended.
    public struct Outcome: Sendable {
        public let termination: Termination
        public let output: Data
        public let error: Data

        public var status: Int32 { termination.status }
        public var standardOutput: String { String(decoding: output, as: UTF8.self) }
        public var standardError: String { String(decoding: error, as: UTF8.self) }
    }

    /// Runs `executable` to its end with empty input, and collects its output and errors.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Outcome {
        let output = try ProcessPipe.closingOnExec()
        let errors = try ProcessPipe.closingOnExec()
        let child: Subprocess
        do {
            child = try Subprocess(executable, arguments, environment: environment, standardOutput: output.write, standardError: errors.write)
        } catch {
            output.closeAll()
            errors.closeAll()
            throw error
        }
        close(output.write)
        close(errors.write)
        async let outputData = PipeReader.readToEnd(output.read)
        async let errorData = PipeReader.readToEnd(errors.read)
        let (termination, out, err) = await (child.exit(), outputData, errorData)
        return Outcome(termination: termination, output: out, error: err)
    }
}

/// A pipe whose two ends are closed in every child that does not take one as its standard stream.
public struct ProcessPipe: Sendable {
    public let read: Int32
    public let write: Int32

    public static func closingOnExec() throws -> ProcessPipe {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Subprocess.LaunchFailure(description: "no pipe: \(String(cString: strerror(errno)))") }
        // Not atomic with pipe() (pipe2 is not exported): a child Foundation's Process starts in between
        // is still safe, as it closes every descriptor it is not given, as Subprocess does.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return ProcessPipe(read: ends[0], write: ends[1])
    }

    func closeAll() {
        close(read)
        close(write)
    }
}

/// Reads a descriptor to its end on a thread of its own, then closes it.
enum PipeReader {
    static func readToEnd(_ fileDescriptor: Int32) async -> Data {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = Glibc.read(fileDescriptor, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    data.append(contentsOf: buffer[0..<count])
                }
                close(fileDescriptor)
                continuation.resume(returning: data)
            }
            thread.start()
        }
    }
}
