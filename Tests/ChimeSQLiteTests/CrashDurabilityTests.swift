import ChimeSQLite
import Foundation
import Testing

/// A process killed with `kill -9` in the middle of a burst of writes loses none that it acknowledged,
/// and leaves a database that passes `PRAGMA integrity_check`.
@Suite("Crash durability")
struct CrashDurabilityTests {
    /// The build's products directory: the test runner sits beside the executables.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The schema of `chime-sqlite-crash-probe`.
    static let migrations = [
        SQLiteMigration(version: 1, name: "probe", sql: "CREATE TABLE probe(id INTEGER PRIMARY KEY, note TEXT NOT NULL)"),
    ]

    /// Runs the probe on `path`, kills it with SIGKILL once it has acknowledged `threshold` writes, and
    /// returns every id it acknowledged before it died. Blocks until the probe has exited.
    func acknowledgedBeforeKill(path: String, threshold: Int) throws -> (ids: [Int], process: Process, errors: String) {
        let process = Process()
        process.executableURL = Self.productsDirectory.appendingPathComponent("chime-sqlite-crash-probe")
        process.arguments = [path, "--writes", "100000", "--concurrency", "32"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        // Blocking reads end either at the threshold or when the probe exits on its own (it stops after
        // 100 000 writes), so the wait is bounded by the probe.
        let reader = output.fileHandleForReading
        var received = Data()
        while received.count(where: { $0 == UInt8(ascii: "\n") }) < threshold {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        received.append(reader.readDataToEndOfFile())
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        // Only whole lines count: a line reaches the pipe in one write, after its COMMIT returned.
        var lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()
        return (lines.compactMap { Int($0) }, process, errorText)
    }

    @Test func everyAcknowledgedWriteSurvivesKillDashNine() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("crash.sqlite")

        let (acknowledged, process, errors) = try acknowledgedBeforeKill(path: path, threshold: 500)
        #expect(errors.isEmpty)
        #expect(process.terminationReason == .uncaughtSignal, "the probe finished before it could be killed")
        #expect(process.terminationStatus == SIGKILL)
        #expect(acknowledged.count >= 500)
        #expect(Set(acknowledged).count == acknowledged.count)

        // Opening checks the file (quick_check) and recovers the write-ahead log the probe left behind.
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        let present = try await database.read { db in
            try db.query("SELECT id FROM probe").compactMap { row -> Int? in
                if case .integer(let id) = row.first { Int(id) } else { nil }
            }
        }
        let missing = Set(acknowledged).subtracting(present)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.sorted().prefix(20))")
        #expect(try await database.read { db in try db.query("PRAGMA integrity_check") } == [["ok"]])
        print("crash durability: \(acknowledged.count) writes acknowledged before kill -9, all present among \(present.count) rows")
    }
}
