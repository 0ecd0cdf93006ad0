import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper program of the desktop (`gsettings`, a reply dialog) and returns what it printed.
///
/// ```swift
/// let finished = await ChildCommand.output(of: "/usr/bin/gsettings", ["get", "org.gnome.desktop.notifications", "show-banners"])
/// finished?.output   // "false\n"
/// ```
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`, which watches its children with
/// `select()` and loses them once the daemon holds descriptors numbered 1024 or more (it raises its limit
/// for connections). Standard input and error are `/dev/null`; the child gets every signal unblocked and
/// SIGTERM, SIGINT, SIGHUP and SIGPIPE at their defaults, which the daemon ignores or blocks. Output past
/// `maximumOutput` is cut off; a child still running at `timeout` is killed.
public enum ChildCommand {
    public struct Finished: Sendable, Equatable {
        /// The exit status; `nil` when a signal ended the child (as when it ran past its timeout).
        public var status: Int32?
        public var output: String
    }

    /// `run` on a thread of its own, so a slow child never holds a thread of the cooperative pool.
    public static func output(
        of executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(5),
        maximumOutput: Int = 64 << 10
    ) async -> Finished? {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: run(executable, arguments, environment: environment, timeout: timeout, maximumOutput: maximumOutput))
            }
            thread.name = "chime.child"
            thread.start()
        }
    }

    /// Runs `executable` and waits for it, blocking the calling thread; `nil` when it could not start.
    /// `environment` is the child's (by default this process's).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration, maximumOutput: Int
    ) -> Finished? {
        // Close-on-exec from the start, so no child another thread spawns meanwhile holds the write end
        // (and keeps this read from ending); a socket pair because `pipe2` is not imported.
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, variables)
        close(writeEnd)
        guard spawned == 0 else { return nil }

        let output = readAll(readEnd, until: ContinuousClock.now + timeout, maximum: maximumOutput)
        if output == nil { kill(child, SIGKILL) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7f == 0
        return Finished(status: exited ? (status >> 8) & 0xff : nil, output: String(decoding: output ?? [], as: UTF8.self))
    }

    /// Reads `descriptor` to its end, keeping at most `maximum` bytes; `nil` when `deadline` came first.
    private static func readAll(_ descriptor: Int32, until deadline: ContinuousClock.Instant, maximum: Int) -> [UInt8]? {
        var kept: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return kept }
            kept.append(contentsOf: buffer[..<min(count, max(0, maximum - kept.count))])
        }
    }
}
