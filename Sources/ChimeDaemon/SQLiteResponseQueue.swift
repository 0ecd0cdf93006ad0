public import ChimeCore
import ChimeAPI
public import ChimeServer
import ChimeSQLite
import Foundation

/// Responses waiting for their app, in `daemon.sqlite`: kept from the moment the user acted until the app
/// acknowledges them, so they survive `kill -9` of the daemon and reach the app in the order given.
///
/// A SQLite file of its own (not the store's): the store's schema belongs to ChimeSQLite's migrations.
/// Writes are durable when they return (WAL, `synchronous=FULL`).
public final class SQLiteResponseQueue: ResponseQueueStore {
    private let database: SQLiteDatabase

    public init(path: String) async throws {
        database = try await SQLiteDatabase(path: path, migrations: [
            SQLiteMigration(version: 1, name: "queued responses", sql: """
                CREATE TABLE queued_response(
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    delivery TEXT NOT NULL UNIQUE,
                    app TEXT NOT NULL,
                    launch TEXT,
                    response TEXT NOT NULL);
                CREATE INDEX queued_response_app ON queued_response(app, sequence);
                """),
        ])
    }

    public func close() async {
        await database.close()
    }

    /// Keeps `response` for `app` and returns its delivery identifier.
    public func enqueue(app: String, response: NotificationResponse, launch: String?) async throws -> String {
        let delivery = UUID().uuidString.lowercased()
        let json = String(decoding: try WireFormat.encoder().encode(response), as: UTF8.self)
        try await database.write { db in
            try db.execute(
                "INSERT INTO queued_response(delivery, app, launch, response) VALUES (?, ?, ?, ?)",
                arguments: [.text(delivery), .text(app), launch.map { .text($0) } ?? .null, .text(json)])
        }
        return delivery
    }

    /// The app's queued responses, oldest first, at most `limit`.
    public func entries(app: String, limit: Int) async throws -> [QueuedResponse] {
        let rows = try await database.read { db in
            try db.query(
                "SELECT delivery, launch, response FROM queued_response WHERE app = ? ORDER BY sequence LIMIT ?",
                arguments: [.text(app), .integer(Int64(limit))])
        }
        let decoder = WireFormat.decoder()
        return try rows.map { row in
            guard case .text(let delivery) = row[0], case .text(let json) = row[2] else { throw DaemonError("a queued response row is damaged") }
            var launch: String?
            if case .text(let value) = row[1] { launch = value }
            return QueuedResponse(delivery: delivery, app: app, response: try decoder.decode(NotificationResponse.self, from: Data(json.utf8)), launch: launch)
        }
    }

    /// Forgets an acknowledged response of `app`; false when there was none.
    public func remove(delivery: String, app: String) async throws -> Bool {
        try await database.write { db in
            let before = try db.query("SELECT count(*) FROM queued_response WHERE delivery = ? AND app = ?", arguments: [.text(delivery), .text(app)])
            try db.execute("DELETE FROM queued_response WHERE delivery = ? AND app = ?", arguments: [.text(delivery), .text(app)])
            return before.first?.first != .integer(0)
        }
    }

    /// How many responses wait, per app.
    public func counts() async throws -> [String: Int] {
        let rows = try await database.read { db in try db.query("SELECT app, count(*) FROM queued_response GROUP BY app") }
        var counts: [String: Int] = [:]
        for row in rows {
            if case .text(let app) = row[0], case .integer(let count) = row[1] { counts[app] = Int(count) }
        }
        return counts
    }
}
