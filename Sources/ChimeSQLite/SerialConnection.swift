import Dispatch

/// A connection and the serial dispatch queue that is the only place it is used.
///
/// Every SQLite call blocks (disk I/O, `fsync`, lock waits), so none runs on Swift's cooperative thread
/// pool: callers suspend on a continuation while the queue's thread does the work. The queue is serial,
/// so the connection is never used by two threads at once, which is what `SQLITE_OPEN_NOMUTEX` requires.
/// Work runs in the order it was submitted.
///
/// The connection closes on ``close()``, or when this object goes away after the last block queued on
/// it has run.
// @unchecked Sendable: `connection` is only read and written inside blocks running on the serial `queue`.
final class SerialConnection: @unchecked Sendable {
    private let queue: DispatchQueue
    /// `nil` once closed.
    private var connection: SQLiteConnection?

    private init(queue: DispatchQueue, connection: SQLiteConnection) {
        self.queue = queue
        self.connection = connection
    }

    /// Opens a connection on a new serial queue: `open` runs on that queue, and so does every later use.
    static func open(
        label: String, _ open: @escaping @Sendable () throws(SQLiteError) -> SQLiteConnection
    ) async throws(SQLiteError) -> SerialConnection {
        let queue = DispatchQueue(label: label)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<SerialConnection, SQLiteError>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(SQLiteError) in
                    SerialConnection(queue: queue, connection: try open())
                })
            }
        }
        return try result.get()
    }

    /// The error for any use after ``close()``.
    static let closedError = SQLiteError(.misuse, "the database is closed")

    /// Runs `body` with the connection on the queue, suspending the caller until it returns.
    ///
    /// - Throws: what `body` throws, or `.misuse` if the connection is closed.
    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                guard let connection = self.connection else {
                    return continuation.resume(throwing: Self.closedError)
                }
                continuation.resume(with: Result { try body(connection) })
            }
        }
    }

    /// Queues `body` to run with the connection (`nil` if closed); returns at once.
    func async(_ body: @escaping @Sendable (SQLiteConnection?) -> Void) {
        queue.async {
            body(self.connection)
        }
    }

    /// Closes the connection after the blocks queued before this call have run.
    func close() async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.connection = nil
                continuation.resume()
            }
        }
    }
}
