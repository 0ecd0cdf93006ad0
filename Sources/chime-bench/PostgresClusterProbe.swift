import ChimePostgres
import Foundation
import Synchronization

/// What the PostgreSQL server does while a benchmark runs, seen from outside: the CPU time of its
/// processes, and sessions waiting for a lock. The cluster must run on this machine (`script/postgres`'s
/// does).
struct PostgresClusterProbe {
    /// The postmaster: the parent of this connection's backend.
    let postmaster: Int32

    init(_ database: PostgresDatabase) async throws {
        guard let backend = try await database.read({ db in try db.query("SELECT pg_backend_pid()::int8").first?[0].integer }),
            let fields = Self.statFields(Int32(backend)), let parent = Int32(fields[1])
        else { throw BenchmarkFailure("cannot find the PostgreSQL server's processes (is it on another machine?)") }
        postmaster = parent
    }

    /// CPU seconds (user and system) of the cluster: the postmaster, its live children (backends,
    /// background workers), and the children that have exited (counted into the postmaster's `cutime`
    /// and `cstime` when it reaps them, so a backend that ends between two readings is not lost).
    func cpuSeconds() -> Double {
        var ticks = 0
        if let fields = Self.statFields(postmaster) { ticks += [11, 12, 13, 14].reduce(0) { $0 + (Int(fields[$1]) ?? 0) } }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), pid != postmaster, let fields = Self.statFields(pid), Int32(fields[1]) == postmaster else { continue }
            ticks += (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }
        return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The fields of `/proc/<pid>/stat` after the command name, from the state (`[0]`) on: `[1]` is the
    /// parent, `[11]`–`[14]` utime, stime, cutime, cstime in clock ticks (proc(5), fields 3 onwards).
    static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 14 ? fields : nil
    }

    /// Samples `pg_stat_activity` every `interval` on a connection of its own until cancelled: how many
    /// samples found a session waiting for a lock (`wait_event_type = 'Lock'`), and the most at once.
    static func sampleLockWaits(conninfo: String, every interval: Duration = .milliseconds(50)) -> Task<LockWaits, any Error> {
        Task {
            let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 1))
            var waits = LockWaits()
            while !Task.isCancelled {
                let rows = try await database.read { db in
                    try db.query(
                        "SELECT wait_event || ': ' || left(query, 60) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
                }
                waits.samples += 1
                if !rows.isEmpty {
                    waits.samplesWithLockWaits += 1
                    waits.mostWaitingAtOnce = max(waits.mostWaitingAtOnce, rows.count)
                    for row in rows { waits.events.insert(row[0].text ?? "?") }
                }
                try? await Task.sleep(for: interval)
            }
            await database.close()
            return waits
        }
    }

    struct LockWaits: Encodable {
        var samples = 0
        var samplesWithLockWaits = 0
        var mostWaitingAtOnce = 0
        /// The lock kinds waited for (`transactionid`, `tuple`, `object`, …) with the start of the waiting
        /// statement (the benchmark's and Chime's own SQL; arguments are never in it).
        var events = Set<String>()
    }
}
