public import ChimeCore
public import ChimeEngine
import ChimeStoreCoding
public import Foundation
import Synchronization

/// The embedded default store: one SQLite file in write-ahead-log mode, durable on every return.
///
/// Meets every `NotificationStore` requirement (checked by `StoreConformance`), including durability:
/// each mutating call returns after the transaction holding its change committed with `synchronous=FULL`,
/// and concurrent calls share transactions (group commit). The scheduler's page queries use an index on
/// the next fire date, so they cost the same with a thousand pending requests or millions; so do the
/// pages of the pending and delivered lists, each read from an index in the list's order.
///
/// ```swift
/// let store = try await SQLiteNotificationStore(path: dataDirectory.appendingPathComponent("chime.sqlite").path)
/// let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: presenter)
/// ```
///
/// A file that is not a Chime database, is damaged, or has a newer schema is refused with an error and
/// left untouched. The damage check (`PRAGMA quick_check`) reads the whole file, about 1.2 ms per MiB,
/// and a store grows by about 283 bytes per pending reminder: by default it runs on opening only for
/// files up to 64 MiB (some 237,000 requests), so that a large store does not delay the first fire by seconds.
/// Larger files get SQLite's own checks of every page a statement reads, and `checkIntegrity()` runs the
/// full check whenever its time does not matter.
public final class SQLiteNotificationStore: NotificationStore {
    let database: SQLiteDatabase
    /// The app records decoded last, each with the bytes it was decoded from. The engine reads an app's
    /// record on every add and every batch of fires, and decoding one (settings, categories) costs far
    /// more than reading its bytes; identical bytes decode to an identical record, so a read whose bytes
    /// match reuses it. The bytes are always read from the database, so changes made elsewhere are seen.
    private let decodedApps = Mutex<[String: (bytes: [UInt8], record: AppRecord)]>([:])
    /// Who is told when records are quarantined (see `onQuarantine`).
    let quarantineHandlers = Mutex<[@Sendable ([QuarantinedRecord]) -> Void]>([])

    /// The configuration stores open with unless told otherwise: the integrity check on opening only for
    /// files up to 64 MiB.
    public static let defaultConfiguration = SQLiteDatabase.Configuration(integrityCheckSizeLimit: 64 << 20)

    /// Opens or creates the store at `path` (its directory must exist).
    ///
    /// - Throws: `SQLiteError` when the file is refused (not a database, damaged, newer schema) or cannot
    ///   be opened.
    public init(path: String, configuration: SQLiteDatabase.Configuration = defaultConfiguration) async throws {
        database = try await SQLiteDatabase(path: path, migrations: NotificationSchema.migrations, configuration: configuration)
    }

    /// The file was there but empty (0 bytes) and was started as a new store; see
    /// `SQLiteDatabase.foundEmptyFile`.
    public var foundEmptyFile: Bool { database.foundEmptyFile }

    /// Closes the file once pending work has finished.
    public func close() async {
        await database.close()
    }

    /// Checks the whole file for damage (`PRAGMA quick_check`) beside the store's work; for stores too
    /// large to be checked on opening. Takes time proportional to the file's size.
    ///
    /// - Throws: `SQLiteError` `.corrupt` when the check finds damage.
    public func checkIntegrity() async throws {
        try await database.checkIntegrity()
    }

    /// The schema version this code gives a store's file (its `PRAGMA user_version`).
    public static var schemaVersion: Int { NotificationSchema.migrations.last?.version ?? 0 }

    /// The number of write transactions committed since the store was opened. With group commit,
    /// concurrent calls share transactions, so this is usually far below the number of calls; benchmarks
    /// report it to show the batching.
    public var committedTransactionCount: Int { database.committedTransactionCount }

    // MARK: Apps

    public func app(_ appIdentifier: String) async throws -> AppRecord? {
        let rows = try await database.read { db in
            try db.query("SELECT record FROM app WHERE app_id = ?", arguments: [.text(appIdentifier)])
        }
        return try rows.first.map { try appRecord(appIdentifier, from: $0[0]) }
    }

    public func allApps() async throws -> [AppRecord] {
        let rows = try await database.read { db in try db.query("SELECT app_id, record FROM app ORDER BY app_id") }
        return try rows.map { row in
            guard let appIdentifier = row[0].text else { throw StoreCoding.corruptRow }
            return try appRecord(appIdentifier, from: row[1])
        }
    }

    /// Decodes an app's record, or reuses the one decoded last from the same bytes.
    private func appRecord(_ appIdentifier: String, from column: SQLiteValue) throws -> AppRecord {
        guard case .blob(let bytes) = column else { throw StoreCoding.corruptRow }
        if let decoded = decodedApps.withLock({ $0[appIdentifier] }), decoded.bytes == bytes {
            return decoded.record
        }
        let record = try StoreCoding.decode(AppRecord.self, from: column)
        decodedApps.withLock { decoded in
            // A store holds a few apps; this bound only keeps a store with very many from growing it.
            if decoded.count >= 64 { decoded.removeAll() }
            decoded[appIdentifier] = (bytes, record)
        }
        return record
    }

    public func saveApp(_ record: AppRecord) async throws {
        let blob = try StoreCoding.encode(record)
        try await database.write { db in
            try db.execute("INSERT OR REPLACE INTO app (app_id, record) VALUES (?, ?)", arguments: [.text(record.appIdentifier), blob])
        }
    }

    @discardableResult
    public func updateApp(_ appIdentifier: String, _ change: @escaping @Sendable (inout AppRecord) throws -> Void) async throws -> AppRecord {
        // Read and written in one write: the writer runs one at a time, so nothing comes in between.
        try await database.write { db in
            var record = try self.storedApp(appIdentifier, in: db)
            try change(&record)
            try db.execute(
                "INSERT OR REPLACE INTO app (app_id, record) VALUES (?, ?)", arguments: [.text(appIdentifier), try StoreCoding.encode(record)])
            return record
        }
    }

    // MARK: Pending requests

    /// Requests are encoded on the caller's task, so the writer's queue only writes. A large add is
    /// encoded in chunks that the writer inserts as they come, so encoding and inserting overlap.
    public func addPending(_ requests: [PendingRequest], admitting admit: @escaping @Sendable (AppRecord) throws -> Void) async throws {
        let appIdentifiers = Set(requests.map(\.appIdentifier))
        let insertRow = "INSERT OR REPLACE INTO pending (app_id, request_id, added, next_fire, floating_calendar, request) VALUES (?, ?, ?, ?, ?, ?)"
        guard requests.count > Self.rowsPerEncodedChunk else {
            let records = try StoreCoding.encodePending(requests[...])
            try await database.write { db in
                for appIdentifier in appIdentifiers { try admit(try self.storedApp(appIdentifier, in: db)) }
                try Self.insert(requests[...], records: records, with: try db.prepare(insertRow))
            }
            return
        }
        let channel = ChunkChannel<(range: Range<Int>, records: PackedRecords)>()
        // Safe to run twice, as a write closure must be: it reads the chunks from the first each time.
        let written = database.submitWrite { db in
            do {
                for appIdentifier in appIdentifiers { try admit(try self.storedApp(appIdentifier, in: db)) }
                let insert = try db.prepare(insertRow)
                var index = 0
                while let chunk = try channel.chunk(at: index) {
                    try Self.insert(requests[chunk.range], records: chunk.records, with: insert)
                    index += 1
                }
            } catch {
                channel.abandon()
                throw error
            }
        }
        // Not a suspension point from here to `finish`: the writer may be waiting for these chunks.
        do {
            for start in stride(from: 0, to: requests.count, by: Self.rowsPerEncodedChunk) {
                let range = start..<min(start + Self.rowsPerEncodedChunk, requests.count)
                guard channel.send((range, try StoreCoding.encodePending(requests[range]))) else { break }
            }
            channel.finish(.success(()))
        } catch {
            channel.finish(.failure(error))
        }
        try await written.value
    }

    /// How many rows of a large add are encoded before the writer may insert them.
    static let rowsPerEncodedChunk = 1_000

    /// Inserts each request with its encoded record, the columns bound one by one rather than gathered
    /// into an array per row.
    private static func insert(_ requests: ArraySlice<PendingRequest>, records: PackedRecords, with insert: SQLiteStatement) throws {
        precondition(requests.count == records.count, "a record for each request")
        for (offset, pending) in zip(0..., requests) {
            defer { insert.reset() }
            try insert.bind(.text(pending.appIdentifier), at: 1)
            try insert.bind(.text(pending.request.identifier), at: 2)
            try insert.bind(.date(pending.addedDate), at: 3)
            try insert.bind(.date(pending.nextFireDate), at: 4)
            try insert.bind(.integer(pending.request.hasFloatingCalendarTrigger ? 1 : 0), at: 5)
            try records.withRecord(at: offset) { try insert.bind(blob: $0, at: 6) }
            while try insert.step() {}
        }
    }

    public func pendingRequests(appIdentifier: String) async throws -> [PendingRequest] {
        let rows = try await database.read { db in
            try db.query(
                "SELECT app_id, added, next_fire, request, request_id FROM pending WHERE app_id = ? ORDER BY next_fire IS NULL, next_fire, request_id",
                arguments: [.text(appIdentifier)])
        }
        return try await decodePending(rows)
    }

    public func pendingRequests(_ keys: [RequestKey]) async throws -> [PendingRequest] {
        let rows = try await database.read { db in
            let select = try db.prepare("SELECT app_id, added, next_fire, request, request_id FROM pending WHERE app_id = ? AND request_id = ?")
            return try keys.flatMap { key in try select.rows([.text(key.appIdentifier), .text(key.requestIdentifier)]) }
        }
        return try await decodePending(rows)
    }

    public func removePending(appIdentifier: String, identifiers: [String]?) async throws -> [RequestKey] {
        let removed = try await database.write { db -> [String] in
            if let identifiers {
                let delete = try db.prepare("DELETE FROM pending WHERE app_id = ? AND request_id = ? RETURNING request_id")
                return try identifiers.flatMap { try delete.rows([.text(appIdentifier), .text($0)]).compactMap { $0[0].text } }
            }
            return try db.query("DELETE FROM pending WHERE app_id = ? RETURNING request_id", arguments: [.text(appIdentifier)]).compactMap { $0[0].text }
        }
        return removed.map { RequestKey(appIdentifier: appIdentifier, requestIdentifier: $0) }.sorted()
    }

    public func pendingFires(after: SchedulerTimeline.Coverage?, through: Date, limit: Int) async throws -> [ScheduledFire] {
        let (condition, arguments): (String, [SQLiteValue]) =
            switch after {
            case nil: ("", [])
            case .datesThrough(let date): ("AND next_fire > ?", [.date(date)])
            case .firesThrough(let last):
                ("AND (next_fire, app_id, request_id) > (?, ?, ?)", [.date(last.date), .text(last.key.appIdentifier), .text(last.key.requestIdentifier)])
            }
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT next_fire, app_id, request_id FROM pending
                WHERE next_fire IS NOT NULL AND next_fire <= ? \(condition)
                ORDER BY next_fire, app_id, request_id LIMIT ?
                """,
                arguments: [.date(through)] + arguments + [.integer(Int64(limit))])
        }
        return try rows.map { row in
            guard let date = row[0].date, let app = row[1].text, let request = row[2].text else { throw StoreCoding.corruptRow }
            return ScheduledFire(date: date, key: RequestKey(appIdentifier: app, requestIdentifier: request))
        }
    }

    public func floatingCalendarRequests() async throws -> [PendingRequest] {
        let rows = try await database.read { db in
            try db.query("SELECT app_id, added, next_fire, request, request_id FROM pending WHERE floating_calendar = 1 ORDER BY app_id, request_id")
        }
        return try await decodePending(rows)
    }

    public func updateNextFireDates(_ dates: [RequestKey: Date?]) async throws {
        let rows = dates.map { key, date in [SQLiteValue.date(date), .text(key.appIdentifier), .text(key.requestIdentifier)] }
        try await database.write { db in
            let update = try db.prepare("UPDATE pending SET next_fire = ? WHERE app_id = ? AND request_id = ?")
            for row in rows { try update.run(row) }
        }
    }

    public func dateUndated(_ requests: [RequestKey: Date], at date: Date) async throws -> [RequestKey] {
        let entries = Array(requests)
        return try await database.write { db in
            let update = try db.prepare("UPDATE pending SET next_fire = ? WHERE app_id = ? AND request_id = ? AND next_fire IS NULL AND added = ?")
            var dated: [RequestKey] = []
            for (key, added) in entries {
                try update.run([.date(date), .text(key.appIdentifier), .text(key.requestIdentifier), .date(added)])
                if db.changes > 0 { dated.append(key) }
            }
            return dated
        }
    }

    public func shiftPending(_ keys: [RequestKey], by interval: TimeInterval) async throws {
        let rows = keys.map { [SQLiteValue.text($0.appIdentifier), .text($0.requestIdentifier)] }
        try await database.write { db in
            let select = try db.prepare("SELECT added, next_fire FROM pending WHERE app_id = ? AND request_id = ?")
            let update = try db.prepare("UPDATE pending SET added = ?, next_fire = ? WHERE app_id = ? AND request_id = ?")
            for row in rows {
                guard let found = try select.rows(row).first, let added = found[0].date else { continue }
                try update.run([.date(added.addingTimeInterval(interval)), .date(found[1].date?.addingTimeInterval(interval))] + row)
            }
        }
    }

    static func pendingRequest(_ row: [SQLiteValue]) throws -> PendingRequest {
        guard let app = row[0].text, let added = row[1].date else { throw StoreCoding.corruptRow }
        return PendingRequest(
            appIdentifier: app, request: try StoreCoding.decodePending(from: row[3], identifier: row[4]), addedDate: added,
            nextFireDate: row[2].date)
    }

    // MARK: Fires and delivered notifications

    public func recordFires(_ records: [FireRecord]) async throws -> [FireRecord] {
        let encoded = try records.map { record in
            (record, try record.delivered.map(StoreCoding.encode), try record.missed.map(StoreCoding.encode))
        }
        let applied = try await database.write { db -> [Int] in
            let current = try db.prepare("SELECT next_fire FROM pending WHERE app_id = ? AND request_id = ?")
            let advance = try db.prepare("UPDATE pending SET next_fire = ? WHERE app_id = ? AND request_id = ?")
            let finish = try db.prepare("DELETE FROM pending WHERE app_id = ? AND request_id = ?")
            let replaced = try db.prepare("SELECT thread_id FROM delivered WHERE app_id = ? AND notification_id = ?")
            let deliver = try db.prepare(
                """
                INSERT OR REPLACE INTO delivered (app_id, notification_id, thread_id, sequence, notification)
                VALUES (?1, ?2, ?3, (SELECT coalesce(max(sequence), 0) + 1 FROM delivered WHERE app_id = ?1), ?4)
                """)
            let miss = try db.prepare("INSERT INTO missed (app_id, record) VALUES (?, ?)")
            var applied: [Int] = []
            var threadCounts = ThreadCountChanges()
            for (index, (record, deliveredBlob, missedBlob)) in encoded.enumerated() {
                let key: [SQLiteValue] = [.text(record.key.appIdentifier), .text(record.key.requestIdentifier)]
                // Only while the request still has the fired date: a fire is recorded once.
                guard try current.rows(key).first?[0].date == record.firedDate else { continue }
                if let notification = record.delivered, let deliveredBlob {
                    let thread = notification.request.content.threadIdentifier
                    if let previous = try replaced.rows(key).first?[0].text {
                        threadCounts.add(-1, appIdentifier: record.key.appIdentifier, threadIdentifier: previous)
                    }
                    threadCounts.add(1, appIdentifier: record.key.appIdentifier, threadIdentifier: thread)
                    try deliver.run(key + [.text(thread), deliveredBlob])
                    if let badge = notification.request.content.badge {
                        try self.setBadge(badge, appIdentifier: record.key.appIdentifier, in: db)
                    }
                }
                if let next = record.nextFireDate {
                    try advance.run([.date(next)] + key)
                } else if record.staysPending {
                    try advance.run([.null] + key)
                } else {
                    try finish.run(key)
                }
                if let missedBlob { try miss.run([.text(record.key.appIdentifier), missedBlob]) }
                applied.append(index)
            }
            try threadCounts.apply(in: db)
            return applied
        }
        return applied.map { records[$0] }
    }

    private func setBadge(_ badge: Int, appIdentifier: String, in db: SQLiteConnection) throws {
        var record = try storedApp(appIdentifier, in: db)
        record.badgeCount = badge
        try db.execute("INSERT OR REPLACE INTO app (app_id, record) VALUES (?, ?)", arguments: [.text(appIdentifier), try StoreCoding.encode(record)])
    }

    /// The app's record as the transaction of `db` sees it, or a new one.
    private func storedApp(_ appIdentifier: String, in db: SQLiteConnection) throws -> AppRecord {
        try db.query("SELECT record FROM app WHERE app_id = ?", arguments: [.text(appIdentifier)]).first
            .map { try appRecord(appIdentifier, from: $0[0]) } ?? AppRecord(appIdentifier: appIdentifier)
    }

    public func deliveredNotifications(appIdentifier: String) async throws -> [DeliveredNotification] {
        let rows = try await database.read { db in
            try db.query("SELECT notification, notification_id FROM delivered WHERE app_id = ? ORDER BY sequence DESC", arguments: [.text(appIdentifier)])
        }
        return try await decodeDelivered(rows.map { (appIdentifier, $0[1], $0[0]) }).compactMap { $0 }
    }

    public func deliveredNotification(appIdentifier: String, identifier: String) async throws -> DeliveredNotification? {
        let rows = try await database.read { db in
            try db.query(
                "SELECT notification FROM delivered WHERE app_id = ? AND notification_id = ?", arguments: [.text(appIdentifier), .text(identifier)])
        }
        return try await decodeDelivered(rows.map { (appIdentifier, .text(identifier), $0[0]) }).first ?? nil
    }

    public func deliveredCount(appIdentifier: String, threadIdentifier: String) async throws -> Int {
        let rows = try await database.read { db in
            try db.query(
                "SELECT count FROM delivered_thread WHERE app_id = ? AND thread_id = ?", arguments: [.text(appIdentifier), .text(threadIdentifier)])
        }
        guard let first = rows.first else { return 0 }
        guard case .integer(let count) = first.first else { throw StoreCoding.corruptRow }
        return Int(count)
    }

    public func deliveredCounts(appIdentifier: String, threadIdentifiers: Set<String>) async throws -> [String: Int] {
        try await database.read { db in
            let count = try db.prepare("SELECT count FROM delivered_thread WHERE app_id = ? AND thread_id = ?")
            var counts: [String: Int] = [:]
            for thread in threadIdentifiers {
                switch try count.rows([.text(appIdentifier), .text(thread)]).first?.first {
                case nil: counts[thread] = 0
                case .integer(let value): counts[thread] = Int(value)
                default: throw StoreCoding.corruptRow
                }
            }
            return counts
        }
    }

    public func updateDelivered(appIdentifier: String, _ notification: DeliveredNotification) async throws {
        let blob = try StoreCoding.encode(notification)
        try await database.write { db in
            try db.execute(
                "UPDATE delivered SET notification = ? WHERE app_id = ? AND notification_id = ?",
                arguments: [blob, .text(appIdentifier), .text(notification.identifier)])
        }
    }

    public func removeDelivered(appIdentifier: String, identifiers: [String]?) async throws -> [String] {
        try await database.write { db -> [String] in
            let rows: [[SQLiteValue]]
            if let identifiers {
                let delete = try db.prepare("DELETE FROM delivered WHERE app_id = ? AND notification_id = ? RETURNING notification_id, thread_id")
                rows = try identifiers.flatMap { try delete.rows([.text(appIdentifier), .text($0)]) }
            } else {
                rows = try db.query("DELETE FROM delivered WHERE app_id = ? RETURNING notification_id, thread_id", arguments: [.text(appIdentifier)])
            }
            var threadCounts = ThreadCountChanges()
            let removed = try rows.map { row in
                guard let identifier = row[0].text, let thread = row[1].text else { throw StoreCoding.corruptRow }
                threadCounts.add(-1, appIdentifier: appIdentifier, threadIdentifier: thread)
                return identifier
            }
            try threadCounts.apply(in: db)
            return removed
        }
    }

    // MARK: Missed fires

    public func missedFires(appIdentifier: String) async throws -> [MissedFire] {
        let rows = try await database.read { db in
            try db.query("SELECT record FROM missed WHERE app_id = ? ORDER BY sequence", arguments: [.text(appIdentifier)])
        }
        return try rows.map { try StoreCoding.decode(MissedFire.self, from: $0[0]) }
    }

    public func clearMissedFires(appIdentifier: String) async throws {
        try await database.write { db in
            try db.execute("DELETE FROM missed WHERE app_id = ?", arguments: [.text(appIdentifier)])
        }
    }
}


/// Changes to the delivered count of threads, gathered while a write delivers and removes notifications
/// and applied once at its end, in the same transaction.
struct ThreadCountChanges {
    private struct Thread: Hashable {
        let appIdentifier: String
        let threadIdentifier: String
    }

    private var changes: [Thread: Int] = [:]

    mutating func add(_ change: Int, appIdentifier: String, threadIdentifier: String) {
        changes[Thread(appIdentifier: appIdentifier, threadIdentifier: threadIdentifier), default: 0] += change
    }

    func apply(in db: SQLiteConnection) throws {
        guard changes.values.contains(where: { $0 != 0 }) else { return }
        let change = try db.prepare(
            """
            INSERT INTO delivered_thread (app_id, thread_id, count) VALUES (?1, ?2, ?3)
            ON CONFLICT (app_id, thread_id) DO UPDATE SET count = count + excluded.count
            """)
        let dropEmpty = try db.prepare("DELETE FROM delivered_thread WHERE app_id = ? AND thread_id = ? AND count <= 0")
        for (thread, count) in changes where count != 0 {
            let key: [SQLiteValue] = [.text(thread.appIdentifier), .text(thread.threadIdentifier)]
            try change.run(key + [.integer(Int64(count))])
            if count < 0 { try dropEmpty.run(key) }
        }
    }
}
