import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A chimed started for a benchmark in a home of its own under /tmp, stopped (SIGTERM) at the end.
final class DaemonUnderTest: @unchecked Sendable {  // used by one benchmark task at a time
    let process: Process
    let home: URL
    let runtime: URL
    let token: String
    /// `127.0.0.1:PORT` when it serves one.
    let httpAddress: String?

    var socketPath: String { runtime.appendingPathComponent("chime/chimed.sock").path }
    var processIdentifier: Int32 { process.processIdentifier }

    /// The log lines containing `keep`, as the daemon wrote them.
    let keptLines = KeptLines()

    /// Starts `executable` (`--presenter log --authorization allow` and `extra`) and waits until it listens.
    /// - Parameter keep: Keep the log lines that contain it (`keptLines`).
    init(executable: String, extra: [String] = [], name: String, keep: String? = nil) throws {
        home = URL(fileURLWithPath: "/tmp/chime-bench-\(name)-\(UUID().uuidString.prefix(8))")
        runtime = home.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--presenter", "log", "--authorization", "allow"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        let deadline = Date().addingTimeInterval(20)
        while !seen.contains("listening on"), Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        guard seen.contains("listening on") else { throw BenchmarkFailure("\(executable) did not start: \(seen)") }
        // Keep draining its log so it never blocks writing; keep the lines a benchmark asked for.
        let handle = errors.fileHandleForReading
        let kept = keptLines
        Thread.detachNewThread {
            var pending = ""
            while case let chunk = handle.availableData, !chunk.isEmpty {
                guard let marker = keep else { continue }
                pending += String(decoding: chunk, as: UTF8.self)
                var lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
                pending = String(lines.removeLast())
                let wanted = lines.filter { $0.contains(marker) }.map(String.init)
                if !wanted.isEmpty { kept.lines.withLock { $0 += wanted } }
            }
        }
        token = try String(contentsOf: runtime.appendingPathComponent("chime/token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let address = try? String(contentsOf: runtime.appendingPathComponent("chime/http"), encoding: .utf8)
        httpAddress = address.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "http://", with: "") }
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: home)
    }

    /// The daemon's resident memory, in MiB.
    var residentMemory: Double {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }

    /// The daemon's open file descriptors.
    var openFiles: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count) ?? 0
    }
}

/// Lines of a daemon's log, kept as its draining thread reads them.
final class KeptLines: Sendable {
    let lines = Mutex<[String]>([])
}

/// Milliseconds between two instants.
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// p50, p99 and max of latencies in milliseconds.
struct LatencySummary: Encodable {
    var p50: Double
    var p99: Double
    var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))] }
        p50 = (at(0.5) * 1000).rounded() / 1000
        p99 = (at(0.99) * 1000).rounded() / 1000
        max = ((sorted.last ?? 0) * 1000).rounded() / 1000
    }
}
