import ChimeCrypto
import ChimeDelivery
import Foundation

/// APNs requests per second over one HTTP/2 connection, through `APNsClient` with `--clients` requests in
/// flight, beside `h2load` (nghttp2-client) sending the same request over one connection with as many
/// streams at once, to the same server in the same run. Two servers:
/// - the stand-in for APNs the tests use (`Tests/ChimeTestSupport/apns_standin.py`: TLS, every provider
///   token's signature checked, headers and payload checked, answering 200). It is Python, and the
///   bottleneck of both clients: this side shows that Chime's client keeps up with it over one connection;
/// - nghttpd (nghttp2-server, C) over TLS, answering 200 to every POST at once: the clients' own ceiling.
struct APNsBenchmark {
    var requests = 5_000
    var concurrency = 100
    var rounds = 2

    struct Side: Encodable {
        let chimePerSecond: Double
        let h2loadPerSecond: Double
        /// Chime's rate as a ratio of h2load's.
        let ratio: Double
        /// Chime's requests that got no 200, in all rounds (see `measureChime`).
        let chimeFailed: Int
    }

    struct Result: Encodable {
        let workload = "apns"
        let requests: Int
        let concurrency: Int
        let payloadBytes: Int
        let standIn: Side
        let nghttpd: Side
        /// The connections Chime's requests to the stand-in came on.
        let connectionsUsed: Int
    }

    static let standIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/ChimeTestSupport/apns_standin.py")
        .standardizedFileURL.path

    func run() async throws -> Result {
        guard let h2load = ["/usr/bin/h2load", "/usr/local/bin/h2load"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw BenchmarkFailure("h2load is missing: apt-get install nghttp2-client")
        }
        // Two keys: APNs refuses a key's token when it changes within 20 minutes, and each client makes its own.
        let chimeKey = P256PrivateKey.generate(), h2loadKey = P256PrivateKey.generate()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = [
            "BENCHKEY01": ["team": "BENCHTEAM1", "public_pem": chimeKey.publicKey.pem],
            "BENCHKEY02": ["team": "BENCHTEAM1", "public_pem": h2loadKey.publicKey.pem],
        ]
        try JSONEncoder().encode(keys).write(to: folder.appendingPathComponent("keys.json"))
        let log = folder.appendingPathComponent("log.jsonl")
        let standIn = Process()
        standIn.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        standIn.arguments = [Self.standIn, "--keys", folder.appendingPathComponent("keys.json").path, "--log", log.path]
        let output = Pipe()
        standIn.standardOutput = output
        try standIn.run()
        // SIGKILL: a child of this process may inherit SIGTERM ignored.
        defer { kill(standIn.processIdentifier, SIGKILL) }
        let words = (String(data: output.fileHandleForReading.availableData, encoding: .utf8) ?? "").split(whereSeparator: \.isWhitespace)
        guard words.count == 2, let port = Int(words[0]) else { throw BenchmarkFailure("the APNs stand-in printed no port") }
        let url = "https://127.0.0.1:\(port)"

        let payload = Array(#"{"aps":{"alert":{"title":"Reminder","body":"Water the plants on the balcony"},"sound":"default","badge":1}}"#.utf8)
        let token = String(repeating: "ab", count: 32)
        var configuration = APNsClient.Configuration()
        configuration.production = url
        configuration.certificateAuthorities = String(words[1])
        let client = APNsClient(configuration: configuration)
        let credentials = APNsCredentials(teamID: "BENCHTEAM1", keyID: "BENCHKEY01", key: chimeKey)
        // One request first: the connection is up before the clock starts, for both.
        _ = try await client.send(APNsNotification(deviceToken: token, topic: "com.example.bench", payload: payload), environment: .production, credentials: credentials)

        let jwt = ES256Token.sign(
            header: Array(#"{"alg":"ES256","kid":"BENCHKEY02"}"#.utf8), claims: Array(#"{"iss":"BENCHTEAM1","iat":\#(Int(Date().timeIntervalSince1970))}"#.utf8),
            with: h2loadKey)
        let payloadFile = folder.appendingPathComponent("payload.json")
        try Data(payload).write(to: payloadFile)
        let certificate = String(words[1])
        let nghttpd = try startNghttpd(certificate: certificate, token: token, folder: folder)
        defer { kill(nghttpd.process.processIdentifier, SIGKILL) }
        var fast = configuration
        fast.production = "https://127.0.0.1:\(nghttpd.port)"
        let fastClient = APNsClient(configuration: fast)
        _ = try await fastClient.send(APNsNotification(deviceToken: token, topic: "com.example.bench", payload: payload), environment: .production, credentials: credentials)

        var best = (chime: 0.0, h2load: 0.0, fastChime: 0.0, fastH2load: 0.0)
        var failed = (standIn: 0, nghttpd: 0)
        for _ in 0..<rounds {
            let chime = try await measureChime(client, credentials: credentials, token: token, payload: payload)
            best.chime = max(best.chime, chime.rate)
            failed.standIn += chime.failed
            best.h2load = max(best.h2load, try measureH2load(h2load, url: url + "/3/device/" + token, jwt: jwt, payload: payloadFile.path))
            let fastChime = try await measureChime(fastClient, credentials: credentials, token: token, payload: payload)
            best.fastChime = max(best.fastChime, fastChime.rate)
            failed.nghttpd += fastChime.failed
            best.fastH2load = max(best.fastH2load, try measureH2load(h2load, url: fast.production + "/3/device/" + token, jwt: jwt, payload: payloadFile.path))
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        var chimeConnections = Set<Int>()
        for line in text.split(separator: "\n") where line.contains("Bearer") || line.contains("bearer") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                (object["headers"] as? [String: String])?["apns-topic"] == "com.example.bench", object["authorization"] as? String != "bearer \(jwt)",
                let connection = object["connection"] as? Int
            else { continue }
            chimeConnections.insert(connection)
        }
        func side(_ chime: Double, _ h2load: Double, failed: Int) -> Side {
            Side(chimePerSecond: chime.rounded(), h2loadPerSecond: h2load.rounded(), ratio: (chime / h2load * 1000).rounded() / 1000, chimeFailed: failed)
        }
        return Result(
            requests: requests, concurrency: concurrency, payloadBytes: payload.count, standIn: side(best.chime, best.h2load, failed: failed.standIn),
            nghttpd: side(best.fastChime, best.fastH2load, failed: failed.nghttpd), connectionsUsed: chimeConnections.count)
    }

    /// nghttpd serving an empty file at `/3/device/<token>` over TLS with the stand-in's certificate; every
    /// POST there is answered 200 once its body is read.
    private func startNghttpd(certificate: String, token: String, folder: URL) throws -> (process: Process, port: Int) {
        guard let binary = ["/usr/sbin/nghttpd", "/usr/bin/nghttpd"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw BenchmarkFailure("nghttpd is missing: apt-get install nghttp2-server")
        }
        let documents = folder.appendingPathComponent("documents/3/device")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data().write(to: documents.appendingPathComponent(token))
        let port = Nginx.freePort()
        let key = URL(fileURLWithPath: certificate).deletingLastPathComponent().appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-d", folder.appendingPathComponent("documents").path, String(port), key, certificate]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? APIWrkBenchmark.runTool(try APIWrkBenchmark.tool("curl"), ["-sk", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/3/device/\(token)"])) != "200" {
            usleep(50_000)
        }
        return (process, port)
    }

    /// `concurrency` tasks, each sending its share one after another over the client's one connection.
    /// Requests that fail are counted, not retried; more than 1% of them ends the benchmark. (nghttpd, which
    /// may answer before it has read a request's body and then reset the stream, makes libcurl 7.88 fail
    /// an occasional request with "Failed sending data to the peer"; APNs reads the body before it answers.)
    private func measureChime(_ client: APNsClient, credentials: APNsCredentials, token: String, payload: [UInt8]) async throws -> (rate: Double, failed: Int) {
        let started = ContinuousClock.now
        let failures = await withTaskGroup(of: [String].self) { group in
            for lane in 0..<concurrency {
                let count = requests / concurrency + (lane < requests % concurrency ? 1 : 0)
                group.addTask {
                    var failed: [String] = []
                    for _ in 0..<count {
                        let notification = APNsNotification(deviceToken: token, topic: "com.example.bench", payload: payload)
                        do {
                            let answer = try await client.send(notification, environment: .production, credentials: credentials)
                            if answer.status != 200 { failed.append("\(answer)") }
                        } catch {
                            failed.append("\(error)")
                        }
                    }
                    return failed
                }
            }
            return await group.reduce([], +)
        }
        let rate = Double(requests) / ServerAddsBenchmark.seconds(ContinuousClock.now - started)
        guard failures.count * 100 <= requests else {
            throw BenchmarkFailure("\(failures.count) APNs requests to \(client.configuration.production) were not accepted, such as \(failures[0])")
        }
        if let first = failures.first { FileHandle.standardError.write(Data("apns: \(failures.count) failed, such as \(first)\n".utf8)) }
        return (rate, failures.count)
    }

    /// h2load: one connection (`-c 1`), `concurrency` streams at once (`-m`), the same headers and payload.
    private func measureH2load(_ h2load: String, url: String, jwt: String, payload: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: h2load)
        process.arguments = [
            "-n", String(requests), "-c", "1", "-m", String(concurrency), "-d", payload, "-H", "authorization: bearer \(jwt)",
            "-H", "apns-topic: com.example.bench", "-H", "apns-push-type: alert", "-H", "apns-priority: 10", "-H", "apns-expiration: 0", url,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("finished in") }),
            let rate = line.split(separator: ",").dropFirst().first?.split(separator: " ").first.flatMap({ Double($0) })
        else { throw BenchmarkFailure("h2load printed no rate: \(text.suffix(400))") }
        guard text.contains("status codes: \(requests) 2xx") else { throw BenchmarkFailure("h2load's requests were not all accepted: \(text.suffix(600))") }
        return rate
    }
}
