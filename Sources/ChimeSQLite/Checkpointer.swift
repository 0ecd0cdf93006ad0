internal import CSQLite
import Synchronization

/// Copies the write-ahead log back into the database file on a connection of its own, so that no commit
/// waits for it.
///
/// SQLite's automatic checkpoint runs inside the `COMMIT` that grows the log past 1,000 pages: that
/// commit also copies the log into the database file and syncs it, tens of milliseconds during which
/// every write of its group waits for its answer. Here the writer's log hook only asks for a checkpoint
/// and returns; the checkpointer's queue runs it (`PASSIVE`: it never blocks the writer or the readers)
/// while the writer goes on committing. Requests made while one is queued are one request.
///
/// Durability does not depend on it: a commit is durable once the log is synced. A checkpoint moves
/// committed pages into the database file, syncing the log before and the file after.
final class Checkpointer: Sendable {
    /// The log size, in pages, from which a commit asks for a checkpoint: SQLite's own default.
    static let threshold: Int32 = 1000

    private let connection: SerialConnection
    private let queued = Atomic<Bool>(false)

    init(connection: SerialConnection) {
        self.connection = connection
    }

    /// Queues a checkpoint unless one is queued already; returns at once.
    func request() {
        guard queued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        connection.async { db in
            // Cleared first: commits during this checkpoint may need another one after it.
            self.queued.store(false, ordering: .releasing)
            // Errors (a busy lock, a full disk) leave the log as it is; the next request tries again.
            try? db?.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    /// Closes the connection once a queued checkpoint has run.
    func close() async {
        await connection.close()
    }
}

/// The writer's log hook: asks the checkpointer for a checkpoint once the log has `pages` pages.
/// `context` is the checkpointer, which the connection keeps alive while the hook is set.
func walCommitted(_ context: UnsafeMutableRawPointer?, _: OpaquePointer?, _: UnsafePointer<CChar>?, _ pages: Int32) -> Int32 {
    if pages >= Checkpointer.threshold, let context {
        Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue().request()
    }
    return SQLITE_OK
}
