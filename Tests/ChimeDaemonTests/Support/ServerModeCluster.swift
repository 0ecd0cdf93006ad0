import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Server mode as a backend runs it: a database of its own in the test cluster, and `chimed --server`
/// nodes on it, each on a loopback port, spoken to over raw HTTP.
final class ServerModeCluster: @unchecked Sendable {  // used by one test at a time
    let conninfo: String
    let database: PostgresDatabase
    private(set) var nodes: [ChildProcess] = []
    private(set) var ports: [UInt16] = []
    /// Options every node is started with besides the database, address and name.
    let nodeArguments: [String]

    private init(conninfo: String, database: PostgresDatabase, nodeArguments: [String]) {
        self.conninfo = conninfo
        self.database = database
        self.nodeArguments = nodeArguments
    }

    /// A new database (nodes claim every tenant's due fires, so no other test's rows may be in it) and
    /// `nodes` nodes on it.
    static func start(nodes count: Int, on postgres: PostgresCluster? = nil, arguments: [String] = []) async throws -> ServerModeCluster {
        let shared = try await PostgresCluster.shared()
        let postgres = postgres ?? shared
        let conninfo = try await postgres.freshDatabase()
        let database = try await PostgresNotificationStore.open(conninfo: conninfo)
        let cluster = ServerModeCluster(conninfo: conninfo, database: database, nodeArguments: arguments)
        for index in 0..<count { try await cluster.startNode(named: "node\(index)") }
        return cluster
    }

    func startNode(named name: String) async throws {
        let process = try ChildProcess(
            DaemonHome.executable, ["--server", "--database", conninfo, "--http", "127.0.0.1:0", "--node", name] + nodeArguments, name: name)
        let line = try await process.errors.take("\(name) listening") { $0.contains("listening on http://127.0.0.1:") }
        guard let range = line.range(of: "http://127.0.0.1:"), let port = UInt16(line[range.upperBound...].prefix { $0.isNumber }) else {
            throw ServerModeFailure(description: "no port in \(line)")
        }
        nodes.append(process)
        ports.append(port)
    }

    /// A tenant and a key of it with every scope.
    func tenant(_ id: String) async throws -> String {
        let directory = TenantDirectory(database: database)
        try await directory.createTenant(id, name: id)
        return try await directory.issueKey(tenant: id, name: "test", scopes: [.admin]).secret
    }

    /// One request to node `node`; the answer's status and JSON body.
    func call(_ method: String, _ path: String, key: String, body: String? = nil, node: Int = 0, headers: [String] = []) throws -> (status: Int, json: Any?, text: String) {
        let connection = try RawHTTPConnection(loopbackPort: ports[node])
        connection.request(method, path, token: key, body: body, host: "127.0.0.1:\(ports[node])", extraHeaders: headers)
        let answer = try connection.answer(within: 30)
        return (answer.status, try? JSONSerialization.jsonObject(with: Data(answer.body)), answer.text)
    }

    /// One request with a body of raw bytes (`text/plain`) to node `node`.
    func callBytes(_ method: String, _ path: String, key: String, body: [UInt8], node: Int = 0) throws -> (status: Int, text: String) {
        let connection = try RawHTTPConnection(loopbackPort: ports[node])
        let head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(ports[node])\r\nAuthorization: Bearer \(key)\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n\r\n"
        connection.send(Array(head.utf8) + body)
        let answer = try connection.answer(within: 30)
        return (answer.status, answer.text)
    }

    /// One value from the database.
    func value(_ sql: String) async throws -> Int64 {
        try await database.read { db in try db.query(sql).first?[0].integer ?? -1 }
    }

    /// Waits until no request is pending, for as long as the nodes keep firing: fails when the count has
    /// not fallen for `stall` seconds (a claim nobody takes over, a node that stopped firing), or after
    /// `limit`. A burst's pace is the machine's, which other work shares; a stall is a defect.
    func drained(_ what: String, stall: Double = 30, limit: Double = 600) async throws {
        let deadline = ContinuousClock.now + .seconds(limit)
        var left = try await value("SELECT count(*) FROM pending")
        var lastProgress = ContinuousClock.now
        while left > 0 {
            try await Task.sleep(for: .milliseconds(200))
            let now = try await value("SELECT count(*) FROM pending")
            if now < left { lastProgress = ContinuousClock.now }
            left = now
            if ContinuousClock.now - lastProgress > .seconds(stall) {
                throw ServerModeFailure(description: "\(what): \(left) requests still pending and none fired for \(Int(stall)) s")
            }
            if ContinuousClock.now > deadline { throw ServerModeFailure(description: "\(what): \(left) requests still pending after \(Int(limit)) s") }
        }
    }

    func stop() async {
        for node in nodes { await node.stop() }
        await database.close()
    }
}

struct ServerModeFailure: Error, CustomStringConvertible {
    let description: String
}
