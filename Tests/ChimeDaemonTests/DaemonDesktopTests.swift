import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

/// chimed on a private session bus with the scripted notification server: it chooses the desktop
/// presenter, asks for authorization with a notification, names apps from the registry, and queues the
/// response to a button pressed on the desktop for the app that is not running.
@Suite("chimed on the desktop")
struct DaemonDesktopTests {
    @Test func desktopPresenterAsksShowsAndQueuesTheAnswer() async throws {
        let bus = try await PrivateBus.start()
        let server = try await FakeNotificationServer.start(on: bus)
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)

        let cli = try await home.connect()
        let status = try await cli.status()
        #expect(status.presenter == "desktop")
        #expect(status.notificationServer?.name == "chime-fake")
        #expect(status.notificationServer?.capabilities.contains("actions") == true)
        try await cli.registerApp(AppEntry(identifier: "com.example.kettle", displayName: "Kettle"))

        let app = try await home.connect(app: "com.example.kettle")
        async let allowed = app.requestAuthorization(options: [.alert, .sound])
        let prompt = try await server.nextCall("Notify") { $0.actions.contains("chime-allow") }
        try await server.invoke(id: prompt.id, key: "chime-allow")
        #expect(try await allowed)
        app.close()

        try await cli.add([try request("boiled", in: 1)], app: "com.example.kettle")
        let shown = try await server.nextCall("Notify") { $0.summary == "Hello" }
        #expect(shown["app_name"]?.stringValue == "Kettle")
        try await server.invoke(id: shown.id, key: "default")
        try await eventually("the answer queued for the app") {
            try await cli.apps().first { $0.entry.identifier == "com.example.kettle" }?.queuedResponses == 1
        }
        let subscriber = try await home.connect(app: "com.example.kettle", subscribe: true)
        guard case .response(let event) = try await nextEvent(subscriber) else {
            Issue.record("expected the queued response")
            return
        }
        #expect(event.response.isDefaultAction && event.response.notification.identifier == "boiled")
        try await subscriber.acknowledge(event)

        // The notification server goes away: a notification sent now is listed, and the command says that
        // nothing shows it rather than "delivered".
        await server.stop()
        try await eventually("chimed sees no notification server") { try await cli.status().notificationServer == nil }
        let sent = await ChimeMain.run(
            ["add", "--app", "com.example.kettle", "--title", "Unseen", "--id", "unseen"], now: Date(), currentTimeZone: TimeZone(identifier: "UTC")!,
            paths: home.paths)
        #expect(
            sent.standardOutput
                == "Sent “Unseen” for com.example.kettle (id unseen): delivered to the list now, but no notification server is running to show it ('chime delivered' lists it).\n",
            "\(sent.standardOutput)\(sent.standardError)")

        #expect(await daemon.terminate() == 0)
        await bus.stop()
    }

    /// Where a typed reply is collected when the server has no inline reply.
    enum ReplyDoor: String, CaseIterable, CustomStringConvertible {
        /// The web center in the user's browser, at the notification's reply box.
        case page
        /// No browser opens: the desktop's entry dialog.
        case dialog
        /// Neither: a notice saying how to reply from a terminal.
        case notice
        var description: String { rawValue }
    }

    /// The server has no inline reply (as dunst, mako and GNOME Shell): pressing the reply button opens
    /// the web center at that notification's reply box (through `xdg-open`, here a stand-in on PATH that
    /// hands the link to the test's real browser); without a browser, the desktop's entry dialog (zenity,
    /// a stand-in that answers "Dentist"); without either, a notice on screen says how to reply. What was
    /// typed reaches the app as its response.
    @Test(arguments: ReplyDoor.allCases)
    func aReplyIsTypedInThePageOrADialogWhereTheServerHasNoInlineReply(door: ReplyDoor) async throws {
        let bus = try await PrivateBus.start()
        let server = try await FakeNotificationServer.start(on: bus)
        let home = try DaemonHome()
        let tools = home.root.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let asked = home.root.appendingPathComponent("zenity-arguments").path
        let opened = home.root.appendingPathComponent("opened-link").path
        func tool(_ name: String, _ script: String) throws {
            let file = tools.appendingPathComponent(name)
            try Data("#!/bin/sh\n\(script)\n".utf8).write(to: file)
            #expect(chmod(file.path, 0o755) == 0)
        }
        // xdg-open is always a stand-in: the machine's own would start a browser of its choosing.
        try tool("xdg-open", door == .page ? "printf '%s' \"$1\" > '\(opened)'" : "exit 3")
        if door == .dialog { try tool("zenity", "printf '%s\\n' \"$@\" > '\(asked)'\necho Dentist") }
        let daemon = try await home.start(bus: bus, environment: ["PATH": tools.path + ":/usr/bin:/bin"])

        let app = try await home.connect(app: "com.example.meetings", subscribe: true)
        defer { app.close() }
        async let allowed = app.requestAuthorization(options: [.alert])
        let prompt = try await server.nextCall("Notify") { $0.actions.contains("chime-allow") }
        try await server.invoke(id: prompt.id, key: "chime-allow")
        #expect(try await allowed)
        let decline = try NotificationAction.textInput(identifier: "decline", title: "Decline with reason", buttonTitle: "Send", placeholder: "Why?")
        try await app.setCategories([try NotificationCategory(identifier: "meeting", actions: [decline])])
        try await app.add([try request("review", in: 0.5, title: "Design review", category: "meeting")])
        let shown = try await server.nextCall("Notify") { $0.summary == "Design review" }
        try await server.invoke(id: shown.id, key: "decline")

        switch door {
        case .page:
            try await eventually("the link handed to the browser") { FileManager.default.fileExists(atPath: opened) }
            let link = try String(contentsOfFile: opened, encoding: .utf8)
            #expect(link.hasPrefix("http://127.0.0.1:") && link.hasSuffix("#reply/com.example.meetings/review/decline"), "\(link)")
            let browser = try await WebBrowser()
            do {
                try await browser.open(link)
                // The page opens at the reply box, the keyboard in it: the user just types.
                try await eventually("the reply box focused") {
                    try await browser.script("return document.activeElement?.dataset?.action ?? ''") as? String == "decline"
                }
                try await browser.keys(["Dentist", "ENTER"])
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        case .dialog, .notice:
            break
        }
        if door == .notice {
            let notice = try await server.nextCall("Notify") { $0.summary == "Reply to com.example.meetings" }
            #expect(notice.body.contains("chime respond --app 'com.example.meetings' --id 'review' --action 'decline' --text"), "\(notice.body)")
        } else {
            guard case .response(let event) = try await nextEvent(app) else { Issue.record("no response"); return }
            #expect(event.response.actionIdentifier == "decline" && event.response.userText == "Dentist")
        }
        if door == .dialog {
            let arguments = try String(contentsOfFile: asked, encoding: .utf8)
            #expect(arguments == "--entry\n--title\nReply — com.example.meetings\n--text\nDecline with reason (Why?)\n", "\(arguments)")
        }
        let status = await daemon.terminate()
        #expect(status == 0, "chimed ended with \(status); its last words: \(daemon.log.lines.suffix(8))")
        await server.stop()
        await bus.stop()
    }

    /// chimed restarts while its notification is on the desktop; the user presses it afterwards: the new
    /// process knows it (the presenter's map is kept in the data folder), and the answer reaches the app.
    @Test func aNotificationPressedAfterARestartStillReachesItsApp() async throws {
        let bus = try await PrivateBus.start()
        let server = try await FakeNotificationServer.start(on: bus)
        let home = try DaemonHome()
        var daemon = try await home.start(bus: bus)
        let app = try await home.connect(app: "com.example.kettle")
        async let allowed = app.requestAuthorization(options: [.alert])
        let prompt = try await server.nextCall("Notify") { $0.actions.contains("chime-allow") }
        try await server.invoke(id: prompt.id, key: "chime-allow")
        #expect(try await allowed)
        try await app.add([try request("boiled", in: 1)])
        let shown = try await server.nextCall("Notify") { $0.summary == "Hello" }
        app.close()
        #expect(await daemon.terminate() == 0)

        daemon = try await home.start(bus: bus)
        _ = try await daemon.log.take("the restore") { $0.contains("took back 1 notifications shown before the restart") }
        try await server.invoke(id: shown.id, key: "default")
        let cli = try await home.connect()
        try await eventually("the answer queued for the app") {
            try await cli.apps().first { $0.entry.identifier == "com.example.kettle" }?.queuedResponses == 1
        }
        #expect(await daemon.terminate() == 0)
        await server.stop()
        await bus.stop()
    }

    /// An example app run in a terminal while chimed asks on the desktop says what it waits for, rather
    /// than sitting silent until someone finds the question, and goes on once it is answered.
    @Test func anAppWaitingForTheDesktopsAnswerSaysSoInItsTerminal() async throws {
        let bus = try await PrivateBus.start()
        let server = try await FakeNotificationServer.start(on: bus)
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)
        let alarm = try ChildProcess(AlarmWithChimedTests.alarmExecutable, ["set", "--in", "10m"], environment: home.environment, name: "alarm")
        let prompt = try await server.nextCall("Notify") { $0.actions.contains("chime-allow") }
        let waiting = try await alarm.errors.take("the waiting notice") { $0.contains("waiting for your answer") }
        #expect(
            waiting
                == "chime: UserNotifications: waiting for your answer: may com.example.alarm show notifications? Answer the question on your desktop "
                + "or in the web center ('chime web'), or run 'chime apps allow com.example.alarm' (or deny) in another terminal")
        #expect(alarm.output.lines.isEmpty, "nothing set before the answer: \(alarm.output.lines)")
        try await server.invoke(id: prompt.id, key: "chime-allow")
        _ = try await alarm.output.take("set") { $0.hasPrefix("Alarm set for ") }
        alarm.closeInput()
        #expect(await alarm.exitStatus() == 0)

        // Allowed now: the next run asks nobody and says nothing of waiting.
        let again = try ChildProcess(AlarmWithChimedTests.alarmExecutable, ["set", "--in", "10m"], environment: home.environment, name: "alarm")
        _ = try await again.output.take("set") { $0.hasPrefix("Alarm set for ") }
        again.closeInput()
        #expect(await again.exitStatus() == 0)
        #expect(again.errors.lines.allSatisfy { !$0.contains("waiting") }, "\(again.errors.lines)")
        #expect(await daemon.terminate() == 0)
        await server.stop()
        await bus.stop()
    }

    @Test func stoppingWhileTheUserHasNotAnsweredAnswersTheAppAndExitsCleanly() async throws {
        let bus = try await PrivateBus.start()
        let server = try await FakeNotificationServer.start(on: bus)
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)
        let app = try await home.connect(app: "com.example.patient")
        // The question stays on the desktop: nobody answers it.
        let asking = Task { try await app.requestAuthorization(options: [.alert]) }
        _ = try await server.nextCall("Notify") { $0.actions.contains("chime-allow") }

        #expect(await daemon.terminate() == 0, "a request still waiting does not keep chimed from stopping cleanly")
        _ = try await daemon.log.take("stopped") { $0.hasSuffix("chimed: info: stopped") }
        // The app's call ends: undecided (the desktop's question closed with the daemon), or refused.
        switch await asking.result {
        case .success(let granted): #expect(!granted)
        case .failure(let error): #expect([.unavailable, .notConnected].contains((error as? APIError)?.apiCode), "\(error)")
        }
        await server.stop()
        await bus.stop()
    }
}
