import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a user sees when the disk under chimed's data is full, and when a file they name cannot be read:
/// what happened and what to do, typed, never an internal string.
@Suite("chimed: a full disk and unreadable files", .serialized)
struct DaemonStorageTests {
    func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: Date(), currentTimeZone: .gmt, paths: home.paths)
    }

    /// The data folder on a 2 MiB file system of its own (a tmpfs; the tests run as root), then filled.
    @Test func aFullDiskIsSaidAsSuchAndNothingChanges() async throws {
        let home = try DaemonHome()
        let data = home.root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let mount = try await Subprocess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", data.path])
        try #require(mount.status == 0, "mounting a tmpfs needs root: \(mount.standardError)")
        defer { umount2(data.path, 2) }  // MNT_DETACH: also while the daemon still holds files there
        let daemon = try await home.start()
        #expect(await chime(["add", "--app", "com.example.notes", "--id", "first", "--title", "First", "--in", "1h"], home).exitCode == .success)

        // Fill the file system to the last byte.
        let filler = data.appendingPathComponent("filler")
        _ = try await Subprocess.run("/bin/dd", ["if=/dev/zero", "of=\(filler.path)", "bs=64k"])
        let added = await chime(["add", "--app", "com.example.notes", "--id", "second", "--title", String(repeating: "x", count: 20_000), "--in", "1h"], home)
        #expect(added.exitCode == .failure)
        #expect(added.standardError == "chime: error: the disk that holds Chime's data is full; free some space and try again; nothing was changed\n")
        let registered = await chime(["apps", "register", "com.example.notes", "--name", "Notes"], home)
        #expect(registered.standardError.contains("the disk that holds Chime's data is full"), "\(registered.standardError)")

        try FileManager.default.removeItem(at: filler)
        let pending = await chime(["pending", "--json"], home)
        let items = try JSONSerialization.jsonObject(with: Data(pending.standardOutput.utf8)) as? [[String: Any]]
        #expect(items?.compactMap { $0["identifier"] as? String } == ["first"], "the refused add left nothing")
        #expect(await chime(["add", "--app", "com.example.notes", "--id", "second", "--title", "Second", "--in", "1h"], home).exitCode == .success)
        #expect(await daemon.terminate() == 0)
    }

    @Test func aFileThatCannotBeReadIsNamedWithTheReason() async throws {
        let home = try DaemonHome()
        let fifo = home.root.appendingPathComponent("payload.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = home.root.appendingPathComponent("categories").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let daemon = try await home.start()
        let cases: [([String], String)] = [
            (["add", "--payload", fifo], "\(fifo) is a pipe (FIFO), not a file; write its content to a file first"),
            (["add", "--payload", home.root.appendingPathComponent("missing.json").path], "\(home.root.path)/missing.json does not exist"),
            (["categories", "set", folder, "--app", "com.example.notes"], "\(folder) is a folder, not a file"),
        ]
        for (arguments, message) in cases {
            let result = await chime(arguments, home)
            #expect(result.exitCode == .failure)
            #expect(result.standardError == "chime: error: \(message)\n")
        }
        #expect(await daemon.terminate() == 0)
    }
}

extension DaemonStorageTests {
    /// chimed started on a data folder whose file system is read-only says so and what to do, and exits.
    @Test func aReadOnlyDataFolderIsSaidAsSuch() async throws {
        let home = try DaemonHome()
        let data = home.root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let mount = try await Subprocess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", data.path])
        try #require(mount.status == 0, "mounting a tmpfs needs root: \(mount.standardError)")
        defer { umount2(data.path, 2) }
        let daemon = try ChildProcess(DaemonHome.executable, ["--presenter", "log"], environment: home.environment, name: "chimed")
        #expect(await daemon.exitStatus() == 1)
        let lines = try await daemon.errors.allLines()
        #expect(lines.contains { $0.contains("Chime's data folder is on a read-only file system; remount it writable or point XDG_DATA_HOME elsewhere") },
            "\(lines)")
    }
}
