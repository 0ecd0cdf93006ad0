#if !canImport(Darwin)
import Foundation

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
