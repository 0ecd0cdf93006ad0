import ChimeSQLite
import Foundation

/// Writes rows 1…`count`, `concurrency` writes in flight at a time, and prints each row's id on
/// standard output as soon as its write has returned, that is, once it is durable.
///
/// A test kills the probe with `kill -9` in the middle of the burst, reopens the database and checks
/// that every printed id is there. Each id is printed with a single `write(2)` of a whole line, so a
/// line on the pipe is never half an id.
struct CrashProbe {
    static let usage = "USAGE: chime-sqlite-crash-probe <database-path> [--writes N] [--concurrency N]"

    /// The probe's schema; a test that reopens the file uses the same.
    static let migrations = [
        SQLiteMigration(version: 1, name: "probe", sql: "CREATE TABLE probe(id INTEGER PRIMARY KEY, note TEXT NOT NULL)"),
    ]

    var path: String
    var writes = 100_000
    var concurrency = 16

    /// Parses `arguments` (without the program name); `nil` if they are not valid.
    init?(arguments: [String]) {
        var arguments = arguments[...]
        guard let path = arguments.popFirst(), !path.hasPrefix("-") else { return nil }
        self.path = path
        while let option = arguments.popFirst() {
            guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return nil }
            switch option {
            case "--writes": writes = value
            case "--concurrency": concurrency = value
            default: return nil
            }
        }
    }

    func run() async throws {
        let database = try await SQLiteDatabase(path: path, migrations: Self.migrations)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...writes {
                if id > concurrency { try await group.next() }
                group.addTask {
                    try await database.write { db in
                        try db.execute("INSERT INTO probe(id, note) VALUES (?, ?)", arguments: [.integer(Int64(id)), "acknowledged"])
                    }
                    FileHandle.standardOutput.write(Data("\(id)\n".utf8))
                }
            }
            try await group.waitForAll()
        }
        await database.close()
    }
}
