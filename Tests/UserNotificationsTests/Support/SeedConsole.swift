import Foundation
import Synchronization

/// What the seeds' code printed. Their `print` calls are how they show what happened (`print("like")`),
/// so this module's `print` records each line; tests wait for and read them.
enum SeedConsole {
    private static let state = Mutex<(lines: [String], unread: Int, waiters: [CheckedContinuation<String, Never>])>(([], 0, []))

    static func record(_ line: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String, Never>? in
            state.lines.append(line)
            if state.waiters.isEmpty {
                state.unread += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: line)
    }

    /// Every line so far.
    static var lines: [String] {
        state.withLock { $0.lines }
    }

    /// Waits for the next line not yet taken.
    static func nextLine() async -> String {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> String? in
                guard state.unread > 0 else {
                    state.waiters.append(continuation)
                    return nil
                }
                state.unread -= 1
                return state.lines[state.lines.count - state.unread - 1]
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Forgets everything printed: each seed test starts with an empty console.
    static func clear() {
        state.withLock { state in
            state.lines = []
            state.unread = 0
        }
    }
}

/// Shadows `Swift.print` in this test module: records the line instead of writing it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    SeedConsole.record(items.map { "\($0)" }.joined(separator: separator))
}
