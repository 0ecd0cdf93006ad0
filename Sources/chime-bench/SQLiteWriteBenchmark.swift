import ChimeSQLite
import Foundation

/// Measures group commit: the same number of single-row writes to a fresh database file, first one
/// after another (each waits for its own transaction and fsync: the baseline), then all submitted at
/// once (concurrent writes share transactions). Reports both rates, their ratio, and how many
/// transactions the concurrent writes needed.
///
/// Files live in the system's temporary directory, so the figures depend on how fast that disk
/// makes a write durable. Each side runs several rounds on a new file and the fastest round counts.
struct SQLiteWriteBenchmark {
    var writesPerRound = 2_000
    var rounds = 3

    static let migrations = [
        SQLiteMigration(version: 1, name: "event", sql: "CREATE TABLE event(id INTEGER PRIMARY KEY, note TEXT NOT NULL)"),
    ]

    struct Result: Encodable {
        let workload = "sqlite-writes"
        let writes: Int
        let rounds: Int
        /// Baseline: each write awaited before the next is submitted.
        let sequentialWritesPerSecond: Double
        let sequentialTransactions: Int
        /// Every write submitted at once.
        let concurrentWritesPerSecond: Double
        let concurrentTransactions: Int
        /// Concurrent rate divided by sequential rate.
        let speedup: Double
    }

    func run() async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var sequential = (time: Duration.seconds(1_000_000), transactions: 0)
        var concurrent = (time: Duration.seconds(1_000_000), transactions: 0)
        for round in 0..<rounds {
            let one = try await measure(path: directory.appendingPathComponent("sequential-\(round).sqlite").path) { database in
                for id in 0..<writesPerRound {
                    try await database.write { db in try insert(id, db) }
                }
            }
            if one.time < sequential.time { sequential = one }

            let all = try await measure(path: directory.appendingPathComponent("concurrent-\(round).sqlite").path) { database in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for id in 0..<writesPerRound {
                        group.addTask { try await database.write { db in try insert(id, db) } }
                    }
                    try await group.waitForAll()
                }
            }
            if all.time < concurrent.time { concurrent = all }
        }

        let sequentialRate = Double(writesPerRound) / seconds(sequential.time)
        let concurrentRate = Double(writesPerRound) / seconds(concurrent.time)
        return Result(
            writes: writesPerRound, rounds: rounds,
            sequentialWritesPerSecond: sequentialRate.rounded(), sequentialTransactions: sequential.transactions,
            concurrentWritesPerSecond: concurrentRate.rounded(), concurrentTransactions: concurrent.transactions,
            speedup: (concurrentRate / sequentialRate * 10).rounded() / 10)
    }

    /// Opens a new database at `path` (outside the timing), times `work`, and checks every write landed.
    private func measure(
        path: String, _ work: (SQLiteDatabase) async throws -> Void
    ) async throws -> (time: Duration, transactions: Int) {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        let time = try await ContinuousClock().measure { try await work(database) }
        let count = try await database.read { db in try db.query("SELECT count(*) FROM event") }
        precondition(count == [[.integer(Int64(writesPerRound))]], "a write went missing")
        let transactions = database.committedTransactionCount
        await database.close()
        return (time, transactions)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// One benchmark write: a single row.
private func insert(_ id: Int, _ db: SQLiteConnection) throws {
    try db.execute("INSERT INTO event(id, note) VALUES (?, ?)", arguments: [.integer(Int64(id)), "Stand-up in 5 minutes"])
}
