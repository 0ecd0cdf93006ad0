import ChimeEngine
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Private files")
struct PrivateFilesTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func temporaryFolder() throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("private-files-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func missingFoldersAreCreatedPrivateAndExistingOnesLeftAlone() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        chmod(root.path, 0o755)
        let deep = root.appendingPathComponent("share/chime/attachments")
        try PrivateFiles.makeFolder(deep)
        #expect(Self.mode(root.path) == 0o755, "a folder that was there is not changed")
        for path in ["share", "share/chime", "share/chime/attachments"] {
            #expect(Self.mode(root.appendingPathComponent(path).path) == 0o700, "\(path)")
        }
        try PrivateFiles.makeFolder(deep)  // again: nothing to do, no error
    }

    @Test func aFileInTheWayIsAClearError() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("x".utf8).write(to: root.appendingPathComponent("chime"))
        #expect(throws: PrivateFiles.Failure.self) { try PrivateFiles.makeFolder(root.appendingPathComponent("chime")) }
        do {
            try PrivateFiles.makeFolder(root.appendingPathComponent("chime/attachments"))
            Issue.record("a folder was made under a file")
        } catch {
            #expect(error.description.contains("not a folder") || error.description.contains("Not a directory"), "\(error)")
        }
    }

    @Test func filesAreCreatedPrivateAndNeverReplaced() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let previous = umask(0)
        defer { umask(previous) }
        let file = root.appendingPathComponent("store")
        #expect(try PrivateFiles.makeFile(file))
        #expect(Self.mode(file.path) == 0o600)
        try Data("kept".utf8).write(to: file)
        #expect(try !PrivateFiles.makeFile(file))
        #expect(try String(contentsOf: file, encoding: .utf8) == "kept")
    }

    @Test func anOpenTreeIsNarrowedWithoutFollowingLinks() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: outside.appendingPathComponent("file"))
        chmod(outside.path, 0o755)
        chmod(outside.appendingPathComponent("file").path, 0o644)
        let data = root.appendingPathComponent("chime")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("apps"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: data.appendingPathComponent("apps/a.sqlite"))
        try Data("x".utf8).write(to: data.appendingPathComponent("chime.sqlite"))
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("linked-folder"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("linked-file"), withDestinationURL: outside.appendingPathComponent("file"))
        chmod(data.path, 0o755)
        chmod(data.appendingPathComponent("apps").path, 0o775)
        chmod(data.appendingPathComponent("apps/a.sqlite").path, 0o664)
        chmod(data.appendingPathComponent("chime.sqlite").path, 0o644)

        #expect(PrivateFiles.repair(data) == 4)
        #expect(Self.mode(data.path) == 0o700)
        #expect(Self.mode(data.appendingPathComponent("apps").path) == 0o700)
        #expect(Self.mode(data.appendingPathComponent("apps/a.sqlite").path) == 0o600)
        #expect(Self.mode(data.appendingPathComponent("chime.sqlite").path) == 0o600)
        #expect(Self.mode(outside.path) == 0o755)
        #expect(Self.mode(outside.appendingPathComponent("file").path) == 0o644)
        #expect(PrivateFiles.repair(data) == 0, "a private folder needs nothing")
    }
}
