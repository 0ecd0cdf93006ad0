public import ChimeEngine
import Foundation

/// The daemon's log on standard error: `2026-01-02T03:04:05.678Z chimed: info: message`.
///
/// Debug lines appear only with `--verbose`. Messages carry identifiers and error codes, and notification
/// text only where the log is the screen (`LogPresenter`); control characters in them are escaped
/// (`LogText`), so a message is one line.
/// Thread-safe: each line is one `write(2)`.
public struct DaemonLog: EngineLog {
    public let verbose: Bool

    public init(verbose: Bool) {
        self.verbose = verbose
    }

    public func error(_ message: String) { write("error", message) }
    public func warning(_ message: String) { write("warning", message) }
    public func info(_ message: String) { write("info", message) }
    public func debug(_ message: String) {
        if verbose { write("debug", message) }
    }

    private func write(_ level: String, _ message: String) {
        let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        FileHandle.standardError.write(Data("\(stamp) chimed: \(level): \(LogText.escaped(message))\n".utf8))
    }
}
