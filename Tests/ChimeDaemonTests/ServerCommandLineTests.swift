import ChimeCLI
import ChimeCrypto
import ChimeTestSupport
import Foundation
import Testing

/// `chime server` against a real node on PostgreSQL: what an operator types, checked through the node's
/// HTTP API itself (not through the command's own client).
@Suite("chime server against a server-mode node", .serialized)
struct ServerCommandLineTests {
    /// Runs `chime server …` in process with this node and key in the environment; dates print in UTC.
    func chime(_ arguments: [String], _ cluster: ServerModeCluster, key: String?, now: Date = Date()) async -> ChimeMain.Result {
        var environment = ["CHIME_SERVER_URL": "http://127.0.0.1:\(cluster.ports[0])"]
        environment["CHIME_API_KEY"] = key
        return await ChimeMain.run(["server"] + arguments, now: now, currentTimeZone: TimeZone(identifier: "UTC")!, environment: environment)
    }

    /// The pending list as the node answers it: identifier → next fire date (seconds since 1970).
    func pending(_ recipient: String, _ cluster: ServerModeCluster, key: String) throws -> [String: Double] {
        let answer = try cluster.call("GET", "/v1/recipients/\(recipient)/pending", key: key)
        let items = (answer.json as? [String: Any])?["items"] as? [[String: Any]] ?? []
        var dates: [String: Double] = [:]
        for item in items {
            guard let request = item["request"] as? [String: Any], let identifier = request["identifier"] as? String else { continue }
            dates[identifier] = item["nextFireDate"] as? Double ?? -1
        }
        return dates
    }

    /// The first instant after `now` whose UTC clock reads `hour`:00, worked out by arithmetic on seconds.
    func nextUTC(hour: Int, after now: Date) -> Double {
        let seconds = now.timeIntervalSince1970
        let day = (seconds / 86_400).rounded(.down) * 86_400
        let today = day + Double(hour) * 3600
        return today > seconds ? today : today + 86_400
    }

    @Test func anOperatorDescribesARecipientAndSchedulesForThem() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("ops")
        let status = await chime(["status"], cluster, key: key)
        #expect(status.standardOutput == "Node node0 answers for tenant ops (database schema \(try await cluster.value("SELECT max(version) FROM chime_schema"))).\n", "\(status)")

        // A new recipient needs a zone and a language; then each option changes only itself.
        let incomplete = await chime(["recipient", "ann", "--time-zone", "Asia/Seoul"], cluster, key: key)
        #expect(incomplete.exitCode == .usage && incomplete.standardError.contains("ann is a new recipient: give --time-zone and --locale"))
        #expect(try cluster.call("GET", "/v1/recipients/ann", key: key).status == 404)
        let created = await chime(["recipient", "ann", "--time-zone", "Asia/Seoul", "--locale", "ko-KR", "--quiet", "mon-fri 22:00-7:00"], cluster, key: key)
        #expect(created.exitCode == .success, "\(created.standardError)")
        #expect(created.standardOutput.contains("quiet      weekdays 22:00-07:00"), "\(created.standardOutput)")
        #expect(await chime(["recipient", "ann", "--locale", "en-GB"], cluster, key: key).exitCode == .success)
        let profile = try #require(try cluster.call("GET", "/v1/recipients/ann", key: key).json as? [String: Any])
        #expect(profile["timeZone"] as? String == "Asia/Seoul" && profile["locale"] as? String == "en-GB")
        let periods = (profile["quietHours"] as? [String: Any])?["periods"] as? [[String: Any]]
        #expect(periods?.count == 1 && periods?.first?["weekdays"] as? [Int] == [2, 3, 4, 5, 6])
        #expect(periods?.first?["from"] as? String == "22:00" && periods?.first?["to"] as? String == "07:00")

        // A local --at is the recipient's local time: 9:00 in Seoul (UTC+9, no daylight saving) is 0:00
        // UTC; a recipient the tenant never described is read in UTC, as the node reads their triggers.
        let now = Date()
        let morning = await chime(["add", "-r", "ann", "-a", "todo", "--at", "9:00", "-t", "Morning", "--id", "m"], cluster, key: key, now: now)
        #expect(morning.exitCode == .success, "\(morning.standardError)")
        let standUp = await chime(["add", "-r", "ann", "-a", "todo", "--calendar", "hour=8", "--repeats", "-t", "Stand-up", "--id", "s"], cluster, key: key, now: now)
        #expect(standUp.standardOutput.hasPrefix("Scheduled “Stand-up” for ann in todo (id s): in "), "\(standUp)")
        #expect(await chime(["add", "-r", "bob", "-a", "todo", "--at", "9:00", "-t", "Morning", "--id", "m"], cluster, key: key, now: now).exitCode == .success)
        let ann = try pending("ann", cluster, key: key)
        #expect(ann["m"] == nextUTC(hour: 0, after: now), "\(ann)")
        #expect(ann["s"] == nextUTC(hour: 23, after: now), "\(ann)")
        #expect(try pending("bob", cluster, key: key)["m"] == nextUTC(hour: 9, after: now))

        let listed = await chime(["pending", "-r", "ann", "--json"], cluster, key: key)
        let items = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
        #expect(Set(items?.compactMap { $0["identifier"] as? String } ?? []) == ["m", "s"], "\(listed.standardOutput)")

        let removed = await chime(["remove", "-r", "ann", "-a", "todo", "m"], cluster, key: key)
        #expect(removed.standardOutput == "Cancelled 1 pending of todo for ann.\n", "\(removed)")
        #expect(try pending("ann", cluster, key: key).keys.sorted() == ["s"])
        await cluster.stop()
    }

    /// An add sent again with the same Idempotency-Key adds once and answers as the first time; the key
    /// with another add is refused and changes nothing.
    @Test func anIdempotencyKeyMakesARetriedAddSafe() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("retry")
        let now = Date()
        let arguments = ["add", "-r", "ann", "-a", "todo", "--in", "1h", "-t", "Once", "--id", "once", "--idempotency-key", "add-1", "--json"]
        let first = await chime(arguments, cluster, key: key, now: now)
        let again = await chime(arguments, cluster, key: key, now: now)
        #expect(first.exitCode == .success && again.exitCode == .success, "\(first) \(again)")
        #expect(first.standardOutput == again.standardOutput)
        #expect(try await cluster.value("SELECT count(*) FROM pending") == 1)
        var changed = arguments
        changed[changed.firstIndex(of: "Once")!] = "Twice"
        let reused = await chime(changed, cluster, key: key, now: now)
        #expect(reused.exitCode == .failure && reused.standardError.contains("Idempotency-Key"), "\(reused)")
        #expect(try pending("ann", cluster, key: key).count == 1)
        await cluster.stop()
    }

    /// What was delivered and what the recipient did with it, as the node recorded them.
    @Test func deliveredAndResponsesAreListed() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("lists")
        #expect(await chime(["add", "-r", "ann", "-a", "chat", "-t", "Lunch?", "--id", "m1"], cluster, key: key).exitCode == .success)
        try await eventually("m1 is delivered") {
            let answer = try cluster.call("GET", "/v1/recipients/ann/delivered", key: key)
            return ((answer.json as? [String: Any])?["total"] as? Int) == 1
        }
        let delivered = await chime(["delivered", "-r", "ann"], cluster, key: key)
        #expect(delivered.standardOutput.hasPrefix("APP   ID  DELIVERED                  TITLE\nchat  m1  "), "\(delivered.standardOutput)")
        #expect(delivered.standardOutput.hasSuffix("  Lunch?\n"))
        #expect(await chime(["responses", "-r", "ann"], cluster, key: key).standardOutput == "No responses.\n")
        let reply = try cluster.call("POST", "/v1/recipients/ann/apps/chat/delivered/m1/response", key: key, body: #"{"kind":"reply","action":"reply","text":"On my way"}"#)
        #expect(reply.status == 201, "\(reply.text)")
        let responses = await chime(["responses", "-r", "ann"], cluster, key: key)
        #expect(responses.standardOutput.contains("  chat  m1  reply: On my way\n"), "\(responses.standardOutput)")
        await cluster.stop()
    }

    /// Keys are issued with scopes, work at once, and stop working the moment they are revoked; another
    /// tenant's key reaches nothing of this tenant's.
    @Test func keysAreIssuedScopedAndRevoked() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let admin = try await cluster.tenant("keys")
        let issued = await chime(["keys", "add", "reporting", "--scope", "read", "--json"], cluster, key: admin)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(issued.standardOutput.utf8)) as? [String: Any])
        let secret = try #require(body["secret"] as? String)
        let id = try #require(body["id"] as? String)
        #expect(body["scopes"] as? [String] == ["read"])

        #expect(await chime(["status"], cluster, key: secret).exitCode == .success)
        let refused = await chime(["add", "-r", "ann", "-a", "todo", "-t", "x"], cluster, key: secret)
        #expect(refused.exitCode == .failure && refused.standardError.contains("may not publish"), "\(refused.standardError)")
        #expect(try await cluster.value("SELECT count(*) FROM pending") == 0)

        let listed = await chime(["keys"], cluster, key: admin)
        #expect(listed.standardOutput.contains("\(id)  reporting  read    "), "\(listed.standardOutput)")
        #expect(!listed.standardOutput.contains(secret))
        #expect(await chime(["keys", "revoke", id], cluster, key: admin).standardOutput == "Revoked key \(id).\n")
        let revoked = await chime(["status"], cluster, key: secret)
        #expect(revoked.exitCode == .failure && revoked.standardError.contains("the node refused the API key"), "\(revoked.standardError)")

        #expect(await chime(["recipient", "ann", "--time-zone", "UTC", "--locale", "en"], cluster, key: admin).exitCode == .success)
        let other = try await cluster.tenant("other")
        let foreign = await chime(["recipient", "ann"], cluster, key: other)
        #expect(foreign.exitCode == .failure && foreign.standardError.contains("no such recipient"), "\(foreign.standardError)")
        #expect(await chime(["keys", "revoke", id], cluster, key: other).exitCode == .failure)
        await cluster.stop()
    }

    /// The webhooks' allow list is shown and replaced as networks in canonical form; the ledger and replay
    /// say plainly when there is nothing.
    @Test func settingsDeliveriesAndReplay() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("settings")
        #expect(
            await chime(["settings"], cluster, key: key).standardOutput
                == "Webhooks may also reach: public addresses only\nAPNs provider key: none (chime server apns-key set)\n")
        let saved = await chime(["settings", "--allow", "192.168.1.7", "--allow", "fd00::/8"], cluster, key: key)
        #expect(saved.standardOutput.hasPrefix("Webhooks may also reach: 192.168.1.7/32, fd00::/8\n"), "\(saved)")
        #expect((try cluster.call("GET", "/v1/settings", key: key).json as? [String: Any])?["outboundAllowList"] as? [String] == ["192.168.1.7/32", "fd00::/8"])
        let loopback = await chime(["settings", "--allow", "127.0.0.1"], cluster, key: key)
        #expect(loopback.exitCode == .failure && loopback.standardError.contains("only the node's operator"), "\(loopback)")
        let bad = await chime(["settings", "--allow", "10.0.0.0/33"], cluster, key: key)
        #expect(bad.exitCode == .failure && bad.standardError.contains("a network is an address or CIDR"), "\(bad)")
        #expect(await chime(["settings", "--no-allow", "--json"], cluster, key: key).standardOutput.contains(#""outboundAllowList" : ["#))

        #expect(await chime(["recipient", "ann", "--time-zone", "UTC", "--locale", "en"], cluster, key: key).exitCode == .success)
        #expect(await chime(["deliveries", "-r", "ann"], cluster, key: key).standardOutput == "No deliveries.\n")
        let replay = await chime(["replay", "12345"], cluster, key: key)
        #expect(replay.exitCode == .failure && replay.standardError.contains("no finished delivery"), "\(replay)")

        // The APNs provider key: given from its .p8 file, shown by its identifiers only, forgotten.
        let p8 = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID().uuidString).p8")
        defer { try? FileManager.default.removeItem(at: p8) }
        try P256PrivateKey.generate().pem.write(to: p8, atomically: true, encoding: .utf8)
        #expect(await chime(["apns-key"], cluster, key: key).standardOutput == "APNs provider key: none (chime server apns-key set)\n")
        let given = await chime(["apns-key", "set", "--team", "TEAM000001", "--key-id", "KEY0000001", "--p8", p8.path], cluster, key: key)
        #expect(given.standardOutput == "APNs provider key: team TEAM000001, key KEY0000001\n", "\(given)")
        #expect((try cluster.call("GET", "/v1/settings/apns", key: key).json as? [String: String]) == ["teamId": "TEAM000001", "keyId": "KEY0000001"])
        #expect(await chime(["settings"], cluster, key: key).standardOutput.hasSuffix("APNs provider key: team TEAM000001, key KEY0000001\n"))
        let notAKey = await chime(["apns-key", "set", "--team", "TEAM000001", "--key-id", "KEY0000001", "--p8", "/etc/hostname"], cluster, key: key)
        #expect(notAKey.exitCode == .failure && notAKey.standardError.contains("P-256 private key"), "\(notAKey)")
        #expect(await chime(["apns-key", "remove"], cluster, key: key).standardOutput == "The APNs provider key is forgotten.\n")
        #expect(try cluster.call("GET", "/v1/settings/apns", key: key).status == 404)
        // The VAPID public key, made once, and the contact push services see.
        let vapid = await chime(["webpush"], cluster, key: key).standardOutput
        let published = try #require((try cluster.call("GET", "/v1/settings/webpush", key: key).json as? [String: Any])?["applicationServerKey"] as? String)
        #expect(vapid == "VAPID public key (applicationServerKey): \(published)\nContact push services see: none (chime server webpush --subject mailto:…)\n", "\(vapid)")
        #expect(await chime(["webpush", "--subject", "mailto:ops@example.com"], cluster, key: key).standardOutput.hasSuffix("see: mailto:ops@example.com\n"))
        let badSubject = await chime(["webpush", "--subject", "ops@example.com"], cluster, key: key)
        #expect(badSubject.exitCode == .failure && badSubject.standardError.contains("mailto: or https:"), "\(badSubject)")
        #expect(await chime(["webpush", "--no-subject", "--json"], cluster, key: key).standardOutput.contains(published))
        let shown = await chime(["apns-key", "--json"], cluster, key: key).standardOutput
        let object = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
        #expect(object != nil && object?["apns"] == nil, "\(shown)")
        await cluster.stop()
    }

    /// The key comes from the environment or a file only its owner reads; without a node or a key the
    /// command says what to give, and a node that is not there is said to be so.
    @Test func credentialsComeFromTheEnvironmentOrAPrivateFile() async throws {
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("files")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data((key + "\n").utf8).write(to: file)
        chmod(file.path, 0o600)
        #expect(await chime(["status", "--key-file", file.path], cluster, key: nil).exitCode == .success)
        chmod(file.path, 0o640)
        let loose = await chime(["status", "--key-file", file.path], cluster, key: nil)
        #expect(loose.exitCode == .usage && loose.standardError.contains("can be read by other users (mode 640)"), "\(loose.standardError)")
        let noKey = await chime(["status"], cluster, key: nil)
        #expect(noKey.exitCode == .usage && noKey.standardError.contains("$CHIME_API_KEY"))
        let noURL = await ChimeMain.run(["server", "status"], now: Date(), currentTimeZone: .gmt, environment: ["CHIME_API_KEY": key])
        #expect(noURL.exitCode == .usage && noURL.standardError.contains("--url or $CHIME_SERVER_URL"))
        let notHTTP = await chime(["status", "--url", "ftp://127.0.0.1"], cluster, key: key)
        #expect(notHTTP.exitCode == .usage)
        await cluster.stop()
        let gone = await chime(["status"], cluster, key: key)
        #expect(gone.exitCode == .failure && gone.standardError.hasPrefix("chime: error: no answer from the node"), "\(gone.standardError)")
    }

    /// The README's `chime server` lines, run as written in a shell against a node, with the key the README
    /// says to export: each exits 0, and together they leave what they say.
    @Test func theReadmesServerCommandsWorkAsWritten() async throws {
        let text = try String(contentsOf: ReadmeCommandTests.readme, encoding: .utf8)
        let commands = ReadmeCommandTests.block("```sh", after: "**From the command line**", in: text).filter { $0.hasPrefix("chime server ") }
        #expect(commands.count >= 6, "the block's commands were found: \(commands)")
        let cluster = try await ServerModeCluster.start(nodes: 1)
        let key = try await cluster.tenant("readme")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["CHIME_SERVER_URL"] = "http://127.0.0.1:\(cluster.ports[0])"
        environment["CHIME_API_KEY"] = key
        for command in commands {
            let outcome = try await Subprocess.run("/bin/sh", ["-c", "exec " + command], environment: environment)
            #expect(outcome.status == 0, "\(command)\n\(outcome.standardOutput)\(outcome.standardError)")
        }
        #expect(try pending("minji", cluster, key: key).count == 2)
        #expect(try await cluster.value("SELECT count(*) FROM api_key WHERE name = 'reporting'") == 1)
        await cluster.stop()
    }
}
