import ChimeCore
import ChimeEngine
import ChimeSQLite
import Foundation
import Synchronization

// What the engine workloads (burst, scale) share: a scratch folder, a presenter that timestamps in memory,
// the requests they add, the raw SQLite floor, and small readings of the process and the clock.

/// A fresh folder under the system's temporary directory for one workload's database files.
///
/// Removed by `remove()`, which the workloads call when they finish, and again when it goes away, so a
/// failed run leaves nothing behind either.
final class ScratchFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes a database file with its write-ahead log and shared-memory index.
    func removeDatabase(_ name: String) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path(name) + suffix)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}

/// A presenter that notes when `present` was called and for which notification, in memory.
///
/// Printing or writing each presentation would cost more than the engine's own work and distort the
/// lateness being measured; the timestamp is taken first thing in `present`.
final class TimestampingPresenter: NotificationPresenter {
    struct Shown: Sendable {
        /// When the engine called `present`.
        let presentedAt: Date
        let identifier: String
        /// The fire date the trigger asked for.
        let scheduledDate: Date?
    }

    private let shown: Mutex<[Shown]>

    init(expecting count: Int = 0) {
        var shown: [Shown] = []
        shown.reserveCapacity(count)
        self.shown = Mutex(shown)
    }

    func present(_ presentation: Presentation) async {
        let now = Date()
        let entry = Shown(presentedAt: now, identifier: presentation.notificationIdentifier, scheduledDate: presentation.scheduledDate)
        shown.withLock { $0.append(entry) }
    }

    func withdraw(appIdentifier: String, identifiers: [String]) async {}

    func updateBadge(appIdentifier: String, count: Int) async {}

    var count: Int { shown.withLock { $0.count } }

    /// Every presentation so far, in the order `present` was called.
    var all: [Shown] { shown.withLock { $0 } }

    /// Waits until `count` presentations were made or `deadline` passed, checking every millisecond;
    /// returns whether the count was reached.
    func wait(forCount count: Int, until deadline: Date) async throws -> Bool {
        while self.count < count {
            if Date() >= deadline { return false }
            try await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}

/// The requests the engine workloads add: an app's reminders with a title, a body, the default sound, a
/// thread and a little user info, as an app would schedule them.
enum BenchRequests {
    static let appIdentifier = "com.example.bench"

    static func reminder(_ index: Int, prefix: String, firingIn interval: TimeInterval) throws -> NotificationRequest {
        var content = NotificationContent(
            title: "Reminder \(index)", body: "Stand-up in 5 minutes: room 4.2, bring the release notes")
        content.sound = .default
        content.threadIdentifier = "team-\(index % 16)"
        content.userInfo = ["reminderID": .int(index)]
        return try NotificationRequest(
            identifier: "\(prefix)-\(index)", content: content,
            trigger: .timeInterval(TimeIntervalTrigger(timeInterval: max(interval, 0.001), repeats: false)))
    }
}

/// The raw SQLite floor: the rows a store wrote to its `pending` table, copied into a fresh file with the
/// store's own schema through `SQLiteDatabase` (WAL, `synchronous=FULL`, the store's connection settings)
/// with the statement the store uses, a fixed number of rows per transaction.
///
/// The rows are read back from the store's file, so the floor writes exactly the bytes the store wrote
/// (keys, dates and encoded request blobs), in primary-key order. Only the write transactions are timed;
/// reading the rows back, which the store never has to do, is not.
struct RawFloor {
    var rowsPerTransaction = 10_000

    struct Result: Encodable {
        let rows: Int
        let rowsPerTransaction: Int
        let transactions: Int
        let rowsPerSecond: Double
    }

    /// The store's schema was created by `SQLiteNotificationStore`; declaring its versions known lets a
    /// plain `SQLiteDatabase` open the file without migrating it.
    static let storeSchema = (1...SQLiteNotificationStore.schemaVersion).map { version in
        SQLiteMigration(version: version, name: "created by SQLiteNotificationStore") { _ throws(SQLiteError) in }
    }

    static let insert = """
        INSERT OR REPLACE INTO pending (app_id, request_id, added, next_fire, floating_calendar, request) VALUES (?, ?, ?, ?, ?, ?)
        """

    /// Copies every pending row of the (closed) store at `source` into a new file at `destination`.
    func measure(copyingPendingRowsOf source: String, into destination: String, progress: Progress? = nil) async throws -> Result {
        let created = try await SQLiteNotificationStore(path: destination)
        await created.close()
        let unchecked = SQLiteDatabase.Configuration(checksIntegrityOnOpen: false)
        let from = try await SQLiteDatabase(path: source, migrations: Self.storeSchema, configuration: unchecked)
        let to = try await SQLiteDatabase(path: destination, migrations: Self.storeSchema, configuration: unchecked)

        let clock = ContinuousClock()
        var elapsed = Duration.zero
        var rows = 0
        var last: (app: String, request: String)?
        let limit = rowsPerTransaction
        while true {
            let after = last
            let chunk = try await from.read { db in
                if let after {
                    return try db.query(
                        """
                        SELECT app_id, request_id, added, next_fire, floating_calendar, request FROM pending
                        WHERE (app_id, request_id) > (?, ?) ORDER BY app_id, request_id LIMIT ?
                        """, arguments: [.text(after.app), .text(after.request), .integer(Int64(limit))])
                }
                return try db.query(
                    "SELECT app_id, request_id, added, next_fire, floating_calendar, request FROM pending ORDER BY app_id, request_id LIMIT ?",
                    arguments: [.integer(Int64(limit))])
            }
            guard let final = chunk.last else { break }
            guard case .text(let app) = final[0], case .text(let request) = final[1] else {
                throw SQLiteError(.corrupt, "a pending row without text keys")
            }
            last = (app, request)
            let start = clock.now
            try await to.write { db in
                let insert = try db.prepare(Self.insert)
                for row in chunk { try insert.run(row) }
            }
            elapsed += clock.now - start
            rows += chunk.count
            progress?.note("raw floor: \(rows) rows")
        }
        let transactions = to.committedTransactionCount
        await from.close()
        await to.close()
        return Result(
            rows: rows, rowsPerTransaction: rowsPerTransaction, transactions: transactions,
            rowsPerSecond: (Double(rows) / elapsed.seconds).rounded())
    }
}

/// What a fire's lateness cannot go below on this machine, measured in the same run: how late the clock
/// wakes a sleeper, and how long one durable commit takes. The engine sleeps until a fire's date, then
/// records the delivery in a synced transaction before it presents it.
struct LatenessFloor {
    var clockSamples = 500
    var commitSamples = 1_000

    struct Result: Encodable {
        let clockSamples: Int
        /// `SystemClock.sleep(until:)` returning after its deadline, milliseconds.
        let clockOvershootP50Milliseconds: Double
        let clockOvershootP99Milliseconds: Double
        let clockOvershootMaxMilliseconds: Double
        let commitSamples: Int
        /// One single-row `SQLiteDatabase.write` (WAL, synchronous=FULL) awaited alone, milliseconds.
        let commitP50Milliseconds: Double
        let commitP99Milliseconds: Double
        let commitMaxMilliseconds: Double
    }

    func measure(path: String) async throws -> Result {
        let clock = SystemClock()
        var overshoots: [Double] = []
        for sample in 0..<clockSamples {
            let deadline = Date().addingTimeInterval(0.003 + Double(sample % 7) * 0.001)
            try await clock.sleep(until: deadline)
            overshoots.append(Date().timeIntervalSince(deadline) * 1000)
        }

        let database = try await SQLiteDatabase(path: path, migrations: [
            SQLiteMigration(version: 1, name: "commits", sql: "CREATE TABLE commits(id INTEGER PRIMARY KEY, note TEXT NOT NULL)")
        ])
        var commits: [Double] = []
        let monotonic = ContinuousClock()
        for sample in 0..<commitSamples {
            let elapsed = try await monotonic.measure {
                try await database.write { db in
                    try db.execute("INSERT INTO commits(id, note) VALUES (?, ?)", arguments: [.integer(Int64(sample)), "Stand-up in 5 minutes"])
                }
            }
            commits.append(elapsed.seconds * 1000)
        }
        await database.close()

        overshoots.sort()
        commits.sort()
        return Result(
            clockSamples: clockSamples,
            clockOvershootP50Milliseconds: Statistics.percentile(0.5, of: overshoots).rounded(places: 3),
            clockOvershootP99Milliseconds: Statistics.percentile(0.99, of: overshoots).rounded(places: 3),
            clockOvershootMaxMilliseconds: overshoots[overshoots.count - 1].rounded(places: 3),
            commitSamples: commitSamples,
            commitP50Milliseconds: Statistics.percentile(0.5, of: commits).rounded(places: 3),
            commitP99Milliseconds: Statistics.percentile(0.99, of: commits).rounded(places: 3),
            commitMaxMilliseconds: commits[commits.count - 1].rounded(places: 3))
    }
}

/// Notes on standard error for long phases, at most one a second unless forced.
final class Progress: Sendable {
    private let workload: String
    private let started = ContinuousClock.now
    private let lastNote = Mutex(ContinuousClock.now - .seconds(10))

    init(workload: String) {
        self.workload = workload
    }

    func note(_ message: String, force: Bool = false) {
        let now = ContinuousClock.now
        let due = lastNote.withLock { last in
            guard force || now - last >= .seconds(1) else { return false }
            last = now
            return true
        }
        guard due else { return }
        let elapsed = String(format: "%7.1f s", (now - started).seconds)
        FileHandle.standardError.write(Data("chime-bench \(workload) [\(elapsed)] \(message)\n".utf8))
    }
}

/// Readings of this process from `/proc/self/status`.
enum ProcessMemory {
    /// Resident memory now (`VmRSS`), in MiB; -1 if it cannot be read.
    static var residentMegabytes: Double { megabytes("VmRSS:") }

    /// The most resident memory so far (`VmHWM`), in MiB.
    static var peakResidentMegabytes: Double { megabytes("VmHWM:") }

    private static func megabytes(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return -1 }
        return (kilobytes / 1024 * 10).rounded() / 10
    }
}

/// Summary statistics of a sample.
enum Statistics {
    /// The nearest-rank percentile `p` (0…1) of `sorted`, which must be sorted ascending and not empty.
    static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty, "no values")
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Double {
    /// Rounded to `places` decimal places, for printing.
    func rounded(places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

/// A benchmark's target and whether the run met it.
struct TargetCheck: Encodable {
    let target: String
    let measured: Double
    let met: Bool

    static func atLeast(_ bound: Double, _ measured: Double) -> TargetCheck {
        TargetCheck(target: ">= \(bound)", measured: measured, met: measured >= bound)
    }

    static func atMost(_ bound: Double, _ measured: Double) -> TargetCheck {
        TargetCheck(target: "<= \(bound)", measured: measured, met: measured <= bound)
    }
}

/// The size of a file in MiB, 0 when it does not exist.
func fileMegabytes(_ path: String) -> Double {
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
    return (bytes / 1_048_576).rounded(places: 1)
}

/// A run that could not produce its figures.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
