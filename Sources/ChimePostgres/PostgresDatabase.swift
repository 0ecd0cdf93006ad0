import Foundation
import Synchronization

/// A PostgreSQL database reached through a small pool of connections, each on its own thread, with the
/// schema brought up to date on opening.
///
/// libpq blocks, so each connection works on its own dispatch queue and callers wait without holding a
/// thread. Work is retried when retrying is safe — the connection broke before anything was committed,
/// or the server rolled a transaction back to resolve a conflict — after making the connection again, so
/// a PostgreSQL restart costs callers a pause, not an error. What is not safe to retry is surfaced: a
/// connection that broke during `COMMIT` throws `.outcomeUnknown`.
///
/// ```swift
/// let database = try await PostgresDatabase(conninfo: "host=/run/postgresql dbname=chime", migrations: schema)
/// let count = try await database.read { db in try db.query("SELECT count(*) FROM pending") }
/// ```
public final class PostgresDatabase: Sendable {
    public struct Configuration: Sendable {
        /// How many connections the pool holds (PostgreSQL's default limit is 100 for all clients).
        public var connections: Int
        /// How long a call keeps retrying while the server is unreachable or restarting, in total.
        public var retryFor: Duration

        public init(connections: Int = 4, retryFor: Duration = .seconds(15)) {
            precondition(connections >= 1, "a pool holds at least one connection")
            self.connections = connections
            self.retryFor = retryFor
        }
    }

    private let lanes: Pool
    private let configuration: Configuration
    /// Where the pool connects, for connections of their own (`PostgresListener`).
    let conninfo: String

    /// Opens the pool and migrates the schema; while the server cannot be reached, it keeps trying for
    /// `retryFor`.
    ///
    /// - Throws: `PostgresError` `.connection` when the server cannot be reached, `.schemaTooNew` when
    ///   the database was written by newer code, `.server` when a migration fails (it rolled back).
    public init(conninfo: String, migrations: [PostgresMigration], configuration: Configuration = Configuration()) async throws {
        self.configuration = configuration
        self.conninfo = conninfo
        var made: [Lane] = []
        for index in 0..<configuration.connections {
            made.append(Lane(conninfo: conninfo, label: "chime.postgres.\(index)"))
        }
        lanes = Pool(made)
        try await run { db in try db.migrate(migrations) }
    }

    /// Runs `body` outside a transaction (each statement sees what is committed when it starts): for
    /// reads of one statement. Retried on a broken connection, so `body` may run more than once.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> Result) async throws -> Result {
        try await run(body)
    }

    /// Runs `body` in a read-only transaction whose statements all see the database as it was when the
    /// first one started: for reads of several statements that must agree (a page read in phases).
    public func snapshot<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> Result) async throws -> Result {
        try await run { db in
            try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let result = try body(db)
                try db.execute("COMMIT")
                return result
            } catch {
                if db.isOpen { try? db.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. Retried as a
    /// whole when that is safe (see the type's documentation), so `body` may run more than once and must
    /// do nothing outside the database.
    @discardableResult
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> Result) async throws -> Result {
        try await run { db in
            try db.execute("BEGIN")
            let result: Result
            do {
                result = try body(db)
            } catch {
                if db.isOpen { try? db.execute("ROLLBACK") }
                throw error
            }
            do {
                try db.execute("COMMIT")
            } catch let error as PostgresError where error.kind == .connection {
                throw PostgresError(.outcomeUnknown, "the connection to PostgreSQL broke while a transaction committed: \(error.message)")
            }
            return result
        }
    }

    /// Closes every connection once the work in progress has finished.
    public func close() async {
        await lanes.closeAll()
    }

    private func run<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> Result) async throws -> Result {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.retryFor
        var pause = Duration.milliseconds(25)
        while true {
            let lane = await lanes.take()
            let outcome = await lane.run(body)
            lanes.give(lane)
            switch outcome {
            case .success(let result): return result
            case .failure(let error):
                guard let failure = error as? PostgresError, failure.isRetryable, clock.now + pause < deadline else { throw error }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(1))
            }
        }
    }
}

/// One connection and the queue its blocking calls run on. Its state is touched only on that queue.
final class Lane: @unchecked Sendable {
    private let conninfo: String
    private let queue: DispatchQueue
    private var connection: PostgresConnection?

    init(conninfo: String, label: String) {
        self.conninfo = conninfo
        queue = DispatchQueue(label: label)
    }

    func run<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> Result) async -> Swift.Result<Result, any Error> {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.runHere(body))
            }
        }
    }

    private func runHere<Result>(_ body: (PostgresConnection) throws -> Result) -> Swift.Result<Result, any Error> {
        do {
            if connection == nil || connection?.isOpen == false {
                connection = nil
                connection = try PostgresConnection(conninfo: conninfo)
            }
            guard let connection else { throw PostgresError(.connection, "no connection") }
            return .success(try body(connection))
        } catch {
            // A broken connection is dropped; the next use makes a new one.
            if connection?.isOpen != true { connection = nil }
            return .failure(error)
        }
    }

    func close() async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.connection = nil
                continuation.resume()
            }
        }
    }
}

/// The lanes not in use, and the callers waiting for one, first come first served.
final class Pool: Sendable {
    private struct State {
        var idle: [Lane]
        var waiting: [CheckedContinuation<Lane, Never>] = []
    }

    private let all: [Lane]
    private let state: Mutex<State>

    init(_ lanes: [Lane]) {
        all = lanes
        state = Mutex(State(idle: lanes))
    }

    func take() async -> Lane {
        await withCheckedContinuation { continuation in
            let lane = state.withLock { state -> Lane? in
                if let lane = state.idle.popLast() { return lane }
                state.waiting.append(continuation)
                return nil
            }
            if let lane { continuation.resume(returning: lane) }
        }
    }

    func give(_ lane: Lane) {
        let waiter = state.withLock { state -> CheckedContinuation<Lane, Never>? in
            if state.waiting.isEmpty {
                state.idle.append(lane)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: lane)
    }

    func closeAll() async {
        for lane in all { await lane.close() }
    }
}
