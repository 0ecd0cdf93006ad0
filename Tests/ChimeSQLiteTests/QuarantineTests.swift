import ChimeCore
import ChimeEngine
@testable import ChimeSQLite
import ChimeTesting
import Foundation
import Synchronization
import Testing

/// One damaged record breaks only itself: it is set aside, bytes untouched, and everything else is served.
@Suite("SQLite store: damaged records")
struct QuarantineTests {
    static let start = Date(timeIntervalSinceReferenceDate: 786_240_000)

    static func pending(_ identifier: String, app: String, in seconds: TimeInterval) throws -> PendingRequest {
        let request = try NotificationRequest(
            identifier: identifier, content: NotificationContent(title: .literal("Note \(identifier)")),
            trigger: .timeInterval(TimeIntervalTrigger(timeInterval: seconds, repeats: false)))
        return PendingRequest(appIdentifier: app, request: request, addedDate: start, nextFireDate: start.addingTimeInterval(seconds))
    }

    /// Cuts a stored record in half behind the store's back, as a torn write or a bad disk would, and
    /// returns the bytes it left (the page and the file stay sound: `quick_check` passes).
    static func cutInHalf(table: String, column: String, idColumn: String, identifier: String, path: String) throws -> [UInt8] {
        let db = try SQLiteConnection(path: path, flags: [.readWrite])
        try db.execute("UPDATE \(table) SET \(column) = substr(\(column), 1, length(\(column)) / 2) WHERE \(idColumn) = ?", arguments: [.text(identifier)])
        guard case .blob(let bytes) = try db.query("SELECT \(column) FROM \(table) WHERE \(idColumn) = ?", arguments: [.text(identifier)]).first?.first else {
            throw SQLiteError(.internal, "no such row")
        }
        #expect(try db.query("PRAGMA quick_check") == [[.text("ok")]])
        return bytes
    }

    @Test func aPendingRecordCutInHalfIsSetAsideAndEveryOtherIsServed() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let store = try await SQLiteNotificationStore(path: path)
        try await store.addPending([
            try Self.pending("a", app: "com.example.notes", in: 60), try Self.pending("b", app: "com.example.notes", in: 120),
            try Self.pending("c", app: "com.example.notes", in: 180), try Self.pending("x", app: "com.example.other", in: 90),
        ])
        let damagedBytes = try Self.cutInHalf(table: "pending", column: "request", idColumn: "request_id", identifier: "b", path: path)
        let told = Mutex<[QuarantinedRecord]>([])
        store.onQuarantine { records in told.withLock { $0 += records } }

        #expect(try await store.pendingRequests(appIdentifier: "com.example.notes").map(\.request.identifier) == ["a", "c"])
        #expect(told.withLock { $0.map(\.identifier) } == ["b"])
        #expect(told.withLock { $0.first?.source } == "pending")
        #expect(try await store.quarantinedCount() == 1)
        // Every other read serves the rest; the scheduler no longer meets the damaged one.
        #expect(try await store.pendingPage(appIdentifier: nil, after: nil, limit: 10).map(\.request.identifier) == ["a", "x", "c"])
        #expect(try await store.pendingFires(after: nil, through: .distantFuture, limit: 10).map(\.key.requestIdentifier) == ["a", "x", "c"])
        #expect(try await store.pendingTotal(appIdentifier: nil) == 3)
        await store.close()

        // Kept byte for byte, with where it came from and why.
        let db = try SQLiteConnection(path: path, flags: [.readWrite])
        let rows = try db.query("SELECT source, app_id, record_id, record, reason FROM quarantine")
        #expect(rows.count == 1)
        #expect(rows.first?[0] == .text("pending") && rows.first?[1] == .text("com.example.notes") && rows.first?[2] == .text("b"))
        #expect(rows.first?[3] == .blob(damagedBytes))
        #expect(rows.first?[4].text?.isEmpty == false)
    }

    @Test func aDamagedDeliveredRecordLeavesTheListAndItsThreadCount() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let store = try await SQLiteNotificationStore(path: path)
        try await store.addPending([try Self.pending("a", app: "app", in: 60), try Self.pending("b", app: "app", in: 60)])
        let records = try await store.pendingRequests(appIdentifier: "app").map { pending in
            FireRecord(
                key: pending.key, firedDate: pending.nextFireDate!,
                delivered: try DeliveredNotification(request: pending.request, date: pending.nextFireDate!, scheduledDate: pending.nextFireDate!),
                nextFireDate: nil)
        }
        _ = try await store.recordFires(records)
        #expect(try await store.deliveredCount(appIdentifier: "app", threadIdentifier: "") == 2)
        _ = try Self.cutInHalf(table: "delivered", column: "notification", idColumn: "notification_id", identifier: "a", path: path)

        #expect(try await store.deliveredPage(appIdentifier: nil, after: nil, limit: 10).map(\.notification.identifier) == ["b"])
        #expect(try await store.deliveredNotifications(appIdentifier: "app").map(\.identifier) == ["b"])
        #expect(try await store.deliveredNotification(appIdentifier: "app", identifier: "a") == nil)
        #expect(try await store.deliveredCount(appIdentifier: "app", threadIdentifier: "") == 1)
        #expect(try await store.quarantinedCount() == 1)
        await store.close()
    }

    /// Through the engine: the app's other due notifications still fire.
    @Test func theAppsOtherDueNotificationsStillFire() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let store = try await SQLiteNotificationStore(path: path)
        try await store.addPending([
            try Self.pending("a", app: "com.example.notes", in: 60), try Self.pending("b", app: "com.example.notes", in: 60),
            try Self.pending("c", app: "com.example.notes", in: 60),
        ])
        _ = try Self.cutInHalf(table: "pending", column: "request", idColumn: "request_id", identifier: "b", path: path)
        let clock = ManualClock(now: Self.start)
        let presenter = RecordingPresenter()
        let engine = NotificationEngine(store: store, clock: clock, presenter: presenter)
        _ = try await engine.center(for: "com.example.notes").requestAuthorization(options: [.alert])
        await engine.start()
        await clock.run(until: Self.start.addingTimeInterval(60))
        let shown = [await presenter.nextPresentation(), await presenter.nextPresentation()].map(\.notificationIdentifier)
        #expect(shown.sorted() == ["a", "c"])
        #expect(try await engine.center(for: "com.example.notes").deliveredNotifications().map(\.identifier).sorted() == ["a", "c"])
        await engine.stop()
        await store.close()
    }
}
