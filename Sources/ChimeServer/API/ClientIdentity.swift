import ChimeAPI
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who is asking, as far as chimed can tell.
///
/// On Linux the Unix user is the trust boundary (as for the session bus): every process of the user holds
/// the token. Within it, two things narrow what a client may do:
/// - An app that says who it is (`Chime-App: <app id>`, which `DaemonClient` sends for apps) is an app
///   connection, and is kept to what an app may do (`AppConfinement`); the CLI and the web page send no
///   such header and act as the user. The header is a client's own word: it keeps honest apps honest.
/// - A sandboxed app cannot choose: a Flatpak app's id is read from `/proc/<pid>/root/.flatpak-info` of
///   the `SO_PEERCRED` pid, as xdg-desktop-portal does, and it is confined to that id whatever it sends.
public enum ClientIdentity: Sendable, Hashable {
    /// The user, through a tool (the CLI, the web page): may act for any app and decide for the user.
    case user
    /// An app, by its own word (`sandboxed: false`) or its sandbox's (`true`).
    case app(String, sandboxed: Bool)

    /// The header an app connection names itself with, its value percent-encoded as a path segment.
    public static let appHeader = "chime-app"

    /// The identity of a request from `pid` on the Unix socket (`nil` on TCP, or when the kernel did not
    /// say) carrying `declaredApp`; `procRoot` is `/proc` but for tests.
    static func resolve(pid: Int32?, declaredApp: String?, procRoot: String) -> ClientIdentity {
        if let pid, let sandboxed = flatpakAppID(pid: pid, procRoot: procRoot) {
            return .app(sandboxed, sandboxed: true)
        }
        if let declaredApp, let app = PercentEncoding.decode(HTTPText.trimmed(declaredApp)), !app.isEmpty {
            return .app(app, sandboxed: false)
        }
        return .user
    }

    /// The `name` of the `[Application]` group of the process's `.flatpak-info` (a key file), or `nil`
    /// when the process is not in a Flatpak sandbox. A file that exists but names no app yields an id no
    /// app has, so the process is confined to nothing rather than trusted.
    static func flatpakAppID(pid: Int32, procRoot: String) -> String? {
        let path = "\(procRoot)/\(pid)/root/.flatpak-info"
        // Asked on every request over the socket, and almost always absent: a bare access(2) answers that
        // in a third of the time a read attempt through FileManager takes (2 µs against 7 here).
        guard access(path, F_OK) == 0, let data = FileManager.default.contents(atPath: path) else { return nil }
        var group = ""
        for rawLine in String(decoding: data.prefix(64 << 10), as: UTF8.self).split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
            } else if group == "Application", let equals = line.firstIndex(of: "="),
                line[..<equals].trimmingCharacters(in: .whitespaces) == "name"
            {
                let name = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                return name.isEmpty ? unnamedSandbox : name
            }
        }
        return unnamedSandbox
    }

    /// The app id of a sandbox whose `.flatpak-info` names none: no route names it (a NUL never reaches a
    /// path parameter), so such a process may act for no app.
    private static let unnamedSandbox = "\u{0}unnamed sandbox"
}
