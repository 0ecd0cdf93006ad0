import ChimeEngine
public import ChimeAPI
public import Foundation
import Synchronization

/// The apps the daemon knows (identifier, display name, icon, launch command) and the user's focus switch,
/// kept in `registry.json` next to the store.
///
/// A JSON file rather than a table: it is small, read whole, and people edit it by hand (a launch
/// command, an icon) and then send SIGHUP; `reload()` re-reads it. Every change is written to a temporary
/// file, flushed with `fsync`, and renamed over the old one, so a crash leaves either version whole.
///
/// Thread-safe: the state sits behind a lock, so the desktop presenter's name lookups can read it from
/// any thread.
public final class AppRegistry: Sendable {
    struct Contents: Codable, Sendable {
        var apps: [AppEntry] = []
        var focus: Bool = false
    }

    public let file: URL
    private let contents: Mutex<Contents>

    /// Reads `file`; a missing file is an empty registry.
    public init(file: URL) throws {
        self.file = file
        contents = Mutex(try Self.read(file))
    }

    private static func read(_ file: URL) throws -> Contents {
        guard FileManager.default.fileExists(atPath: file.path) else { return Contents() }
        return try JSONDecoder().decode(Contents.self, from: Data(contentsOf: file))
    }

    /// Re-reads the file (after someone edited it).
    public func reload() throws {
        let fresh = try Self.read(file)
        contents.withLock { $0 = fresh }
    }

    public var apps: [AppEntry] { contents.withLock { $0.apps } }
    public var focus: Bool { contents.withLock { $0.focus } }

    public func entry(_ identifier: String) -> AppEntry? {
        contents.withLock { $0.apps.first { $0.identifier == identifier } }
    }

    /// Adds or replaces an app's entry.
    public func register(_ entry: AppEntry) throws {
        try change { contents in
            if let index = contents.apps.firstIndex(where: { $0.identifier == entry.identifier }) {
                contents.apps[index] = entry
            } else {
                contents.apps.append(entry)
            }
        }
    }

    /// Makes sure the app is listed (an app that talks to the daemon without registering).
    public func note(_ identifier: String) throws {
        guard entry(identifier) == nil else { return }
        try change { contents in
            if !contents.apps.contains(where: { $0.identifier == identifier }) { contents.apps.append(AppEntry(identifier: identifier)) }
        }
    }

    public func setFocus(_ on: Bool) throws {
        try change { $0.focus = on }
    }

    /// Applies `body` and writes the result; nothing changes in memory when writing fails.
    private func change(_ body: (inout Contents) -> Void) throws {
        try contents.withLock { contents in
            var updated = contents
            body(&updated)
            try Self.write(updated, to: file)
            contents = updated
        }
    }

    private static func write(_ contents: Contents, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try DurableFile.replace(file, with: try encoder.encode(contents), mode: 0o600)
    }
}
