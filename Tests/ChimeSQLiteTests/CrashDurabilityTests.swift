import ChimeSQLite
import ChimeTestSupport
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
    /// returns every id it acknowledged before it died, and how it ended.
    func acknowledgedBeforeKill(path: String, threshold: Int) async throws -> (ids: [Int], termination: Subprocess.Termination, errors: [String]) {
        let probe = try ChildProcess(
            Self.productsDirectory.appendingPathComponent("chime-sqlite-crash-probe").path, [path, "--writes", "10000000", "--concurrency", "32"],
            name: "chime-sqlite-crash-probe")
        // Ten million writes take the probe minutes, far longer than reaching the threshold, so it is still
        // writing when it is killed even when this process is slow to read its output (a busy machine once
        // let it finish 100,000 first); the wait ends at the threshold, or when the probe ended by itself.
        try? await eventually("\(threshold) writes acknowledged", within: 120) {
            probe.output.hasEnded || probe.output.lines.count >= threshold
        }
        probe.signal(SIGKILL)
        let termination = await probe.termination()
        _ = try await probe.output.allLines(within: 30)
        let errors = try await probe.errors.allLines(within: 30)
        // Only whole lines count: a line reaches the pipe in one write, after its COMMIT returned.
        return (probe.output.wholeLines.compactMap { Int($0) }, termination, errors)
    }

    @Test func everyAcknowledgedWriteSurvivesKillDashNine() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("crash.sqlite")

        let (acknowledged, termination, errors) = try await acknowledgedBeforeKill(path: path, threshold: 500)
        #expect(errors.isEmpty)
        #expect(termination == .signaled(SIGKILL), "the probe finished before it could be killed")
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
