import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one running chimed per runtime folder: an exclusive `flock` on `chimed.lock`, taken before the
/// daemon writes anything else (token, socket), held until it exits — the kernel releases it when the
/// process dies, however it dies, so a killed daemon never leaves a lock behind.
///
/// Of two daemons started at the same instant exactly one gets the lock; the other exits without touching
/// the token or the socket, so the winner's stay valid.
final class InstanceLock {
    private let descriptor: Int32

    /// Takes the lock at `file`, writing this process's id into it.
    ///
    /// - Throws: `DaemonError` naming the holder when another daemon holds it, or when the file cannot be
    ///   opened (it must not be a symbolic link).
    init(file: URL) throws {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw DaemonError("cannot open \(file.path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            var holder = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &holder, holder.count, 0)
            close(descriptor)
            guard busy else { throw DaemonError("cannot lock \(file.path): \(String(cString: strerror(errno)))") }
            let pid = String(decoding: holder.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw DaemonError("another chimed is already running\(pid.isEmpty ? "" : " (pid \(pid))") with \(file.deletingLastPathComponent().path)")
        }
        self.descriptor = descriptor
        let pid = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
    }

    deinit {
        close(descriptor)
    }
}

/// Raises this process's soft limit on open files to its hard limit: every connection and event stream
/// is a file descriptor, and systemd starts user services with a soft limit of 1,024.
enum FileDescriptorLimit {
    /// The soft limit after raising it.
    @discardableResult
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
