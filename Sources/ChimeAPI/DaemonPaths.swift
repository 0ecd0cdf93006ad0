public import Foundation

/// Where the daemon keeps its files, by the XDG Base Directory rules; the daemon and its clients find
/// each other through the same rules.
///
/// - data: `$XDG_DATA_HOME/chime` (default `~/.local/share/chime`): `chime.sqlite`, `attachments/`,
///   `registry.json`, `daemon.sqlite` (queued responses).
/// - runtime: `$XDG_RUNTIME_DIR/chime` (without it, `/tmp/chime-<uid>`), mode 0700, owned by the user:
///   `chimed.sock` (the API), `token` (mode 0600), `chimed.lock` (held by the one running daemon), `http`
///   (the loopback address, when chimed serves one). Both sides check the folder before trusting it
///   (`RuntimeDirectory`).
public struct DaemonPaths: Sendable, Hashable {
    public var dataDirectory: URL
    public var runtimeDirectory: URL

    public init(dataDirectory: URL, runtimeDirectory: URL) {
        self.dataDirectory = dataDirectory
        self.runtimeDirectory = runtimeDirectory
    }

    /// The paths for `environment` (the process's own by default).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let dataHome: URL
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: value, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        let runtime: URL
        if let value = environment["XDG_RUNTIME_DIR"], value.hasPrefix("/") {
            runtime = URL(fileURLWithPath: value, isDirectory: true).appendingPathComponent("chime", isDirectory: true)
        } else {
            runtime = URL(fileURLWithPath: "/tmp/chime-\(getuid())", isDirectory: true)
        }
        self.init(dataDirectory: dataHome.appendingPathComponent("chime", isDirectory: true), runtimeDirectory: runtime)
    }

    public var storeFile: URL { dataDirectory.appendingPathComponent("chime.sqlite") }
    public var attachmentsDirectory: URL { dataDirectory.appendingPathComponent("attachments", isDirectory: true) }
    public var registryFile: URL { dataDirectory.appendingPathComponent("registry.json") }
    public var responseQueueFile: URL { dataDirectory.appendingPathComponent("daemon.sqlite") }
    public var socketFile: URL { runtimeDirectory.appendingPathComponent("chimed.sock") }
    public var tokenFile: URL { runtimeDirectory.appendingPathComponent("token") }
    public var lockFile: URL { runtimeDirectory.appendingPathComponent("chimed.lock") }
    /// The loopback address chimed serves the API on (`127.0.0.1:PORT`), when it serves one.
    public var httpAddressFile: URL { runtimeDirectory.appendingPathComponent("http") }
}
