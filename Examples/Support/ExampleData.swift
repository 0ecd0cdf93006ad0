public import Foundation

/// Where an example keeps its own files: `$XDG_DATA_HOME/<app identifier>/` (by default
/// `~/.local/share/<app identifier>/`), created on first use.
public enum ExampleData {
    public static func file(_ name: String, appIdentifier: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome: URL
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: value, isDirectory: true)
        } else {
            dataHome = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        let folder = dataHome.appendingPathComponent(appIdentifier, isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }
}
