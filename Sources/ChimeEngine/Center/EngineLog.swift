import Foundation

/// Where the engine reports what an operator should know: handlers that never complete, deliveries
/// that failed, stores that refused a write.
///
/// Messages never contain notification text or user data, only identifiers and error codes.
public protocol EngineLog: Sendable {
    func warning(_ message: String)
    func info(_ message: String)
    /// Detail for someone tracing a problem (which mode a center chose, ...); dropped by default.
    func debug(_ message: String)
}

extension EngineLog {
    public func debug(_ message: String) {}
}

/// Writes to standard error, one line each (control characters escaped, `LogText`), prefixed with the
/// level; debug lines only when the environment variable `CHIME_DEBUG` is set to `1`.
public struct StandardErrorLog: EngineLog {
    private let includesDebug: Bool

    public init() {
        includesDebug = ProcessInfo.processInfo.environment["CHIME_DEBUG"] == "1"
    }

    public func debug(_ message: String) {
        if includesDebug { FileHandle.standardError.write(Data("chime: debug: \(LogText.escaped(message))\n".utf8)) }
    }

    public func warning(_ message: String) {
        FileHandle.standardError.write(Data("chime: warning: \(LogText.escaped(message))\n".utf8))
    }

    public func info(_ message: String) {
        FileHandle.standardError.write(Data("chime: \(LogText.escaped(message))\n".utf8))
    }
}

/// Discards everything.
public struct SilentLog: EngineLog {
    public init() {}
    public func warning(_ message: String) {}
    public func info(_ message: String) {}
}
