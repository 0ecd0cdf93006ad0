import ChimeCore
import ChimeEngine
import Foundation
import Synchronization

/// A stored record that no longer decodes, set aside in the `quarantine` table with its bytes untouched.
public struct QuarantinedRecord: Sendable, Hashable, CustomStringConvertible {
    /// `pending` or `delivered`: the table it came from.
    public var source: String
    public var appIdentifier: String
    public var identifier: String
    /// Why it could not be read.
    public var reason: String

    public var description: String { "\(source) record \(appIdentifier)/\(identifier): \(reason)" }
}

/// One damaged record breaks only itself: reading rows decodes each on its own, and a row that does not
/// decode is moved to `quarantine` (in its own transaction, after the read) and left out of the answer,
/// so lists, counts and the other fires of its app go on. Whoever opened the store hears about each
/// through `onQuarantine`; `quarantinedCount()` says how many are kept.
extension SQLiteNotificationStore {
    /// Calls `handler` with the records each time some are set aside (the daemon and embedded apps log
    /// them).
    public func onQuarantine(_ handler: @escaping @Sendable ([QuarantinedRecord]) -> Void) {
        quarantineHandlers.withLock { $0.append(handler) }
    }

    public func quarantinedCount() async throws -> Int {
        try await database.read { db in
            guard case .integer(let count) = try db.query("SELECT count(*) FROM quarantine").first?.first else { throw StoreCoding.corruptRow }
            return Int(count)
        }
    }

    /// The pending requests of `rows` (`app_id, added, next_fire, request, request_id`), less those that do
    /// not decode, which are quarantined.
    func decodePending(_ rows: [[SQLiteValue]]) async throws -> [PendingRequest] {
        var requests: [PendingRequest] = []
        requests.reserveCapacity(rows.count)
        var damaged: [QuarantinedRecord] = []
        for row in rows {
            do {
                requests.append(try Self.pendingRequest(row))
            } catch {
                guard let app = row[0].text, let identifier = row[4].text else { throw error }
                damaged.append(QuarantinedRecord(source: "pending", appIdentifier: app, identifier: identifier, reason: "\(error)"))
            }
        }
        try await quarantine(damaged)
        return requests
    }

    /// The delivered notifications of `rows`, `nil` in place of each that does not decode, which is
    /// quarantined.
    func decodeDelivered(_ rows: [(app: String, identifier: SQLiteValue, record: SQLiteValue)]) async throws
        -> [DeliveredNotification?]
    {
        var damaged: [QuarantinedRecord] = []
        let notifications = try rows.map { row -> DeliveredNotification? in
            do {
                return try StoreCoding.decode(DeliveredNotification.self, from: row.record)
            } catch {
                guard let identifier = row.identifier.text else { throw error }
                damaged.append(QuarantinedRecord(source: "delivered", appIdentifier: row.app, identifier: identifier, reason: "\(error)"))
                return nil
            }
        }
        try await quarantine(damaged)
        return notifications
    }

    /// Moves the records' rows to `quarantine`, bytes as they are, and tells the handlers.
    private func quarantine(_ records: [QuarantinedRecord]) async throws {
        guard !records.isEmpty else { return }
        let now = SQLiteValue.date(Date())
        let moved = try await database.write { db -> [QuarantinedRecord] in
            var moved: [QuarantinedRecord] = []
            var threadCounts = ThreadCountChanges()
            for record in records {
                let key: [SQLiteValue] = [.text(record.appIdentifier), .text(record.identifier)]
                let reason: SQLiteValue = .text(record.reason)
                if record.source == "pending" {
                    try db.execute(
                        """
                        INSERT INTO quarantine (source, app_id, record_id, record, reason, quarantined)
                        SELECT 'pending', app_id, request_id, request, ?, ? FROM pending WHERE app_id = ? AND request_id = ?
                        """, arguments: [reason, now] + key)
                    guard !(try db.query("DELETE FROM pending WHERE app_id = ? AND request_id = ? RETURNING 1", arguments: key)).isEmpty else { continue }
                } else {
                    try db.execute(
                        """
                        INSERT INTO quarantine (source, app_id, record_id, record, reason, quarantined)
                        SELECT 'delivered', app_id, notification_id, notification, ?, ? FROM delivered WHERE app_id = ? AND notification_id = ?
                        """, arguments: [reason, now] + key)
                    let removed = try db.query("DELETE FROM delivered WHERE app_id = ? AND notification_id = ? RETURNING thread_id", arguments: key)
                    guard let thread = removed.first?[0].text else { continue }
                    threadCounts.add(-1, appIdentifier: record.appIdentifier, threadIdentifier: thread)
                }
                moved.append(record)
            }
            try threadCounts.apply(in: db)
            return moved
        }
        guard !moved.isEmpty else { return }
        for handler in quarantineHandlers.withLock({ $0 }) { handler(moved) }
    }
}
