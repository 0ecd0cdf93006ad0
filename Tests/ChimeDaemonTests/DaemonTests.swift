import ChimeClient
import ChimeCore
import ChimeIPC
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

/// The real `chimed`, started as a process in a private home, driven through `DaemonClient` and raw lines.
@Suite("chimed", .serialized)
struct DaemonTests {
    @Test func helloWithAWrongTokenIsRefused() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        await #expect {
            _ = try await DaemonClient.connect(socketPath: home.paths.socketFile.path, token: String(repeating: "0", count: 64))
        } throws: { ($0 as? IPCError)?.ipcCode == .unauthenticated }

        // A first message that is not hello is refused too, and the connection closed.
        let raw = try RawConnection(home.paths.socketFile.path)
        raw.send(#"{"id":1,"method":"status","params":{}}"# + "\n")
        let head = try await raw.reply("refusal")
        #expect(head.id == 1)
        #expect(head.error?.ipcCode == .unauthenticated)
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
        try await app.add([try request("later"), try request("soon", in: 1)])
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
        _ = try await app.status()
        #expect(app.receivedEventCount == 1, "replayed once")
        try await app.acknowledge(event)
        app.close()

        let later = try await home.connect(app: "com.example.meet", subscribe: true)
        _ = try await later.status()  // any event sent on subscribing has arrived before this reply
        #expect(later.receivedEventCount == 0, "an acknowledged response came again")
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

    @Test func badLinesGetTypedErrorsAndTheConnectionSurvives() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let token = try String(contentsOf: home.paths.tokenFile, encoding: .utf8)
        let raw = try RawConnection(home.paths.socketFile.path)
        raw.send(#"{"id":1,"method":"hello","params":{"token":"\#(token)","app":"com.example.bad"}}"# + "\n")
        #expect(try await raw.reply("hello").error == nil)

        raw.send("this is not json\n")
        #expect(try await raw.reply("malformed").error?.ipcCode == .malformedMessage)
        raw.send(#"{"id":2,"method":"launchMissiles","params":{}}"# + "\n")
        let unknown = try await raw.reply("unknown")
        #expect(unknown.id == 2 && unknown.error?.ipcCode == .unknownMethod)
        raw.send(#"{"id":3,"method":"add","params":{"requests":[{"identifier":""}]}}"# + "\n")
        let invalid = try await raw.reply("invalid")
        #expect(invalid.id == 3 && invalid.error != nil)
        raw.send(String(repeating: "x", count: WireFormat.maximumLineLength + 10) + "\n")
        #expect(try await raw.reply("too large").error?.ipcCode == .messageTooLarge)
        // Engine validation errors come back with the engine's code.
        raw.send(#"{"id":4,"method":"setBadgeCount","params":{"count":-1}}"# + "\n")
        let badge = try await raw.reply("badge")
        #expect(badge.id == 4 && badge.error?.domain == .chime)

        raw.send(#"{"id":5,"method":"pendingRequests","params":{}}"# + "\n")
        let pending = try await raw.lines.take("pending") { $0.contains(#""id":5"#) }
        #expect(pending.contains(#""result":[]"#), "nothing was added by the bad lines")
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

    @Test func aForegroundAppChoosesThePresentationOrTimesOut() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--presentation-timeout", "0.5"])
        let app = try await home.connect(app: "com.example.fg", subscribe: true, foreground: true)
        try await app.add([try request("asked", in: 1)])
        guard case .willPresent(let question) = try await nextEvent(app) else {
            Issue.record("expected willPresent")
            return
        }
        #expect(question.notification.identifier == "asked")
        app.answer(question, options: [.list])
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
