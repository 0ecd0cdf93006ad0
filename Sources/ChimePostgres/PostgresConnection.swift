import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq, used by one thread at a time (`PostgresDatabase` gives
/// each connection its own queue).
///
/// Statements are parameterised and prepared once per connection (`PQprepare`, then `PQexecPrepared`),
/// with parameters and results in binary format. A broken connection is noticed on the call that fails
/// (`PostgresError.Kind.connection`); `PostgresDatabase` then drops it and makes a new one.
public final class PostgresConnection {
    private let conninfo: String
    private var handle: OpaquePointer?
    /// The name each SQL text was prepared under on this connection.
    private var prepared: [String: String] = [:]

    /// Settings every session starts with: no statement and no idle transaction may hold the connection
    /// (and the rows it locked) forever.
    static let sessionSettings = """
        SET statement_timeout = '30s'; SET lock_timeout = '10s'; SET idle_in_transaction_session_timeout = '60s';
        SET client_min_messages = 'warning'
        """

    init(conninfo: String) throws(PostgresError) {
        self.conninfo = conninfo
        try connect()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    private func connect() throws(PostgresError) {
        handle = PQconnectdb(conninfo)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { Self.message(of: $0) } ?? "libpq could not allocate a connection"
            throw PostgresError(.connection, "could not connect to PostgreSQL: \(message)")
        }
        try execute(Self.sessionSettings)
    }

    /// Whether libpq still considers the connection usable.
    public var isOpen: Bool {
        handle.map { PQstatus($0) == CONNECTION_OK } ?? false
    }

    /// Runs SQL without parameters, possibly several statements (migrations, `BEGIN`, `COMMIT`).
    public func execute(_ sql: String) throws(PostgresError) {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs a parameterised statement and returns its rows (none for a statement without `RETURNING`).
    @discardableResult
    public func query(_ sql: String, _ arguments: [PostgresValue] = []) throws(PostgresError) -> [[PostgresValue]] {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        let name = try preparedName(for: sql, arguments: arguments, on: handle)
        let wire = arguments.map(\.wireBytes)
        let lengths = wire.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: arguments.count)
        // libpq reads each parameter through a pointer that must stay valid for the call.
        let buffers = wire.map { bytes -> UnsafeMutablePointer<UInt8>? in
            guard let bytes else { return nil }
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            buffer.initialize(from: bytes, count: bytes.count)
            return buffer
        }
        defer { buffers.forEach { $0?.deallocate() } }
        let values = buffers.map { $0.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } }
        let result = PQexecPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 1)
        defer { PQclear(result) }
        try check(result, sql: sql)
        return try rows(of: result)
    }

    /// Runs a `COPY … FROM STDIN` statement with `data` as its input, and returns how many rows it wrote.
    ///
    /// COPY is the fastest way rows reach PostgreSQL (one statement, no per-row parsing of parameters), so
    /// it is the floor bulk writes are measured against, and how large test data is loaded. `data` is in
    /// the format the statement names (`WITH (FORMAT binary)` or text); it is sent in pieces of 1 MiB.
    /// Like every statement here, it runs in the caller's transaction if one is open.
    ///
    /// ```swift
    /// try db.copyIn("COPY bench (id, name) FROM STDIN", Array("1\tone\n2\ttwo\n".utf8))   // 2
    /// ```
    @discardableResult
    public func copyIn(_ sql: String, _ data: [UInt8]) throws(PostgresError) -> Int {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start, sql: sql)
            throw PostgresError(.server, "the statement is not a COPY FROM STDIN", sql: sql)
        }
        PQclear(start)
        var sent = true
        data.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 1 << 20) where sent {
                let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(offset + (1 << 20), bytes.count)])
                sent = PQputCopyData(handle, piece.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(piece.count)) == 1
            }
        }
        // Ending the copy with an error message makes the server roll the statement back.
        let ended = sent ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "the client could not send the rows")
        guard ended == 1 else { throw PostgresError(.connection, "the connection to PostgreSQL broke during COPY: \(Self.message(of: handle))", sql: sql) }
        var rows = 0
        var failure: PostgresError?
        // libpq hands out the statement's result, then nil.
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            do {
                try check(result, sql: sql)
                rows += Int(String(cString: PQcmdTuples(result))) ?? 0
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return rows
    }

    /// Waits up to `seconds` for notifications on the channels this connection `LISTEN`s to, and returns
    /// their channel names (empty when none came in time). Only a connection that does nothing else may
    /// wait (`PostgresListener`).
    public func notifications(waitingUpTo seconds: Double) throws(PostgresError) -> [String] {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        var channels = try drainNotifications(handle)
        guard channels.isEmpty else { return channels }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, min(seconds, 3_600)) * 1_000))
        if ready < 0 && errno != EINTR {
            throw PostgresError(.connection, "waiting for notifications failed: \(String(cString: strerror(errno)))")
        }
        channels = try drainNotifications(handle)
        return channels
    }

    private func drainNotifications(_ handle: OpaquePointer) throws(PostgresError) -> [String] {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(.connection, "the connection to PostgreSQL broke: \(Self.message(of: handle))")
        }
        var channels: [String] = []
        while let notification = PQnotifies(handle) {
            channels.append(String(cString: notification.pointee.relname))
            PQfreemem(notification)
        }
        return channels
    }

    private func preparedName(for sql: String, arguments: [PostgresValue], on handle: OpaquePointer) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "chime_\(prepared.count + 1)"
        // Parameter types from the first use; a NULL argument leaves its type to the server.
        let types = arguments.map(\.typeOID)
        let result = PQprepare(handle, name, sql, Int32(types.count), types)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        guard let result else {
            throw PostgresError(.connection, "no result from PostgreSQL: \(Self.message(of: handle))", sql: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorMessage(result).map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if PQstatus(handle) != CONNECTION_OK {
                throw PostgresError(.connection, "the connection to PostgreSQL broke: \(message)", sqlState: sqlState, sql: sql)
            }
            throw PostgresError(.server, message, sqlState: sqlState, sql: sql)
        }
    }

    private func rows(of result: OpaquePointer?) throws(PostgresError) -> [[PostgresValue]] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        guard rowCount > 0 else { return [] }
        let types = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [[PostgresValue]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [PostgresValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, row, column))
                let start = PQgetvalue(result, row, column).map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                values.append(try PostgresValue.decode(UnsafeBufferPointer(start: start, count: length), type: types[Int(column)]))
            }
            rows.append(values)
        }
        return rows
    }

    private static func message(of handle: OpaquePointer) -> String {
        PQerrorMessage(handle).map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown error"
    }
}
