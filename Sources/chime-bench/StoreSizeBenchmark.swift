import ChimeCore
import ChimeEngine
import ChimeSQLite
import ChimeStoreCoding
import Foundation

/// What a pending reminder costs on disk: `--requests` typical reminders (a title, a body, a daily
/// calendar trigger) added to a fresh SQLite store through the engine, in batches as an app adds them;
/// then the store is closed (its log checkpointed into the file) and the file's bytes are divided by
/// the count. SQLite's `dbstat` table splits the bytes between the pending table and each index, and says
/// how full their pages are. Sizes do not depend on the build or the machine's load, so one run says it.
struct StoreSizeBenchmark {
    var requests = 100_000
    var batchSize = 1_000

    struct Part: Encodable {
        let name: String
        let bytes: Int
        let bytesPerRequest: Double
        /// The share of the part's pages holding data, not free space.
        let fill: Double
    }

    struct Result: Encodable {
        let workload = "store-size"
        let requests: Int
        let recordBytes: Int
        let fileBytes: Int
        let bytesPerRequest: Double
        let parts: [Part]
        let target: TargetCheck
        let zoneChangeReads: [ZoneChangeRead]
    }

    /// What reading the requests whose calendar floats with the zone costs (`floatingCalendarRequests`,
    /// the read a zone change makes), in a store without an index of them and in the same file once one
    /// is made, as stores before schema version 6 had: the best of three reads each.
    struct ZoneChangeRead: Encodable {
        let store: String
        let floating: Int
        let pending: Int
        let milliseconds: Double
        let withIndexMilliseconds: Double
    }

    private let progress = Progress(workload: "store-size")

    static let appIdentifier = "com.example.reminders"

    /// The reminder an app sets: "Water the plants" every day at a time of its own.
    static func reminder(_ index: Int) throws -> NotificationRequest {
        var content = NotificationContent(title: "Water the plants", body: "The fern and the basil on the balcony")
        content.categoryIdentifier = "reminder"
        let time = DateComponents(hour: index % 24, minute: (index / 24) % 60)
        return try NotificationRequest(
            identifier: "reminder-\(index)", content: content, trigger: .calendar(CalendarTrigger(dateMatching: time, repeats: true)))
    }

    func run() async throws -> Result {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("size.sqlite")

        let (store, center) = try await authorizedCenter(storeAt: path)
        progress.note("adding \(requests) reminders in batches of \(batchSize)", force: true)
        for first in stride(from: 0, to: requests, by: batchSize) {
            try await center.add(contentsOf: (first..<min(first + batchSize, requests)).map(Self.reminder))
            progress.note("added \(min(first + batchSize, requests))")
        }
        await store.close()

        let fileBytes = Int((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        let database = try await SQLiteDatabase(
            path: path, migrations: RawFloor.storeSchema, configuration: SQLiteDatabase.Configuration(checksIntegrityOnOpen: false))
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT name, sum(pgsize), sum(pgsize - unused), count(*) FROM dbstat
                WHERE name IN ('pending', 'pending_by_next_fire', 'pending_by_app_next_fire', 'pending_undated', 'pending_floating_calendar')
                GROUP BY name ORDER BY sum(pgsize) DESC
                """)
        }
        await database.close()
        let allFloating = try await zoneChangeRead("every request a reminder", pending: requests, store: try await SQLiteNotificationStore(path: path), path: path)
        let requests = Double(self.requests)
        let parts = rows.compactMap { row -> Part? in
            guard case .text(let name) = row[0], case .integer(let bytes) = row[1], case .integer(let used) = row[2] else { return nil }
            return Part(name: name, bytes: Int(bytes), bytesPerRequest: (Double(bytes) / requests).rounded(places: 1), fill: (Double(used) / Double(bytes)).rounded(places: 3))
        }
        let perRequest = (Double(fileBytes) / requests).rounded(places: 1)
        let fewFloating = try await fewRemindersAmongTimers(in: folder)
        return Result(
            requests: self.requests, recordBytes: try StoreRecord.encodeForKeyedRow(try Self.reminder(42), form: .compact).count, fileBytes: fileBytes, bytesPerRequest: perRequest,
            parts: parts, target: .atMost(300, perRequest), zoneChangeReads: [allFloating, fewFloating])
    }

    /// A new store at `path`, and the center of an app the user allowed, on an engine over it.
    private func authorizedCenter(storeAt path: String) async throws -> (SQLiteNotificationStore, AppNotificationCenter) {
        let store = try await SQLiteNotificationStore(path: path)
        let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: TimestampingPresenter(), log: SilentLog())
        let center = engine.center(for: Self.appIdentifier)
        _ = try await center.requestAuthorization(options: [.alert, .sound])
        return (store, center)
    }

    /// A store of `requests` timers (time-interval triggers, which do not float) and 1,000 reminders.
    private func fewRemindersAmongTimers(in folder: ScratchFolder) async throws -> ZoneChangeRead {
        let path = folder.path("timers.sqlite")
        let (store, center) = try await authorizedCenter(storeAt: path)
        progress.note("adding \(requests) timers and 1000 reminders", force: true)
        try await center.add(contentsOf: (0..<1_000).map(Self.reminder))
        for first in stride(from: 0, to: requests, by: batchSize) {
            try await center.add(
                contentsOf: (first..<min(first + batchSize, requests)).map { index in
                    try NotificationRequest(
                        identifier: "timer-\(index)", content: NotificationContent(title: "Tea"),
                        trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 86_400 + Double(index), repeats: false)))
                })
        }
        return try await zoneChangeRead("1000 reminders among \(requests) timers", pending: requests + 1_000, store: store, path: path)
    }

    /// Times the zone change's read in the store, closes it, makes the index stores before version 6
    /// had, and times the read again; the file keeps the index.
    private func zoneChangeRead(_ name: String, pending: Int, store: SQLiteNotificationStore, path: String) async throws -> ZoneChangeRead {
        func bestOfThree(_ store: SQLiteNotificationStore) async throws -> (Double, Int) {
            var best = Double.infinity
            var count = 0
            for _ in 0..<3 {
                let start = ContinuousClock.now
                count = try await store.floatingCalendarRequests().count
                best = min(best, (ContinuousClock.now - start).seconds * 1_000)
            }
            return (best.rounded(places: 1), count)
        }
        let (without, floating) = try await bestOfThree(store)
        await store.close()
        let database = try await SQLiteDatabase(path: path, migrations: RawFloor.storeSchema, configuration: SQLiteDatabase.Configuration(checksIntegrityOnOpen: false))
        try await database.write { db in
            try db.execute("CREATE INDEX pending_floating_calendar ON pending (app_id, request_id) WHERE floating_calendar = 1")
        }
        await database.close()
        let indexed = try await SQLiteNotificationStore(path: path)
        let (with, _) = try await bestOfThree(indexed)
        await indexed.close()
        return ZoneChangeRead(store: name, floating: floating, pending: pending, milliseconds: without, withIndexMilliseconds: with)
    }
}
