import Synchronization

/// A write waiting for the transaction that will carry it: the caller's closure and how to report back.
protocol WriteSubmission: AnyObject, Sendable {
    /// Runs the caller's closure on the writer's connection, inside the submission's savepoint.
    ///
    /// - Returns: whether the closure returned (`true`) or threw (`false`).
    func perform(_ db: SQLiteConnection) -> Bool

    /// Reports the outcome to the caller, exactly once: `failure` if given, otherwise what the closure
    /// returned or threw.
    func complete(_ failure: (any Error)?)
}

/// A submission whose closure returns `Value`.
// @unchecked Sendable: `outcome` is only touched by `perform` and `complete`, both on the writer's serial queue.
final class Submission<Value: Sendable>: WriteSubmission, @unchecked Sendable {
    private let body: @Sendable (SQLiteConnection) throws -> Value
    private let completion: @Sendable (Result<Value, any Error>) -> Void
    private var outcome: Result<Value, any Error>?

    init(_ body: @escaping @Sendable (SQLiteConnection) throws -> Value, completion: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        self.body = body
        self.completion = completion
    }

    func perform(_ db: SQLiteConnection) -> Bool {
        let outcome = Result { try db.withTransactionControlDenied { try body(db) } }
        self.outcome = outcome
        if case .success = outcome { return true }
        return false
    }

    func complete(_ failure: (any Error)?) {
        if let failure {
            completion(.failure(failure))
        } else if let outcome {
            completion(outcome)
        } else {
            preconditionFailure("a write was completed before it ran")
        }
        outcome = nil
    }
}

/// Group commit: the writes submitted while a transaction is being committed travel together in the
/// next transaction.
///
/// The first write submitted to an idle writer starts a drain on the writer's queue. The drain takes
/// every submission waiting at that moment, runs them in submission order inside one
/// `BEGIN IMMEDIATE … COMMIT`, each in its own savepoint, commits, reports to each caller, and then takes
/// whatever arrived meanwhile, until nothing waits. Under load every commit (and its `fsync`) carries
/// many writes; an isolated write still commits at once, without waiting for company.
///
/// Outcomes:
/// - A closure that throws is rolled back to its savepoint and its caller gets the error at once; the
///   other writes of its batch are not affected.
/// - Callers whose closure returned get their value only after the `COMMIT` holding their change
///   returned `SQLITE_OK`, that is, once the change is durable (`synchronous=FULL`). If `BEGIN` or
///   `COMMIT` fails, each of them gets that error and none of their changes is kept.
/// - If SQLite rolls back the whole transaction on its own (disk full, I/O error, an
///   `ON CONFLICT ROLLBACK` clause, `RAISE(ROLLBACK, …)`), the write that hit it fails and the writes that
///   had run before it in the batch run again, in order, in a new transaction. Closures can therefore
///   run more than once, and must act only on the database and their return value.
final class GroupCommitWriter: Sendable {
    private struct State {
        var waiting: [any WriteSubmission] = []
        var draining = false
    }

    private let connection: SerialConnection
    private let state = Mutex(State())
    private let commits = Atomic<Int>(0)

    init(connection: SerialConnection) {
        self.connection = connection
    }

    /// The number of transactions committed so far.
    var committedTransactionCount: Int { commits.load(ordering: .relaxed) }

    /// The number of writes submitted and not yet taken into a transaction.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Queues `submission` behind every write submitted before it; returns at once.
    func submit(_ submission: any WriteSubmission) {
        let startDrain = state.withLock { state in
            state.waiting.append(submission)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if startDrain {
            connection.async { db in self.drain(db) }
        }
    }

    /// Commits batches until no submission waits. Runs on the writer's queue; `db` is `nil` once closed.
    private func drain(_ db: SQLiteConnection?) {
        while true {
            let batch = state.withLock { state -> [any WriteSubmission] in
                if state.waiting.isEmpty { state.draining = false }
                defer { state.waiting.removeAll(keepingCapacity: true) }
                return state.waiting
            }
            if batch.isEmpty { return }
            if let db {
                commit(batch, db)
            } else {
                for submission in batch { submission.complete(SerialConnection.closedError) }
            }
        }
    }

    /// Closes the writer's connection once the writes submitted before have been committed.
    func close() async {
        await connection.close()
    }

    /// Runs `batch` in one transaction (more than one only if SQLite rolls a transaction back on its own)
    /// and completes every submission in it.
    private func commit(_ batch: [any WriteSubmission], _ db: SQLiteConnection) {
        var waiting = batch[...]
        while !waiting.isEmpty {
            do {
                try db.execute("BEGIN IMMEDIATE")
            } catch {
                for submission in waiting { submission.complete(error) }
                return
            }
            var carried: [any WriteSubmission] = []
            var transactionLost = false
            while !transactionLost, let submission = waiting.popFirst() {
                switch apply(submission, db) {
                case .applied:
                    carried.append(submission)
                case .rolledBack:
                    submission.complete(nil)
                case .transactionLost(let failure):
                    submission.complete(failure)
                    transactionLost = true
                }
            }
            if transactionLost {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                waiting = carried[...] + waiting
                continue
            }
            do {
                try db.execute("COMMIT")
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                for submission in carried { submission.complete(error) }
                return
            }
            commits.add(1, ordering: .relaxed)
            for submission in carried { submission.complete(nil) }
            return
        }
    }

    private enum Step {
        /// The closure returned and its changes are in the transaction.
        case applied
        /// The closure threw and its savepoint was rolled back; the transaction goes on.
        case rolledBack
        /// The transaction is gone or unusable; the submission fails with `failure` (its own outcome if `nil`).
        case transactionLost(failure: (any Error)?)
    }

    private func apply(_ submission: any WriteSubmission, _ db: SQLiteConnection) -> Step {
        do {
            try db.execute("SAVEPOINT chime_write")
        } catch {
            return .transactionLost(failure: error)
        }
        let returned = submission.perform(db)
        guard db.isInTransaction else {
            // SQLite rolled back the whole transaction after an error (closures cannot end it themselves).
            return .transactionLost(failure: returned
                ? SQLiteError(.abort, "SQLite rolled back the transaction after an error that the write caught")
                : nil)
        }
        do {
            if !returned { try db.execute("ROLLBACK TO chime_write") }
            try db.execute("RELEASE chime_write")
        } catch {
            return .transactionLost(failure: returned ? error : nil)
        }
        return returned ? .applied : .rolledBack
    }
}
