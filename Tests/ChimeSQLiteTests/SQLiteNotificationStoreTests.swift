import ChimeCore
import ChimeEngine
@testable import ChimeSQLite
import ChimeStoreCoding
import ChimeTesting
import Foundation
import Synchronization
import Testing

/// A fresh folder for one test's database files, removed afterwards.
struct TemporaryFolder: ~Copyable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-store-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

// The limit turns a write that never ends into a failure instead of a hang.
@Suite("SQLite notification store", .timeLimit(.minutes(5)))
struct SQLiteNotificationStoreTests {
    @Test(arguments: StoreConformance.checks)
    func conforms(check: StoreConformance.Check) async throws {
        let folder = try TemporaryFolder()
        let store = try await SQLiteNotificationStore(path: folder.path("chime.sqlite"))
        try await check.run(on: store)
        await store.close()
    }

    @Test func everythingSurvivesClosingAndReopeningTheFile() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let store = try await SQLiteNotificationStore(path: path)
        let request = try NotificationRequest(
            identifier: "alarm", content: NotificationContent(title: "Wake up"),
            trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 7), repeats: true)))
        let added = Date(timeIntervalSinceReferenceDate: 786_240_000.123_456)
        let pending = PendingRequest(appIdentifier: "app", request: request, addedDate: added, nextFireDate: added.addingTimeInterval(0.5))
        try await store.addPending([pending])
        try await store.saveApp(AppRecord(appIdentifier: "app", settings: .granted([.alert])))
        await store.close()

        let reopened = try await SQLiteNotificationStore(path: path)
        #expect(try await reopened.pendingRequests(appIdentifier: "app") == [pending])  // fractional dates exact
        #expect(try await reopened.app("app")?.settings.authorizationStatus == .authorized)
        #expect(try await reopened.floatingCalendarRequests().map(\.key) == [pending.key])
        await reopened.close()
    }

    @Test func aFirstVersionFileGetsItsThreadCountsOnOpening() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let first = try await SQLiteDatabase(path: path, migrations: Array(NotificationSchema.migrations.prefix(1)))
        try await first.write { db in
            let insert = try db.prepare("INSERT INTO delivered (app_id, notification_id, thread_id, sequence, notification) VALUES (?, ?, ?, ?, x'00')")
            for (index, thread) in ["photos", "photos", "", "photos"].enumerated() {
                try insert.run([.text("app"), .text("n\(index)"), .text(thread), .integer(Int64(index))])
            }
        }
        await first.close()

        let store = try await SQLiteNotificationStore(path: path)
        #expect(try await store.deliveredCounts(appIdentifier: "app", threadIdentifiers: ["photos", "", "none"]) == ["photos": 3, "": 1, "none": 0])
        await store.close()
    }

    /// Version 6 keeps a pending request's identifier only in the row's key. Rows written before keep it in
    /// the record too and still read; a record kept under another request's key is damage.
    @Test func aVersionFiveFilesPendingRowsReadOnAndNewRowsLeaveTheIdentifierOut() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let floating = try NotificationRequest(
            identifier: "water-the-plants", content: NotificationContent(title: "Water the plants"),
            trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 8), repeats: true)))
        let interval = try NotificationRequest(
            identifier: "tea", content: NotificationContent(title: "Tea"), trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 60, repeats: false)))
        let added = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let old = try await SQLiteDatabase(path: path, migrations: Array(NotificationSchema.migrations.prefix(5)))
        try await old.write { db in
            let insert = try db.prepare(
                "INSERT INTO pending (app_id, request_id, added, next_fire, floating_calendar, request) VALUES ('app', ?, ?, ?, ?, ?)")
            for (key, request, isFloating) in [("water-the-plants", floating, true), ("tea", interval, false), ("stolen", interval, false)] {
                try insert.run([.text(key), .date(added), .date(added + 60), .integer(isFloating ? 1 : 0), .blob(try StoreRecord.encode(request, form: .compact))])
            }
        }
        await old.close()

        let store = try await SQLiteNotificationStore(path: path)
        #expect(try await store.pendingRequests(appIdentifier: "app").map(\.request) == [interval, floating])
        #expect(try await store.quarantinedCount() == 1, "the record of \"tea\" kept under \"stolen\" is set aside")
        #expect(try await store.floatingCalendarRequests().map(\.key.requestIdentifier) == ["water-the-plants"])

        let new = try NotificationRequest(
            identifier: "stretch", content: NotificationContent(title: "Stretch"),
            trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(minute: 0), repeats: true)))
        try await store.addPending([PendingRequest(appIdentifier: "app", request: new, addedDate: added, nextFireDate: added + 120)])
        #expect(try await store.pendingRequests([RequestKey(appIdentifier: "app", requestIdentifier: "stretch")]).map(\.request) == [new])
        #expect(Set(try await store.floatingCalendarRequests().map(\.key.requestIdentifier)) == ["water-the-plants", "stretch"])
        await store.close()

        let raw = try await SQLiteDatabase(path: path, migrations: Array(NotificationSchema.migrations))
        let record = try await raw.read { db in try db.query("SELECT request FROM pending WHERE request_id = 'stretch'") }
        let whole = try StoreRecord.encode(new, form: .compact)
        #expect(record == [[.blob(try StoreRecord.encodeForKeyedRow(new, form: .compact))]])
        if case .blob(let bytes) = record.first?.first {
            #expect(bytes.count == whole.count - 1 - 2 - "stretch".utf8.count, "the record leaves out the identifier the key holds")
        }
        let indexes = try await raw.read { db in try db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'pending'") }
        #expect(!indexes.contains([.text("pending_floating_calendar")]))
        await raw.close()
    }

    /// An add larger than a chunk is encoded while the writer inserts the chunks before: it is still one
    /// transaction, whole or not at all.
    @Test func anAddOfManyChunksIsWrittenWholeOrNotAtAll() async throws {
        let folder = try TemporaryFolder()
        let store = try await SQLiteNotificationStore(path: folder.path("chime.sqlite"))
        let added = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let count = SQLiteNotificationStore.rowsPerEncodedChunk * 3 + 7
        func pending(_ index: Int, title: String) throws -> PendingRequest {
            PendingRequest(
                appIdentifier: "app",
                request: try NotificationRequest(
                    // Content of its own: a record on another request's row would not read back equal.
                    identifier: "r-\(index)", content: NotificationContent(title: .init(stringLiteral: "\(title) \(index)")),
                    trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 60 + Double(index), repeats: false))),
                addedDate: added, nextFireDate: added + Double(index))
        }
        let first = try (0..<count).map { try pending($0, title: "first") }
        try await store.addPending(first)
        #expect(try await store.pendingRequests(appIdentifier: "app") == first)

        // Refused by the admission check, which runs before the first chunk is inserted: nothing changes.
        struct Refused: Error {}
        let second = try (0..<count).map { try pending($0, title: "second") }
        await #expect(throws: Refused.self) { try await store.addPending(second, admitting: { _ in throw Refused() }) }
        #expect(try await store.pendingRequests(appIdentifier: "app") == first)

        await store.close()

        // Refused by the database in the last chunk, after the others went in: nothing changes either.
        let path = folder.path("chime.sqlite")
        let raw = try await SQLiteDatabase(path: path, migrations: Array(NotificationSchema.migrations))
        try await raw.write { db in
            try db.execute(
                "CREATE TRIGGER refuse_late BEFORE INSERT ON pending WHEN NEW.request_id = 'r-\(count - 1)' BEGIN SELECT RAISE(ABORT, 'refused late'); END")
        }
        await raw.close()
        let reopened = try await SQLiteNotificationStore(path: path)
        await #expect(throws: SQLiteError.self) { try await reopened.addPending(second) }
        #expect(try await reopened.pendingRequests(appIdentifier: "app") == first)
        await reopened.close()
    }

    /// When SQLite rolls back a whole transaction on its own, group commit runs the writes that came
    /// before again: a large add in such a batch must write all its rows again, not return with none.
    @Test func aLargeAddRunAgainAfterATransactionWasLostWritesEveryRow() async throws {
        let folder = try TemporaryFolder()
        let store = try await SQLiteNotificationStore(path: folder.path("chime.sqlite"))
        try await store.database.write { db in
            // ON CONFLICT ROLLBACK makes SQLite end the whole transaction, not just the statement.
            try db.execute("CREATE TABLE strict(id INTEGER PRIMARY KEY ON CONFLICT ROLLBACK)")
        }
        let added = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let requests = try (0..<(SQLiteNotificationStore.rowsPerEncodedChunk * 2 + 1)).map { index in
            PendingRequest(
                appIdentifier: "app",
                request: try NotificationRequest(
                    identifier: "r-\(index)", content: NotificationContent(title: .init(stringLiteral: "Tea \(index)")),
                    trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 60 + Double(index), repeats: false))),
                addedDate: added, nextFireDate: added + Double(index))
        }
        // The gate holds the writer; the add, then the conflict, queue behind it and travel in one
        // transaction. Each step waits until the one before is where it must be, not for a time.
        let release = DispatchSemaphore(value: 0)
        let gateRuns = Atomic<Bool>(false)
        let gate = store.database.submitWrite { _ in
            gateRuns.store(true, ordering: .sequentiallyConsistent)
            release.wait()
        }
        while !gateRuns.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        let admissions = Atomic<Int>(0)
        let add = Task { try await store.addPending(requests, admitting: { _ in admissions.add(1, ordering: .sequentiallyConsistent) }) }
        while store.database.waitingWriteCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let conflict = store.database.submitWrite { db in
            try db.execute("INSERT INTO strict(id) VALUES (1)")
            try db.execute("INSERT INTO strict(id) VALUES (1)")
        }
        release.signal()
        try await gate.value
        let error = await #expect(throws: SQLiteError.self) { try await conflict.value }
        #expect(error?.code == .constraint)
        try await add.value
        #expect(admissions.load(ordering: .sequentiallyConsistent) == 2, "the add ran, and ran again after the lost transaction")
        #expect(try await store.pendingRequests(appIdentifier: "app") == requests)
        await store.close()
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.sqlite")
        let bytes = Data("these are my notes, not a database\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        await #expect(throws: (any Error).self) { _ = try await SQLiteNotificationStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func anEngineOnTheStoreDeliversAndRemembersAcrossRestarts() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let start = Date(timeIntervalSince1970: 1_764_547_200)
        do {
            let store = try await SQLiteNotificationStore(path: path)
            let clock = ManualClock(now: start)
            let presenter = RecordingPresenter()
            let engine = NotificationEngine(store: store, clock: clock, presenter: presenter, timeZone: TimeZone(identifier: "UTC")!, log: SilentLog())
            let center = engine.center(for: "app")
            _ = try await center.requestAuthorization(options: [.alert])
            await engine.start()
            try await center.add(NotificationRequest(identifier: "now", content: NotificationContent(title: "Now"), trigger: nil))
            try await center.add(NotificationRequest(
                identifier: "later", content: NotificationContent(title: "Later"), trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 3600, repeats: false))))
            #expect(await presenter.nextPresentation().notificationIdentifier == "now")
            await engine.stop()
            await store.close()
        }
        // Two hours later, a new process: "later" was missed and is delivered late; "now" does not alert again.
        let store = try await SQLiteNotificationStore(path: path)
        let presenter = RecordingPresenter()
        let engine = NotificationEngine(
            store: store, clock: ManualClock(now: start.addingTimeInterval(7200)), presenter: presenter, timeZone: TimeZone(identifier: "UTC")!, log: SilentLog())
        await engine.start()
        let shown = await presenter.nextPresentation()
        #expect(shown.notificationIdentifier == "later")
        #expect(shown.isLate)
        #expect(presenter.presentations.count == 1)
        #expect(try await engine.center(for: "app").deliveredNotifications().map(\.identifier) == ["later", "now"])
        await engine.stop()
        await store.close()
    }
}
