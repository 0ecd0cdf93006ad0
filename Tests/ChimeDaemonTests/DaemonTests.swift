import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeAPI
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

/// The real `chimed`, started as a process in a private home, driven through `DaemonClient` and raw HTTP.
@Suite("chimed", .serialized)
struct DaemonTests {
    @Test func aWrongOrMissingTokenIsRefused() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        await #expect {
            _ = try await DaemonClient.connect(socketPath: home.paths.socketFile.path, token: String(repeating: "0", count: 64))
        } throws: { ($0 as? APIError)?.apiCode == .unauthenticated }

        let raw = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        raw.request("GET", "/v1/status", token: nil)
        let refusal = try raw.answer()
        #expect(refusal.status == 401)
        #expect(refusal.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(refusal.text.contains(#""name":"unauthenticated""#))
        #expect(await daemon.terminate() == 0)
    }

    @Test func tokenAndSocketLiveInAPrivateFolder() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let folder = try FileManager.default.attributesOfItem(atPath: home.paths.runtimeDirectory.path)
        let token = try FileManager.default.attributesOfItem(atPath: home.paths.tokenFile.path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect((token[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOf: home.paths.tokenFile, encoding: .utf8).count == 64)
        #expect(await daemon.terminate() == 0)
    }

    @Test func addsArePendingThenDelivered() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = try await home.connect(app: "com.example.alarm")
        #expect(try await app.requestAuthorization(options: [.alert, .sound]))
        // Due in 5 s: the list below must be read before it fires, on a machine busy with the whole suite.
        try await app.add([try request("later"), try request("soon", in: 5)])
        let pending = try await app.pendingRequests()
        #expect(Set(pending.map(\.request.identifier)) == ["later", "soon"])
        #expect(pending.allSatisfy { $0.app == "com.example.alarm" })
        try await daemon.presented("com.example.alarm", "soon")
        let delivered = try await app.deliveredNotifications()
        #expect(delivered.map(\.notification.identifier) == ["soon"])
        #expect(try await app.pendingRequests().map(\.request.identifier) == ["later"])

        // Engine errors keep their codes across the wire.
        await #expect(throws: ChimeError(.notificationNotFound, field: "notification", "no delivered notification has that identifier")) {
            _ = try await app.respond(app: "com.example.alarm", notification: "never", action: .open)
        }
        app.close()
        #expect(await daemon.terminate() == 0)
    }

    @Test func notificationFiresWhileNoAppIsConnected() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let cli = try await home.connect()
        // Allowed first: an app the user never allowed shows nothing, so nothing of it is in the list.
        #expect(try await cli.requestAuthorization(options: [.alert], app: "com.example.kettle"))
        try await cli.add([try request("tea", in: 1)], app: "com.example.kettle")
        cli.close()
        try await daemon.presented("com.example.kettle", "tea")
        let again = try await home.connect()
        #expect(try await again.deliveredNotifications(all: true).map(\.notification.identifier) == ["tea"])
        let status = try await again.status()
        #expect(status.presenter == "log")
        #expect(status.delivered == 1 && status.pending == 0)
        #expect(status.storePath == home.paths.storeFile.path)
        #expect(await daemon.terminate() == 0)
    }

    @Test func aSubscribedAppReceivesTheResponse() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = try await home.connect(app: "com.example.chat", subscribe: true)
        try await app.add([try request("message", in: 1)])
        try await daemon.presented("com.example.chat", "message")

        let user = try await home.connect()
        let result = try await user.respond(app: "com.example.chat", notification: "message", action: .open)
        #expect(result.deliveredToApp)
        #expect(result.launch == "foreground")
        guard case .response(let event) = try await nextEvent(app) else {
            Issue.record("expected a response event")
            return
        }
        #expect(event.response.isDefaultAction)
        #expect(event.response.notification.identifier == "message")
        try await app.acknowledge(event)
        #expect(try await user.apps().first { $0.entry.identifier == "com.example.chat" }?.queuedResponses == 0)
        #expect(await daemon.terminate() == 0)
    }

    /// The user answers while the app is away; when the app comes back and decides about the replayed
    /// response, its decision is applied to the notification as it is then: new buttons, or dismissal.
    @Test func anAppsDecisionAboutAReplayedResponseIsApplied() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let cli = try await home.connect()
        #expect(try await cli.requestAuthorization(options: [.alert], app: "com.example.movies"))
        try await cli.setCategories([try Seeds.ratingCategory()], app: "com.example.movies")
        try await cli.add([try request("past-lives", in: 1, category: "rating"), try request("aftersun", in: 1, category: "rating")], app: "com.example.movies")
        try await daemon.presented("com.example.movies", "past-lives")
        try await daemon.presented("com.example.movies", "aftersun")
        for id in ["past-lives", "aftersun"] {
            #expect(try await cli.respond(app: "com.example.movies", notification: id, action: .action("rate")).queued)
        }

        let app = try await home.connect(app: "com.example.movies", subscribe: true)
        guard case .response(let first) = try await nextEvent(app), case .response(let second) = try await nextEvent(app) else {
            Issue.record("expected both queued responses")
            return
        }
        let byID = Dictionary(uniqueKeysWithValues: [first, second].map { ($0.response.notification.identifier, $0) })
        try await app.acknowledge(try #require(byID["past-lives"]), disposition: WireDisposition(actions: try Seeds.stars(), outcome: .keepOnScreen))
        try await app.acknowledge(try #require(byID["aftersun"]), disposition: WireDisposition(outcome: .dismiss))

        let delivered = try await cli.deliveredNotifications(app: "com.example.movies")
        #expect(delivered.map(\.notification.identifier) == ["past-lives"], "the dismissed one left the list")
        #expect(delivered.first?.notification.actionsOverride?.map(\.identifier) == ["star-1", "star-2", "star-3"])
        #expect(await daemon.terminate() == 0)
    }

    @Test func aResponseToAnAbsentAppIsQueuedAcrossRestartsAndReplayedOnce() async throws {
        let home = try DaemonHome()
        var daemon = try await home.start()
        let cli = try await home.connect()
        try await cli.add([try request("invite", in: 1)], app: "com.example.meet")
        try await daemon.presented("com.example.meet", "invite")
        let result = try await cli.respond(app: "com.example.meet", notification: "invite", action: .open)
        #expect(!result.deliveredToApp)
        #expect(result.queued)
        _ = try await daemon.log.take("no launch command") { $0.contains("waits until it connects") }
        cli.close()
        #expect(await daemon.terminate() == 0)

        daemon = try await home.start()
        let app = try await home.connect(app: "com.example.meet", subscribe: true)
        guard case .response(let event) = try await nextEvent(app) else {
            Issue.record("expected the queued response")
            return
        }
        #expect(event.response.notification.identifier == "invite")
        #expect(event.launch == "foreground")
        #expect(await events(of: app, for: 1).isEmpty, "replayed once")
        try await app.acknowledge(event)
        app.close()

        let later = try await home.connect(app: "com.example.meet", subscribe: true)
        #expect(await events(of: later, for: 1).isEmpty, "an acknowledged response came again")
        #expect(await daemon.terminate() == 0)
    }

    @Test func sigtermStopsCleanlyAndRemovesTheSocket() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        #expect(FileManager.default.fileExists(atPath: home.paths.socketFile.path))
        #expect(await daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: home.paths.socketFile.path))
        _ = try await daemon.log.take("stopped") { $0.hasSuffix("chimed: info: stopped") }
    }

    @Test func aSecondDaemonRefusesToStartAndAStaleSocketIsReplaced() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let second = try ChildProcess(DaemonHome.executable, ["--presenter", "log"], environment: home.environment, name: "second chimed")
        #expect(await second.exitStatus() == 1)
        #expect(second.errors.lines.contains { $0.contains("another chimed is already running") })
        await daemon.killHard()

        // The killed daemon left its socket; the next one removes it and starts.
        #expect(FileManager.default.fileExists(atPath: home.paths.socketFile.path))
        let next = try await home.start()
        #expect(await next.terminate() == 0)
    }

    @Test func badRequestsGetTypedErrorsAndChangeNothing() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let token = try String(contentsOf: home.paths.tokenFile, encoding: .utf8)
        let raw = try RawHTTPConnection(unixPath: home.paths.socketFile.path)

        raw.request("POST", "/v1/apps/com.example.bad/pending", token: token, body: "this is not json")
        let malformed = try raw.answer()
        #expect(malformed.status == 400 && malformed.text.contains(#""name":"malformedRequest""#))
        raw.request("GET", "/v1/launch-missiles", token: token)
        let unknown = try raw.answer()
        #expect(unknown.status == 404 && unknown.text.contains(#""name":"unknownRoute""#))
        raw.request("PATCH", "/v1/status", token: token)
        let method = try raw.answer()
        #expect(method.status == 405 && method.headers["allow"] == "GET")
        raw.request("POST", "/v1/apps/com.example.bad/pending", token: token, body: #"{"requests":[{"identifier":""}]}"#)
        let invalid = try raw.answer()
        #expect(invalid.status == 400 && invalid.text.contains(#""domain":"#))
        // Engine validation errors come back with the engine's code.
        raw.request("PUT", "/v1/apps/com.example.bad/badge", token: token, body: #"{"count":-1}"#)
        let badge = try raw.answer()
        #expect(badge.status == 400 && badge.text.contains(#""domain":"chime""#))
        raw.request("GET", "/v1/apps/com.example.bad/pending?limit=0", token: token)
        #expect(try raw.answer().status == 400)

        // A body over the limit is refused before it is read, with the limit in the error.
        let huge = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        huge.request("POST", "/v1/apps/com.example.bad/pending", token: token, body: String(repeating: "x", count: WireFormat.maximumBodySize + 10))
        let tooLarge = try huge.answer()
        #expect(tooLarge.status == 413 && tooLarge.text.contains(#""limit":\#(WireFormat.maximumBodySize)"#))

        // The first connection still works, and nothing was added.
        raw.request("GET", "/v1/pending", token: token)
        let pending = try raw.answer()
        #expect(pending.status == 200 && pending.text.contains(#""total":0"#), "nothing was added by the bad requests")
        #expect(await daemon.terminate() == 0)
    }

    @Test func anAddAnswersWithTheStoredRequestsUnlessTheMinimalAnswerIsPreferred() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let token = try String(contentsOf: home.paths.tokenFile, encoding: .utf8)
        let raw = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        func add(_ identifier: String, prefer: String?) throws -> (status: Int, applied: String?, body: [String: Any]) {
            let body = #"{"requests":[{"identifier":"\#(identifier)","content":{"title":"Stand-up"},"trigger":{"type":"timeInterval","timeInterval":3600,"repeats":false}}]}"#
            raw.request("POST", "/v1/apps/com.example.prefer/pending", token: token, body: body, extraHeaders: prefer.map { ["Prefer: \($0)"] } ?? [])
            let answer = try raw.answer()
            let json = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any] ?? [:]
            return (answer.status, answer.headers["preference-applied"], json)
        }
        let before = Date().timeIntervalSince1970

        let full = try add("full", prefer: nil)
        #expect(full.status == 201 && full.applied == nil)
        let stored = try #require(full.body["pending"] as? [[String: Any]])
        #expect(((stored.first?["request"] as? [String: Any])?["content"] as? [String: Any])?["title"] as? String == "Stand-up")
        let added = try #require(full.body["added"] as? [[String: Any]])
        #expect(added.count == 1 && added[0]["identifier"] as? String == "full" && added[0]["app"] as? String == "com.example.prefer")
        let fires = try #require(added[0]["nextFireDate"] as? Double)
        #expect(fires >= before + 3600 && fires < Date().timeIntervalSince1970 + 3600 + 1)

        // RFC 7240: preferences are a list, spaces may surround "=", unknown ones are ignored.
        let minimal = try add("minimal", prefer: "handling=lenient, return = minimal")
        #expect(minimal.status == 201 && minimal.applied == "return=minimal")
        #expect(minimal.body["pending"] == nil, "the stored requests are left out")
        #expect((minimal.body["added"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["minimal"])
        #expect(try add("other", prefer: "return=representation").body["pending"] != nil)
        #expect(await daemon.terminate() == 0)
    }

    @Test func helpPathsAndUsageErrors() async throws {
        let home = try DaemonHome()
        let help = try ChildProcess(DaemonHome.executable, ["--help"], environment: home.environment, name: "help")
        #expect(await help.exitStatus() == 0)
        #expect(help.output.lines.contains { $0.contains("--authorization") && $0.contains("ask|allow|deny") })
        let paths = try ChildProcess(DaemonHome.executable, ["--paths"], environment: home.environment, name: "paths")
        #expect(await paths.exitStatus() == 0)
        #expect(paths.output.lines.contains("socket:       \(home.paths.socketFile.path)"))
        let usage = try ChildProcess(DaemonHome.executable, ["--presenter", "hologram"], environment: home.environment, name: "usage")
        #expect(await usage.exitStatus() == 64)
        // One version for the daemon, the command line and the API.
        let version = try ChildProcess(DaemonHome.executable, ["--version"], environment: home.environment, name: "version")
        #expect(await version.exitStatus() == 0)
        #expect(version.output.lines == ["chimed \(WireFormat.version)"])
        let chime = await ChimeMain.run(["add", "--version"], now: Date(), currentTimeZone: .gmt, paths: home.paths)
        #expect(chime.exitCode == .success && chime.standardOutput == "chime \(WireFormat.version)\n")
    }
}

@Suite("chimed: apps")
struct DaemonAppTests {
    @Test func aResponseLaunchesTheRegisteredCommandWithSignalsAtTheirDefaults() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let marker = home.root.appendingPathComponent("launched").path
        let cli = try await home.connect()
        // The launched program records why it was launched and which signals it ignores or blocks.
        let script = #"{ echo "$CHIME_LAUNCH"; grep -E '^Sig(Ign|Blk):' /proc/self/status; } > "$0.tmp" && mv "$0.tmp" "$0""#
        try await cli.registerApp(AppEntry(identifier: "com.example.launch", displayName: "Launch", launchCommand: ["/bin/sh", "-c", script, marker]))
        try await cli.add([try request("wake", in: 1)], app: "com.example.launch")
        try await daemon.presented("com.example.launch", "wake")
        let result = try await cli.respond(app: "com.example.launch", notification: "wake", action: .open)
        #expect(result.queued && result.launch == "foreground")
        try await eventually("the app launched") { FileManager.default.fileExists(atPath: marker) }
        let lines = try String(contentsOfFile: marker, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "foreground")
        // SIGHUP, SIGINT, SIGTERM are bits 1, 2 and 15: none may be ignored or blocked in the app.
        for line in lines.dropFirst() {
            let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) ?? .max
            #expect(mask & (1 << 0 | 1 << 1 | 1 << 14) == 0, "\(line)")
        }
        let apps = try await cli.apps()
        let entry = try #require(apps.first { $0.entry.identifier == "com.example.launch" })
        #expect(entry.entry.displayName == "Launch")
        #expect(entry.queuedResponses == 1)
        #expect(await daemon.terminate() == 0)
    }

    /// Shown as a banner only: not in Notification Center, so not in the delivered list; its fire is
    /// recorded all the same. (A timed-out question would be presented by the system, in the list. The
    /// answer gets 60 s, the most chimed allows: at the start of a full run this test process's tasks can
    /// wait tens of seconds for a thread, longer than the default 5 s.)
    @Test func aNotificationAForegroundAppShowsAsABannerOnlyIsNotListed() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--presentation-timeout", "60"])
        let app = try await home.connect(app: "com.example.fg", subscribe: true, foreground: true)
        #expect(try await app.requestAuthorization(options: [.alert]))
        try await app.add([try request("banner-only", in: 1)])
        guard case .willPresent(let question) = try await nextEvent(app) else {
            Issue.record("expected willPresent")
            return
        }
        await app.answer(question, options: [.banner])
        try await daemon.presented("com.example.fg", "banner-only")
        #expect(!daemon.log.lines.contains { $0.contains("did not answer how to present banner-only") }, "answered in time")
        #expect(try await app.deliveredNotifications().isEmpty)
        #expect(try await app.pendingRequests().isEmpty, "its fire was recorded")
        #expect(await daemon.terminate() == 0)
    }

    @Test func aForegroundAppChoosesThePresentationOrTimesOut() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--presentation-timeout", "0.5"])
        let app = try await home.connect(app: "com.example.fg", subscribe: true, foreground: true)
        #expect(try await app.requestAuthorization(options: [.alert]))
        try await app.add([try request("asked", in: 1)])
        guard case .willPresent(let question) = try await nextEvent(app) else {
            Issue.record("expected willPresent")
            return
        }
        #expect(question.notification.identifier == "asked")
        await app.answer(question, options: [.list])
        try await eventually("delivered") { try await app.deliveredNotifications().count == 1 }


        // An app that never answers does not hold the notification back.
        try await app.add([try request("ignored", in: 1)])
        guard case .willPresent = try await nextEvent(app) else {
            Issue.record("expected willPresent")
            return
        }
        _ = try await daemon.log.take("timeout") { $0.contains("did not answer how to present ignored") }
        try await daemon.presented("com.example.fg", "ignored")
        #expect(await daemon.terminate() == 0)
    }

    @Test func focusAndDecisionsSurviveARestartAndSIGHUPRereadsTheRegistry() async throws {
        let home = try DaemonHome()
        var daemon = try await home.start()
        var cli = try await home.connect()
        #expect(try await cli.focus(true).on)
        let denied = try await cli.setAuthorization(app: "com.example.noisy", allowed: false)
        #expect(denied.authorizationStatus == .denied)
        await #expect(throws: ChimeError.self) { try await cli.add([try request("x")], app: "com.example.noisy") }
        cli.close()
        #expect(await daemon.terminate() == 0)

        daemon = try await home.start()
        cli = try await home.connect()
        #expect(try await cli.focus().on)
        #expect(try await cli.status().focus)
        do {
            try await cli.add([try request("x")], app: "com.example.noisy")
            Issue.record("a denied app could add")
        } catch let error as ChimeError {
            #expect(error.code == .notificationsNotAllowed)
        }

        // Someone edits the registry by hand, then sends SIGHUP.
        let edited = #"{"apps":[{"identifier":"com.example.edited","displayName":"Edited"}],"focus":false}"#
        try Data(edited.utf8).write(to: home.paths.registryFile)
        kill(daemon.process.processIdentifier, SIGHUP)
        _ = try await daemon.log.take("reload") { $0.contains("chimed: info: reloaded") }
        #expect(try await cli.focus().on == false)
        #expect(try await cli.apps().contains { $0.entry.displayName == "Edited" })
        #expect(await daemon.terminate() == 0)
    }
}
