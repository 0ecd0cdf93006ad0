public import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
        let runtime: URL
        if let value = environment["XDG_RUNTIME_DIR"], value.hasPrefix("/") {
            runtime = URL(fileURLWithPath: value, isDirectory: true).appendingPathComponent("chime", isDirectory: true)
        } else {
            runtime = URL(fileURLWithPath: "/tmp/chime-\(getuid())", isDirectory: true)
        }
        self.init(dataDirectory: Self.dataDirectory(environment: environment), runtimeDirectory: runtime)
    }

    /// Chime's data folder, the one rule for the daemon and for embedded apps alike:
    /// `$XDG_DATA_HOME/chime` when `XDG_DATA_HOME` is an absolute path (the specification says to ignore a
    /// relative one), else `$HOME/.local/share/chime` when `HOME` is absolute, else the same under the
    /// home folder of the user's account (`homeDirectory`, from the password database by default).
    public static func dataDirectory(environment: [String: String], homeDirectory: @autoclosure () -> String = accountHomeDirectory()) -> URL {
        let dataHome: URL
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: value, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? homeDirectory()
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent("chime", isDirectory: true)
    }

    /// The home folder of this process's user in the password database (`/` when it has none).
    public static func accountHomeDirectory() -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else { return "/" }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : "/"
    }

    public var storeFile: URL { dataDirectory.appendingPathComponent("chime.sqlite") }
    public var attachmentsDirectory: URL { dataDirectory.appendingPathComponent("attachments", isDirectory: true) }
    public var registryFile: URL { dataDirectory.appendingPathComponent("registry.json") }
    public var responseQueueFile: URL { dataDirectory.appendingPathComponent("daemon.sqlite") }
    /// The loopback port the last run served, taken again when any port will do (`--http 127.0.0.1:0`), so
    /// the web center keeps its address: a browser's pushes, permission and bookmarks belong to it.
    public var httpPortFile: URL { dataDirectory.appendingPathComponent("http-port") }
    /// The APNs-compatible endpoint's provider key (its public half) and the secret of the apps' device tokens.
    public var apnsFile: URL { dataDirectory.appendingPathComponent("apns.json") }
    /// The daemon's Web Push key and the browsers that subscribed to its pushes.
    public var webPushFile: URL { dataDirectory.appendingPathComponent("web-push.json") }
    public var socketFile: URL { runtimeDirectory.appendingPathComponent("chimed.sock") }
    public var tokenFile: URL { runtimeDirectory.appendingPathComponent("token") }
    public var lockFile: URL { runtimeDirectory.appendingPathComponent("chimed.lock") }
    /// The loopback address chimed serves the API on (`127.0.0.1:PORT`), when it serves one.
    public var httpAddressFile: URL { runtimeDirectory.appendingPathComponent("http") }
}
