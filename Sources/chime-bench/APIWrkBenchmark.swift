import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `GET /v1/status` on chimed's loopback listener under wrk, beside nginx serving a static file of the
/// same size on the same machine, in the same run: rounds alternate between the two, and each side's best
/// round counts.
struct APIWrkBenchmark {
    var chimed: String
    var rounds = 3
    var seconds = 8
    var threads = 2
    var connections = 100

    struct Side: Encodable {
        var requestsPerSecond: Double
        var p50: String
        var p99: String
    }

    struct Report: Encodable {
        let workload = "api-wrk"
        var command: String
        var chimed: Side
        var nginx: Side
        /// chimed / nginx (the target is at least 0.7).
        var ratio: Double
    }

    func run() throws -> Report {
        let wrk = try Self.tool("wrk")
        let nginxBinary = try Self.tool("nginx", in: ["/usr/sbin"])
        let daemon = try DaemonUnderTest(executable: chimed, name: "wrk")
        defer { daemon.stop() }
        guard let address = daemon.httpAddress else { throw BenchmarkFailure("chimed serves no loopback address") }
        let status = try Self.fetch(address: address, token: daemon.token)
        let nginx = try Nginx(binary: nginxBinary, body: status)
        defer { nginx.stop() }

        var best: (chimed: Side?, nginx: Side?) = (nil, nil)
        for _ in 0..<rounds {
            let ours = try measure(wrk, url: "http://\(address)/v1/status", token: daemon.token)
            if ours.requestsPerSecond > best.chimed?.requestsPerSecond ?? 0 { best.chimed = ours }
            let theirs = try measure(wrk, url: "http://127.0.0.1:\(nginx.port)/status.json", token: daemon.token)
            if theirs.requestsPerSecond > best.nginx?.requestsPerSecond ?? 0 { best.nginx = theirs }
        }
        guard let chimedSide = best.chimed, let nginxSide = best.nginx else { throw BenchmarkFailure("no round ran") }
        return Report(
            command: "wrk -t\(threads) -c\(connections) -d\(seconds)s --latency -H 'Authorization: Bearer …' URL", chimed: chimedSide, nginx: nginxSide,
            ratio: (chimedSide.requestsPerSecond / nginxSide.requestsPerSecond * 100).rounded() / 100)
    }

    private func measure(_ wrk: String, url: String, token: String) throws -> Side {
        let output = try Self.runTool(
            wrk, ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", "-H", "Authorization: Bearer \(token)", url])
        guard output.contains("Requests/sec:"), !output.contains("Non-2xx") else { throw BenchmarkFailure("wrk against \(url) failed:\n\(output)") }
        func field(_ prefix: String) -> String {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }
                .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) } ?? "?"
        }
        return Side(requestsPerSecond: Double(field("Requests/sec:")) ?? 0, p50: field("50%"), p99: field("99%"))
    }

    static func tool(_ name: String, in extra: [String] = []) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"] + extra
        for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) { return directory + "/" + name }
        throw BenchmarkFailure("\(name) is not installed: apt-get install wrk nginx")
    }

    static func runTool(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The status as chimed answers it now, through curl, so nginx serves a body of the same size.
    static func fetch(address: String, token: String) throws -> Data {
        let text = try runTool(try tool("curl"), ["-s", "-H", "Authorization: Bearer \(token)", "http://\(address)/v1/status"])
        guard text.hasPrefix("{") else { throw BenchmarkFailure("chimed's status could not be read: \(text)") }
        return Data(text.utf8)
    }
}

/// nginx serving one static file on a free loopback port, two worker processes, no access log.
final class Nginx {
    let port: Int
    let folder: URL
    let process: Process

    init(binary: String, body: Data) throws {
        folder = URL(fileURLWithPath: "/tmp/chime-bench-nginx-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("root"), withIntermediateDirectories: true)
        try body.write(to: folder.appendingPathComponent("root/status.json"))
        port = Self.freePort()
        let configuration = """
            daemon off; worker_processes 2; pid \(folder.path)/nginx.pid; error_log \(folder.path)/error.log;
            events { worker_connections 4096; }
            http {
              access_log off; default_type application/json;
              client_body_temp_path \(folder.path)/body; proxy_temp_path \(folder.path)/proxy; fastcgi_temp_path \(folder.path)/fastcgi;
              uwsgi_temp_path \(folder.path)/uwsgi; scgi_temp_path \(folder.path)/scgi;
              server { listen 127.0.0.1:\(port); root \(folder.path)/root; }
            }
            """
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-c", folder.appendingPathComponent("nginx.conf").path, "-p", folder.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? APIWrkBenchmark.runTool(try APIWrkBenchmark.tool("curl"), ["-s", "http://127.0.0.1:\(port)/status.json"]))?.hasPrefix("{") != true {
            usleep(50_000)
        }
    }

    func stop() {
        kill(process.processIdentifier, SIGQUIT)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A port nobody listens on now (bound and released).
    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
