import Foundation

/// Where the engine reports what an operator should know: handlers that never complete, deliveries
/// that failed, stores that refused a write.
///
/// Messages never contain notification text or user data, only identifiers and error codes.
public protocol EngineLog: Sendable {
    func warning(_ message: String)
    func info(_ message: String)
}

/// Writes to standard error, one line each, prefixed with the level.
public struct StandardErrorLog: EngineLog {
    public init() {}

    public func warning(_ message: String) {
        FileHandle.standardError.write(Data("chime: warning: \(message)\n".utf8))
    }

    public func info(_ message: String) {
        FileHandle.standardError.write(Data("chime: \(message)\n".utf8))
    }
}

/// Discards everything.
public struct SilentLog: EngineLog {
    public init() {}
    public func warning(_ message: String) {}
    public func info(_ message: String) {}
}
