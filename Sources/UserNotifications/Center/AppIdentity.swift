#if !canImport(Darwin)
import Foundation

/// Which app a process is, for `UNUserNotificationCenter.current()`.
///
/// In order: the `CHIME_APP_ID` environment variable (so an operator or a test can run a program as
/// another app); the identifier given to `UNUserNotificationCenter.configureEmbedded(appIdentifier:…)`;
/// the main bundle's identifier (an app with an Info.plist); the executable's file name. Empty values are
/// skipped. Never fails: a process always has an executable.
enum AppIdentity {
    static let environmentVariable = "CHIME_APP_ID"

    static func resolve(explicit: String?, environment: [String: String], bundleIdentifier: String?, executablePath: String?) -> String {
        let executableName = executablePath.map { URL(fileURLWithPath: $0).lastPathComponent }
        let candidates = [environment[environmentVariable], explicit, bundleIdentifier, executableName]
        return candidates.lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "app"
    }

    /// The identity of this process.
    static func current(explicit: String?) -> String {
        resolve(
            explicit: explicit, environment: ProcessInfo.processInfo.environment, bundleIdentifier: Bundle.main.bundleIdentifier,
            executablePath: CommandLine.arguments.first ?? ProcessInfo.processInfo.processName)
    }
}

/// Where the embedded engine keeps its data: in Chime's data folder (`DaemonPaths.dataDirectory`, the
/// same rule as the daemon's), one store per app.
enum EmbeddedPaths {
    /// One store file per app: an embedded engine schedules every app of its store, so apps that shared a
    /// file would each present the others' notifications. (The daemon, which serves every app of a user,
    /// owns one shared store.)
    static func store(in directory: URL, appIdentifier: String) -> URL {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-_.")
        var name = appIdentifier.addingPercentEncoding(withAllowedCharacters: allowed) ?? "app"
        if name.hasPrefix(".") { name = "%2E" + name.dropFirst() }
        return directory.appendingPathComponent("apps", isDirectory: true).appendingPathComponent(name + ".sqlite")
    }

    static func attachments(in directory: URL) -> URL {
        directory.appendingPathComponent("attachments", isDirectory: true)
    }
}
#endif
