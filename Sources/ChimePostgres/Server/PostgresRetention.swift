public import Foundation

/// Forgets what is older than each tenant keeps: delivered notifications, responses, events and finished
/// deliveries past the tenant's `retention_seconds`, idempotency keys after a day. Singleton work: of several nodes sweeping at once,
/// only the one holding the advisory lock sweeps; the others skip the round.
public struct PostgresRetention: Sendable {
    let database: PostgresDatabase
    /// Rows removed per statement, so a sweep never holds many locks for long.
    static let rowsPerStatement = 10_000
    /// How long a repeated `Idempotency-Key` replays its first answer.
    public static let idempotencyWindow: TimeInterval = 24 * 3_600
    /// The advisory lock of the sweep (`pg_try_advisory_xact_lock`).
    static let lock: Int64 = 0x6368_696d_6572_6574  // "chimeret"

    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// One round; returns the rows removed, or `nil` when another node holds the sweep.
    @discardableResult
    public func sweep(now: Date) async throws -> Int? {
        let statements = [
            """
            DELETE FROM delivered WHERE ctid = ANY(ARRAY(
                SELECT d.ctid FROM delivered d JOIN tenant t USING (tenant)
                WHERE d.date < $1 - t.retention_seconds LIMIT \(Self.rowsPerStatement)))
            """,
            """
            DELETE FROM response WHERE ctid = ANY(ARRAY(
                SELECT r.ctid FROM response r JOIN tenant t USING (tenant)
                WHERE r.date < $1 - t.retention_seconds LIMIT \(Self.rowsPerStatement)))
            """,
            """
            DELETE FROM event WHERE ctid = ANY(ARRAY(
                SELECT e.ctid FROM event e JOIN tenant t USING (tenant)
                WHERE e.created < $1 - t.retention_seconds LIMIT \(Self.rowsPerStatement)))
            """,
            """
            DELETE FROM delivery WHERE ctid = ANY(ARRAY(
                SELECT d.ctid FROM delivery d JOIN tenant t USING (tenant)
                WHERE d.state IN ('accepted', 'dead') AND d.updated < $1 - t.retention_seconds LIMIT \(Self.rowsPerStatement)))
            """,
            "DELETE FROM idempotency WHERE ctid = ANY(ARRAY(SELECT ctid FROM idempotency WHERE created < $1 - \(Self.idempotencyWindow) LIMIT \(Self.rowsPerStatement)))",
        ]
        return try await database.transaction { db -> Int? in
            guard try db.query("SELECT pg_try_advisory_xact_lock($1)", [.integer(Self.lock)]).first?[0] == .boolean(true) else { return nil }
            var removed = 0
            for statement in statements {
                removed += try db.query(statement + " RETURNING 1", [.date(now)]).count
            }
            return removed
        }
    }
}
