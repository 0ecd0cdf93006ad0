import ChimeServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts an app's registered launch command so it can take its queued responses.
///
/// The child is spawned from a thread of its own, with every signal unblocked and SIGTERM, SIGINT, SIGHUP
/// and SIGPIPE back at their default actions: the daemon ignores those (its DispatchSource handlers need
/// that) and threads of the cooperative pool may block some, and both would be inherited through `exec`,
/// leaving an app that SIGTERM cannot stop. The same thread waits for the child, so it never lingers as a
/// zombie. The environment gets `CHIME_LAUNCH=foreground|background`.
struct AppLauncher: AppLaunching {
    let log: DaemonLog

    func launch(_ command: [String], reason: String) {
        let log = log
        guard let program = command.first else { return }
        let thread = Thread {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setsigmask(&attributes, &empty)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

            var environment = ProcessInfo.processInfo.environment
            environment["CHIME_LAUNCH"] = reason
            let arguments = command.map { strdup($0) } + [nil]
            let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                arguments.forEach { free($0) }
                variables.forEach { free($0) }
            }
            var child: pid_t = 0
            let status = posix_spawnp(&child, program, nil, &attributes, arguments, variables)
            guard status == 0 else {
                log.warning("cannot launch \(program): \(String(cString: strerror(status)))")
                return
            }
            log.info("launched \(program) (pid \(child), \(reason))")
            var exitStatus: Int32 = 0
            while waitpid(child, &exitStatus, 0) < 0 && errno == EINTR {}
            log.debug("\(program) (pid \(child)) exited")
        }
        thread.name = "chimed.launch"
        thread.start()
    }
}
