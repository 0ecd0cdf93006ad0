import ChimeEngine
import ChimeSQLite
import Foundation
import Synchronization

/// The simplest durable fire loop, the same-run baseline for the engine's lateness: one table of due
/// dates on `SQLiteDatabase` (WAL, `synchronous=FULL`, as the store), and one loop that sleeps on the same
/// `SystemClock` until the earliest due date, then in one write transaction selects up to `claimLimit` rows
/// due by now, hands each off (its lateness is taken at that instant), deletes them and commits.
///
/// It is what a team writes in an afternoon (the Python version of it is in BENCHMARKS.md): it hands a
/// fire off before its delete is durable, so a crash may show it again — at least once, where the engine
/// promises exactly once. It knows nothing of triggers, apps, settings or presentation: the engine's
/// lateness above this loop's is the price of everything else it does.
///
/// The rows are those of the burst's lateness run: `requests` one-shot dates spread evenly over
/// `window`, starting three seconds after they are added, added in shuffled order in transactions of
/// 1,000 rows while the loop runs (it polls for an earlier date every 50 ms while it sleeps).
struct DurableFireLoop {
    var requests = 100_000
    var window: TimeInterval = 10
    var claimLimit = 1_000
    /// How long after the last due date the loop may still hand off rows before the rest count as lost.
    var grace: TimeInterval = 30

    struct Result: Encodable {
        let requests: Int
        let claimLimit: Int
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let maxMilliseconds: Double
        /// Rows never handed off before the grace period ended.
        let lost: Int
        /// Hand-offs beyond the first of a row.
        let duplicated: Int
    }

    /// Hand-offs, kept by the write transaction that claims them.
    private final class HandOffs: Sendable {
        private let entries = Mutex<[(id: Int64, lateness: Double)]>([])
        func record(_ batch: [(id: Int64, lateness: Double)]) { entries.withLock { $0.append(contentsOf: batch) } }
        var all: [(id: Int64, lateness: Double)] { entries.withLock { $0 } }
        var count: Int { entries.withLock { $0.count } }
    }

    func measure(path: String) async throws -> Result {
        let database = try await SQLiteDatabase(path: path, migrations: [
            SQLiteMigration(
                version: 1, name: "due", sql: "CREATE TABLE due(id INTEGER PRIMARY KEY, due REAL NOT NULL); CREATE INDEX due_by_date ON due(due)")
        ])
        let handOffs = HandOffs()
        let clock = SystemClock()
        let limit = claimLimit
        let total = requests
        let loop = Task {
            while !Task.isCancelled, handOffs.count < total {
                let earliest = try await database.read { db in
                    try db.query("SELECT min(due) FROM due").first.flatMap { row -> Double? in
                        if case .real(let date) = row[0] { return date }
                        return nil
                    }
                }
                let poll = Date().addingTimeInterval(0.05)
                let wake = earliest.map { min(Date(timeIntervalSince1970: $0), poll) } ?? poll
                try await clock.sleep(until: wake)
                try await database.write { db in
                    let now = Date().timeIntervalSince1970
                    let rows = try db.query("SELECT id, due FROM due WHERE due <= ? ORDER BY due LIMIT ?", arguments: [.real(now), .integer(Int64(limit))])
                    guard !rows.isEmpty else { return }
                    // Handed off here, before the delete commits: the loop's promise is at least once.
                    let handed = Date().timeIntervalSince1970
                    var batch: [(id: Int64, lateness: Double)] = []
                    batch.reserveCapacity(rows.count)
                    for row in rows {
                        guard case .integer(let id) = row[0], case .real(let due) = row[1] else { throw SQLiteError(.corrupt, "a due row without its id and date") }
                        batch.append((id, (handed - due) * 1000))
                    }
                    handOffs.record(batch)
                    let delete = try db.prepare("DELETE FROM due WHERE id = ?")
                    for entry in batch { try delete.run([.integer(entry.id)]) }
                }
            }
        }

        let t0 = Date().addingTimeInterval(3)
        let insert = 1_000
        for first in stride(from: 0, to: requests, by: insert) {
            try await database.write { db in
                let statement = try db.prepare("INSERT INTO due(id, due) VALUES (?, ?)")
                for position in first..<min(first + insert, total) {
                    // A fixed permutation of the indices: added out of due order, as the engine's are.
                    let index = position * 7_919 % total
                    try statement.run([.integer(Int64(index)), .real(t0.timeIntervalSince1970 + Double(index) * window / Double(total))])
                }
            }
        }

        let deadline = t0.addingTimeInterval(window + grace)
        while handOffs.count < requests, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        loop.cancel()
        _ = await loop.result
        await database.close()

        let all = handOffs.all
        let lateness = all.map(\.lateness).sorted()
        guard !lateness.isEmpty else { throw BenchmarkFailure("durable loop: nothing was handed off") }
        let unique = Set(all.map(\.id))
        return Result(
            requests: requests, claimLimit: claimLimit,
            p50Milliseconds: Statistics.percentile(0.5, of: lateness).rounded(places: 2),
            p99Milliseconds: Statistics.percentile(0.99, of: lateness).rounded(places: 2),
            maxMilliseconds: lateness[lateness.count - 1].rounded(places: 2),
            lost: requests - unique.count, duplicated: all.count - unique.count)
    }
}
