import ChimeCore
import ChimeEngine
@testable import ChimeSQLite
import Foundation
import Testing

/// The list pages read about `limit` rows from an index, so paging through a store of any size costs
/// the same per page. SQLite's own account of how it runs each statement (`EXPLAIN QUERY PLAN`) says so:
/// every statement searches or scans an index in the list's order, and none sorts in a temporary B-tree.
@Suite("SQLite list query plans")
struct SQLiteListQueryPlanTests {
    static let date = Date(timeIntervalSince1970: 1_764_547_200)

    /// Every statement a page can run, named: both phases of the pending list, for every app and for one,
    /// from the start and after each kind of position; the delivered list's statements.
    static var pageQueries: [(name: String, query: ListQuery)] {
        let dated = PendingListPosition(nextFireDate: date, appIdentifier: "app.b", requestIdentifier: "r")
        let undated = PendingListPosition(nextFireDate: nil, appIdentifier: "app.b", requestIdentifier: "r")
        let positions: [(String, PendingListPosition?)] = [
            ("from the start", nil), ("after a dated request", dated), ("after an undated request", undated),
        ]
        let apps: [(String?, String)] = [
            (nil, "every app"), ("app.b", "the position's app"),
            ("app.a", "an app before the position's"), ("app.c", "an app after the position's"),
        ]
        var queries: [(String, ListQuery)] = []
        for (app, appName) in apps {
            for (positionName, position) in positions {
                for (index, query) in SQLiteNotificationStore.pendingPageQueries(appIdentifier: app, after: position).enumerated() {
                    queries.append(("pending of \(appName) \(positionName), statement \(index + 1)", query))
                }
            }
        }
        queries.append(("delivered of an app", SQLiteNotificationStore.deliveredAppQuery("app.a", before: nil)))
        queries.append(("delivered of an app before a sequence", SQLiteNotificationStore.deliveredAppQuery("app.a", before: 7)))
        queries.append(("first app with delivered", SQLiteNotificationStore.nextDeliveredAppQuery(after: nil)))
        queries.append(("next app with delivered", SQLiteNotificationStore.nextDeliveredAppQuery(after: "app.a")))
        return queries
    }

    /// The plan's lines (`EXPLAIN QUERY PLAN`'s detail column).
    static func plan(_ sql: String, _ arguments: [SQLiteValue], in store: SQLiteNotificationStore) async throws -> [String] {
        try await store.database.read { db in
            try db.query("EXPLAIN QUERY PLAN \(sql)", arguments: arguments).compactMap { $0.last?.text }
        }
    }

    /// A store with requests and deliveries of a few apps, dated and undated, analyzed on request:
    /// statistics change the plans SQLite picks when it has a choice.
    static func populatedStore(in folder: borrowing TemporaryFolder, analyzed: Bool) async throws -> SQLiteNotificationStore {
        let store = try await SQLiteNotificationStore(path: folder.path("chime.sqlite"))
        var requests: [PendingRequest] = []
        for index in 0..<300 {
            let request = try NotificationRequest(identifier: "r\(index)", content: NotificationContent(title: "R"), trigger: nil)
            requests.append(PendingRequest(
                appIdentifier: "app.\(["a", "b", "c"][index % 3])", request: request, addedDate: date,
                nextFireDate: index % 5 == 0 ? nil : date.addingTimeInterval(Double(index % 17))))
        }
        try await store.addPending(requests)
        let delivered = try requests.prefix(60).map { pending in
            FireRecord(
                key: pending.key, firedDate: pending.nextFireDate ?? date,
                delivered: try DeliveredNotification(request: pending.request, date: date), nextFireDate: nil)
        }
        try await store.updateNextFireDates(Dictionary(uniqueKeysWithValues: delivered.map { ($0.key, $0.firedDate) }))
        #expect(try await store.recordFires(delivered).count == 60)
        if analyzed {
            try await store.database.write { db in try db.execute("ANALYZE") }
        }
        return store
    }

    @Test(arguments: [false, true])
    func everyPageStatementReadsAnIndexInListOrder(analyzed: Bool) async throws {
        let folder = try TemporaryFolder()
        let store = try await Self.populatedStore(in: folder, analyzed: analyzed)
        for (name, query) in Self.pageQueries {
            let plan = try await Self.plan(query.sql, query.arguments + [.integer(10)], in: store)
            #expect(!plan.isEmpty, "\(name)")
            #expect(plan.allSatisfy { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(name): \(plan)")
            #expect(!plan.contains { $0.contains("USE TEMP B-TREE") }, "\(name): \(plan)")
        }
        await store.close()
    }

    @Test(arguments: [false, true])
    func totalsCountIndexEntriesWithoutReadingRows(analyzed: Bool) async throws {
        let folder = try TemporaryFolder()
        let store = try await Self.populatedStore(in: folder, analyzed: analyzed)
        for table in ["pending", "delivered"] {
            for app in [nil, "app.a"] {
                let query = SQLiteNotificationStore.countQuery(of: table, appIdentifier: app)
                let plan = try await Self.plan(query.sql, query.arguments, in: store)
                let fromIndex = plan.count == 1 && plan.allSatisfy { $0.contains("USING COVERING INDEX") }
                #expect(fromIndex, "\(table) of \(app ?? "every app"): \(plan)")
            }
        }
        #expect(try await store.pendingTotal(appIdentifier: nil) == 240)
        #expect(try await store.deliveredTotal(appIdentifier: "app.a") == 20)
        await store.close()
    }
}
