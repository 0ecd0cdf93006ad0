import ChimeCore
import ChimeEngine
@testable import ChimeSQLite
import ChimeTesting
import Foundation
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

@Suite("SQLite notification store")
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
