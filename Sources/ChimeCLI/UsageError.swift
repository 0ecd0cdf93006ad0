/// A command line the user must correct: an unknown command or option, a missing or malformed value.
///
/// Printed with the command's usage line and mapped to exit code 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// The command whose usage applies (`"next"`), or `nil` for the top level.
    public let command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}

/// Process exit statuses, in one place: 0 success, 1 failure, 64 usage error (as `sysexits.h`); and how
/// `chime add --wait` ended without an action, as `zenity` and `notify-send -A` scripts test them.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// `--wait`: the user dismissed the notification.
    case dismissed = 2
    /// `--wait`: the notification was removed without a response.
    case removed = 3
    /// `--wait`: no response within `--timeout` (zenity's code for a timeout).
    case timedOut = 5
    case usage = 64
}

/// A command that ended with an outcome other than success, and what it printed: `chime add --wait` when
/// the user dismissed the notification, or it went away unanswered.
struct CommandOutcome: Error {
    let exitCode: ExitCode
    let output: String
}
