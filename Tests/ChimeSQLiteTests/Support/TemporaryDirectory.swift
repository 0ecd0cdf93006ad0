import Foundation

/// A fresh directory under the system's temporary directory, removed with its contents on deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sqlite-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The bytes of the file `name`.
    func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(name))
    }

    /// Writes `bytes` to the file `name`, replacing it.
    func write(_ bytes: Data, to name: String) throws {
        try bytes.write(to: url.appendingPathComponent(name))
    }
}
