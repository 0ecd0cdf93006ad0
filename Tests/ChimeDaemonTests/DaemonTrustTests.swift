import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Who may use chimed, and which chimed a client trusts: the token on every route and both listeners,
/// the Host header on loopback, one daemon per runtime folder, and folders other users made.
@Suite("chimed: trust", .serialized)
struct DaemonTrustTests {
    /// A body each route would take, so that a refusal is not a refusal of the body.
    static func body(for route: Route) -> String? {
        switch route {
        case .setFocus: #"{"on":true}"#
        case .registerApp: #"{"displayName":"Intruder","launchCommand":["/bin/sh","-c","touch /tmp/pwned"]}"#
        case .requestAuthorization: #"{"options":["alert"]}"#
        case .decideAuthorization: #"{"allowed":true}"#
        case .updateSettings: nil
        case .setCategories: #"{"categories":[]}"#
        case .badge: #"{"count":3}"#
        case .addPending: #"{"requests":[{"identifier":"x","content":{"title":"forged"}}]}"#
        case .replacePending: #"{"identifier":"x","content":{"title":"forged"}}"#
        case .removePending, .removeDelivered: #"{"all":true}"#
        case .respond: #"{"kind":"open"}"#
        case .answerQuestion: #"{"options":["banner"]}"#
        case .acknowledgeResponse: "{}"
        case .setAPNsKey: #"{"teamId":"TEAM000001","keyId":"KEY0000001","key":"-----BEGIN PUBLIC KEY-----"}"#
        case .subscribeWebPush: #"{"endpoint":"https://push.example.com/x","keys":{"p256dh":"BAAA","auth":"AAAA"}}"#
        case .apnsDoor: #"{"aps":{"alert":"forged"}}"#
        default: nil
        }
    }

    static func path(for route: Route) -> String {
        let values = route.segments.filter { $0.first == "{" }.map { segment -> String in
            switch segment {
            case "{question}": "1"
            case "{delivery}": "00000000-0000-0000-0000-000000000000"
            case "{id}": "x"
            case "{token}": String(repeating: "ab", count: 32)
            default: "com.example.victim"
            }
        }
        switch values.count {
        case 0: return route.path()
        case 1: return route.path(values[0])
        default: return route.path(values[0], values[1])
        }
    }

    @Test func everyRouteRefusesARequestWithoutTheTokenAndChangesNothing() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        let token = try home.token
        for route in Route.allCases {
            let body = Self.body(for: route)
            let path = Self.path(for: route)
            // APNs' endpoint takes a provider token instead of the daemon's, and refuses as APNs does: 403.
            let refusal = route == .apnsDoor ? 403 : 401
            for credential in [nil, "Bearer " + String(repeating: "0", count: 64), "Basic " + token, "Bearer " + token + "x", "Bearer"] {
                let headers = credential.map { ["Authorization: \($0)"] } ?? []
                let unix = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
                unix.request(route.method.rawValue, path, token: nil, body: body, extraHeaders: headers)
                #expect(try unix.answer().status == refusal, "\(route) on the socket with \(credential ?? "no token")")
                let tcp = try RawHTTPConnection(loopbackPort: port)
                tcp.request(route.method.rawValue, path, token: nil, body: body, host: "127.0.0.1:\(port)", extraHeaders: headers)
                #expect(try tcp.answer().status == refusal, "\(route) on loopback with \(credential ?? "no token")")
            }
            // With the token but another Host (a page on another site resolving its name to 127.0.0.1).
            for host in ["evil.example:\(port)", "127.0.0.1", "localhost.evil.example:\(port)"] {
                let tcp = try RawHTTPConnection(loopbackPort: port)
                tcp.request(route.method.rawValue, path, token: token, body: body, host: host)
                let answer = try tcp.answer()
                #expect(answer.status == 403, "\(route) with Host \(host)")
                #expect(answer.headers["access-control-allow-origin"] == nil)
            }
        }
        // Nothing of it happened.
        let user = try await home.connectAsUser()
        #expect(try await user.apps().isEmpty)
        #expect(try await user.pendingRequests(all: true).isEmpty)
        #expect(try await user.focus().on == false)
        #expect(try await user.status().queuedResponses == 0)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
        #expect(await daemon.terminate() == 0)
    }

    @Test func theLoopbackListenerServesTheSameAPIWithTheTokenAndItsHost() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
            let tcp = try RawHTTPConnection(loopbackPort: port)
            tcp.request("GET", "/v1/status", token: try home.token, host: host)
            let answer = try tcp.answer()
            #expect(answer.status == 200 && answer.text.contains(#""httpAddress":"127.0.0.1:\#(port)""#))
            // Keep-alive: a second request on the same connection.
            tcp.request("GET", "/v1/openapi.json", token: try home.token, host: host)
            #expect(try tcp.answer().status == 200)
        }
        #expect(await daemon.terminate() == 0)
    }

    @Test func ofTwentyDaemonsStartedAtOnceExactlyOneServesWithItsToken() async throws {
        for round in 0..<3 {
            let home = try DaemonHome()
            let starts = try (0..<20).map { _ in
                try ChildProcess(DaemonHome.executable, ["--presenter", "log", "--authorization", "allow"], environment: home.environment, name: "chimed")
            }
            // Those that lost exit at once; the one that won serves until stopped.
            try await eventually("all but one exited", within: 30) {
                starts.filter { (try? String(contentsOfFile: "/proc/\($0.processIdentifier)/stat", encoding: .utf8))?.contains(") Z") == false }
                    .count <= 1
            }
            var status: StatusResult?
            try await eventually("the winner serves") {
                status = try? await DaemonClient.connect(paths: home.paths).status()
                return status != nil
            }
            let served = try #require(status)
            #expect(served.socketPath == home.paths.socketFile.path)
            let token = try home.token
            #expect(token.count == 64)
            let winner = try #require(starts.first { $0.processIdentifier == served.processIdentifier }, "round \(round)")
            for start in starts where start !== winner {
                #expect(await start.exitStatus() == 1)
                let said = try await start.errors.allLines().joined(separator: "\n")
                #expect(said.contains("another chimed is already running"), "\(said)")
            }
            kill(winner.processIdentifier, SIGTERM)
            #expect(await winner.exitStatus() == 0)
        }
    }

    @Test func aRuntimeFolderOfAnotherUserIsRefusedByDaemonAndClient() async throws {
        let home = try DaemonHome()
        let folder = home.paths.runtimeDirectory
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Another user (nobody, 65534) made it first, as anyone can with /tmp/chime-<uid>.
        chown(folder.path, 65534, 65534)
        chmod(folder.path, 0o777)
        _ = FileManager.default.createFile(atPath: home.paths.tokenFile.path, contents: Data("stolen-token".utf8))
        chown(home.paths.tokenFile.path, 65534, 65534)

        let daemon = try ChildProcess(DaemonHome.executable, ["--presenter", "log"], environment: home.environment, name: "chimed")
        #expect(await daemon.exitStatus() == 1)
        let said = try await daemon.errors.allLines().joined(separator: "\n")
        #expect(said.contains("belongs to another user"), "\(said)")
        #expect(try String(contentsOf: home.paths.tokenFile, encoding: .utf8) == "stolen-token", "the daemon wrote nothing there")

        await #expect { _ = try await DaemonClient.connect(paths: home.paths) } throws: {
            ($0 as? APIError)?.apiCode == .untrustedRuntimeDirectory
        }
        let doctor = await ChimeMain.run(["doctor"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(doctor.exitCode == .failure)
        #expect(doctor.standardOutput.contains("refusing its folder") && doctor.standardOutput.contains("another user"))
        let add = await ChimeMain.run(["add", "--title", "x"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(add.exitCode == .failure && add.standardError.contains("another user"))
    }

    @Test func anIdentifierCannotForgeALineInTheDaemonsLog() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let forged = "2026-01-01T00:00:00.000Z chimed: error: FORGED"
        let add = await ChimeMain.run(
            ["add", "--id", "x\n" + forged, "--title", "t\n" + forged, "--body", "\u{1B}[2J"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(add.exitCode == .success, "\(add.standardError)")
        let presented = try await daemon.log.take("the notification presented") { $0.contains("presented chime/x") }
        // The identifier, title and body are all on the one line, escaped.
        #expect(presented.hasSuffix("presented chime/x\\n\(forged) — “t\\n\(forged)” — \\u{1B}[2J"), "\(presented)")
        #expect(await daemon.terminate() == 0)
        #expect(!daemon.log.lines.contains { $0.hasPrefix(forged) })
    }

    @Test func aFolderOpenToOthersOrALinkIsNotTrusted() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        chmod(home.paths.runtimeDirectory.path, 0o755)
        await #expect { _ = try await DaemonClient.connect(paths: home.paths) } throws: { ($0 as? APIError)?.apiCode == .untrustedRuntimeDirectory }
        chmod(home.paths.runtimeDirectory.path, 0o700)
        _ = try await DaemonClient.connect(paths: home.paths).status()
        #expect(await daemon.terminate() == 0)

        // A symbolic link in place of the folder, to a folder of this user's.
        let elsewhere = home.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: home.paths.runtimeDirectory)
        try FileManager.default.createSymbolicLink(at: home.paths.runtimeDirectory, withDestinationURL: elsewhere)
        let linked = try ChildProcess(DaemonHome.executable, ["--presenter", "log"], environment: home.environment, name: "chimed")
        #expect(await linked.exitStatus() == 1)
        #expect(try await linked.errors.allLines().contains { $0.contains("symbolic link") })
    }

    /// Whether `body` fails with 403 forbidden.
    static func isForbidden(_ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return false
        } catch let error as APIError {
            return error.apiCode == .forbidden
        } catch {
            return false
        }
    }

    /// An app connection (`DaemonClient` with an app sends `Chime-App`) acts only for itself and makes none
    /// of the user's decisions; the user's connection (the CLI) still does everything.
    @Test func anAppActsOnlyForItselfAndTheUserDecides() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let user = try await home.connectAsUser()
        #expect(try await user.requestAuthorization(options: [.alert], app: "com.example.victim"))
        try await user.add([try request("secret", title: "Victim's secret")], app: "com.example.victim")

        let app = try await home.connect(app: "com.example.intruder")
        #expect(try await app.requestAuthorization(options: [.alert]), "asking is the app's")
        try await app.add([try request("mine")])
        #expect(try await app.pendingRequests().map(\.request.identifier) == ["mine"])
        #expect(await Self.isForbidden { _ = try await app.pendingRequests(app: "com.example.victim") })
        #expect(await Self.isForbidden { try await app.removePending(nil, app: "com.example.victim") })
        #expect(await Self.isForbidden { _ = try await app.pendingRequests(all: true) })
        #expect(await Self.isForbidden { _ = try await app.setAuthorization(app: "com.example.intruder", allowed: true) })
        #expect(await Self.isForbidden { try await app.updateSettings(NotificationSettings(), app: "com.example.intruder") })
        #expect(await Self.isForbidden { try await app.registerApp(AppEntry(identifier: "com.example.intruder", launchCommand: ["/bin/true"])) })
        #expect(await Self.isForbidden { _ = try await app.focus(true) })
        #expect(await Self.isForbidden { _ = try await app.apps() })
        await #expect(throws: APIError.self) { _ = try await home.connect(app: "com.example.intruder2").pendingRequests(app: "com.example.victim") }

        #expect(try await user.pendingRequests(app: "com.example.victim").map(\.request.identifier) == ["secret"])
        #expect(try await user.focus(false).on == false, "the user still decides")
        #expect(await daemon.terminate() == 0)
    }

    /// One connection speaks for an app: a second subscriber replaces the first, visibly — the first is
    /// told (`replaced`) and its stream ends, the daemon's log says so, and responses go to the second.
    @Test func aSecondSubscriberReplacesTheFirstVisibly() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let first = try await home.connect(app: "com.example.chat", subscribe: true)
        #expect(try await first.requestAuthorization(options: [.alert]))
        let second = try await home.connect(app: "com.example.chat", subscribe: true)
        #expect(try await nextEvent(first) == .replaced)
        var rest: [DaemonEvent] = []
        for await event in first.events { rest.append(event) }
        #expect(rest.isEmpty, "the first stream ended after it was told")
        _ = try await daemon.log.take("the replacement") { $0.contains("com.example.chat opened a new event stream; the older one was told it was replaced") }

        try await second.add([try request("message", in: 1)])
        try await daemon.presented("com.example.chat", "message")
        let user = try await home.connectAsUser()
        #expect(try await user.respond(app: "com.example.chat", notification: "message", action: .open).deliveredToApp)
        guard case .response(let event) = try await nextEvent(second) else {
            Issue.record("expected the response on the second stream")
            return
        }
        try await second.acknowledge(event)
        #expect(await daemon.terminate() == 0)
    }

    /// A Flatpak app is confined to the app id its sandbox names, whatever it says: here the test process
    /// itself appears sandboxed, through a fake `/proc/<pid>/root/.flatpak-info` under a test root.
    @Test func aSandboxedAppReachesOnlyItsOwnAppID() async throws {
        let home = try DaemonHome()
        let procRoot = home.root.appendingPathComponent("proc")
        let info = procRoot.appendingPathComponent("\(getpid())/root/.flatpak-info")
        try FileManager.default.createDirectory(at: info.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[Application]\nname=org.example.Sandboxed\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n".utf8).write(to: info)
        let daemon = try await home.start(["--proc-root", procRoot.path])

        let client = try await home.connectAsUser()  // no Chime-App header: the sandbox decides
        #expect(try await client.requestAuthorization(options: [.alert], app: "org.example.Sandboxed"))
        try await client.add([try request("own")], app: "org.example.Sandboxed")
        #expect(try await client.pendingRequests(app: "org.example.Sandboxed").map(\.request.identifier) == ["own"])
        #expect(await Self.isForbidden { try await client.add([try request("forged")], app: "com.example.other") })
        #expect(await Self.isForbidden { _ = try await client.pendingRequests(all: true) })
        #expect(await Self.isForbidden { _ = try await client.setAuthorization(app: "org.example.Sandboxed", allowed: true) })
        let claiming = try await home.connect(app: "com.example.other")  // saying otherwise changes nothing
        #expect(await Self.isForbidden { _ = try await claiming.pendingRequests() })

        // Not sandboxed any more: the user again.
        try FileManager.default.removeItem(at: info)
        #expect(try await client.pendingRequests(all: true).map(\.request.identifier) == ["own"])
        #expect(await daemon.terminate() == 0)
    }

    /// The mode bits of `url` (permission bits only), or nil when it does not exist.
    static func mode(_ url: URL) -> mode_t? {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    @Test func theDataFolderAndEveryStoreArePrivateFromTheirCreation() async throws {
        let home = try DaemonHome()
        let previous = umask(0o022)  // the usual one, which leaves new files readable by everyone
        defer { umask(previous) }
        let daemon = try await home.start()
        let app = try await home.connect(app: "com.example.diary")
        try await app.add([try request("secret", title: "Dear diary")])
        let paths = home.paths
        #expect(Self.mode(paths.dataDirectory) == 0o700)
        #expect(Self.mode(paths.attachmentsDirectory) == 0o700)
        for file in [paths.storeFile, paths.responseQueueFile] {
            for suffix in ["", "-wal", "-shm"] {
                let url = URL(fileURLWithPath: file.path + suffix)
                #expect(Self.mode(url) == 0o600, "\(url.lastPathComponent)")
            }
        }
        #expect(await daemon.terminate() == 0)
        #expect(!daemon.log.lines.contains { $0.contains("readable by other users") }, "a new folder needed no repair")
    }

    @Test func anInstallOthersCouldReadIsMadePrivateAtStartWithALogLine() async throws {
        let home = try DaemonHome()
        let paths = home.paths
        // As earlier versions left it: folders 0755, files 0644, and a link that must not be followed.
        let outside = home.root.appendingPathComponent("outside.txt")
        try Data("not chime's".utf8).write(to: outside)
        chmod(outside.path, 0o644)
        let attachment = paths.attachmentsDirectory.appendingPathComponent("com.example.diary/old/photo.png")
        try FileManager.default.createDirectory(at: attachment.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0x89, 0x50]).write(to: attachment)
        try FileManager.default.createSymbolicLink(at: paths.dataDirectory.appendingPathComponent("link"), withDestinationURL: outside)
        for folder in [paths.dataDirectory, paths.attachmentsDirectory, attachment.deletingLastPathComponent()] { chmod(folder.path, 0o755) }
        chmod(attachment.path, 0o644)
        let first = try await home.start()
        #expect(await first.terminate() == 0)
        for suffix in ["", "-wal", "-shm"] { chmod(paths.storeFile.path + suffix, 0o644) }
        chmod(paths.dataDirectory.path, 0o755)

        let daemon = try await home.start()
        let line = try await daemon.log.take("the repair") { $0.contains("readable by other users") }
        #expect(line.contains(paths.dataDirectory.path) && line.contains("warning"))
        #expect(Self.mode(paths.dataDirectory) == 0o700)
        #expect(Self.mode(paths.attachmentsDirectory) == 0o700)
        #expect(Self.mode(attachment.deletingLastPathComponent()) == 0o700)
        #expect(Self.mode(attachment) == 0o600)
        #expect(Self.mode(paths.storeFile) == 0o600)
        #expect(Self.mode(outside) == 0o644, "a link is not followed")
        #expect(await daemon.terminate() == 0)
    }

    @Test func doctorTellsNotRunningFromRefusedFromUnreachable() async throws {
        let home = try DaemonHome()
        let notRunning = await ChimeMain.run(["doctor"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(notRunning.standardOutput.contains("not running"))

        let daemon = try await home.start()
        let token = try home.token
        try Data(String(repeating: "f", count: 64).utf8).write(to: home.paths.tokenFile)
        let refused = await ChimeMain.run(["doctor"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(refused.standardOutput.contains("running, but refusing the token"), "\(refused.standardOutput)")
        try Data(token.utf8).write(to: home.paths.tokenFile)

        await daemon.killHard()  // leaves its socket behind, with nobody listening
        let unreachable = await ChimeMain.run(["doctor"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(unreachable.standardOutput.contains("unreachable"), "\(unreachable.standardOutput)")
    }
}
