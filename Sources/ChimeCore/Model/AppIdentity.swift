import Foundation
import Synchronization

/// Which app a process is, for `UNUserNotificationCenter.current()` and the name CoreLocation asks GeoClue in.
///
/// In order: the `CHIME_APP_ID` environment variable (so an operator or a test can run a program as
/// another app); the identifier given to `UNUserNotificationCenter.configureEmbedded(appIdentifier:…)`;
/// the main bundle's identifier (an app with an Info.plist); the executable's file name. Empty values are
/// skipped. Never fails: a process always has an executable.
public enum AppIdentity {
    public static let environmentVariable = "CHIME_APP_ID"
    /// The identifier the app gave (`configureEmbedded(appIdentifier:)`), for every part of the process
    /// that asks later (CoreLocation's permission request names the app as its positions do).
    private static let declared = Mutex<String?>(nil)

    /// Records the identifier the app gave for itself.
    public static func declare(_ identifier: String) {
        declared.withLock { $0 = identifier }
    }

    public static func resolve(explicit: String?, environment: [String: String], bundleIdentifier: String?, executablePath: String?) -> String {
        let executableName = executablePath.map { URL(fileURLWithPath: $0).lastPathComponent }
        let candidates = [environment[environmentVariable], explicit, bundleIdentifier, executableName]
        return candidates.lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "app"
    }

    /// The identity of this process.
    public static func current(explicit: String? = nil) -> String {
        resolve(
            explicit: explicit ?? declared.withLock { $0 }, environment: ProcessInfo.processInfo.environment, bundleIdentifier: Bundle.main.bundleIdentifier,
            executablePath: CommandLine.arguments.first ?? ProcessInfo.processInfo.processName)
    }
}
