import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

/// The whole desktop path with real components and nothing of the machine's: a private session bus,
/// dunst drawing on a virtual screen (Xvfb), the real chimed choosing its presenter by itself, and the
/// `chime` command line. The user answers dunst's authorization prompt and presses a notification's
/// button in dunst's context menu; the button's response reaches the app's subscribed connection.
@Suite("chimed with dunst on a virtual screen")
struct DaemonDunstTests {
    static let app = "com.example.meetings"
    static let title = "Design review 7F3K"

    func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths)
    }

    @Test func aButtonPressedInDunstReachesTheSubscribedApp() async throws {
        try await withDunst { bus, display, dunst in
            let empty = try await display.screenshot()
            #expect(empty.box(of: Dunst.normalBackground) == nil, "dunst's colour on the screen before any notification")

            let home = try DaemonHome()
            let daemon = try await home.start(bus: bus)
            do {
                try await story(home, display, dunst)
            } catch {
                await daemon.killHard()
                throw error
            }
            #expect(await daemon.terminate() == 0)
        }
    }

    func story(_ home: DaemonHome, _ display: VirtualDisplay, _ dunst: Dunst) async throws {
        // Left to choose (`--presenter auto`), chimed takes the desktop because dunst answers on the bus.
        let cli = try await home.connect()
        defer { cli.close() }
        let status = try await cli.status()
        #expect(status.presenter == "desktop")
        #expect(status.notificationServer?.name == "dunst")

        let app = try await home.connect(app: Self.app, subscribe: true)
        defer { app.close() }

        let file = home.root.appendingPathComponent("categories.json")
        try Data(#"""
            [{"identifier": "meeting", "actions": [
                {"identifier": "accept", "title": "Accept"},
                {"identifier": "decline", "title": "Decline", "options": ["destructive"]}]}]
            """#.utf8).write(to: file)
        let categories = await chime(["categories", "set", file.path, "--app", Self.app], home)
        #expect(categories.exitCode == .success, "\(categories.standardError)")
        #expect(categories.standardOutput == "Registered 1 category for \(Self.app).\n")

        // The first add asks as the app: a notification with Allow / Don't Allow, drawn by dunst. The
        // command waits for the answer, so it runs on while the user answers in dunst.
        let notes = LineCollector()
        let adding = Task { [home] in
            let result = await ChimeMain.run(
                ["add", "--title", Self.title, "--category", "meeting", "--id", "review", "--app", Self.app], now: Date(),
                currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths, note: notes.add)
            return (result.exitCode == .success, result.standardOutput, result.standardError)
        }
        do {
            // The prompt's box once it is fully drawn: the same in two screenshots in a row.
            var seen: Screenshot.Box?
            let asking = try await display.dunstScreen(showing: "the authorization prompt") { shot in
                defer { seen = shot.box(of: Dunst.normalBackground)?.box }
                return Self.showsPopup(shot) && shot.box(of: Dunst.normalBackground)?.box == seen
            }
            let prompt = try #require(asking.box(of: Dunst.normalBackground)).box
            #expect(prompt.minX + prompt.maxX > asking.width && prompt.minY < 30, "the prompt is not at the top right: \(prompt)")
            try await dunst.choose(",chime-allow]")

            let (added, output, errors) = await adding.value
            #expect(added, "\(errors)")
            #expect(
                notes.text.hasPrefix(
                    "chime: waiting for your answer: may \(Self.app) show notifications? Answer the question on your desktop or in the web center ('chime web'), or run 'chime apps allow \(Self.app)'"
                ), "the command said what it waited for: \(notes.text)")
            #expect(output == "Sent “\(Self.title)” for \(Self.app) (id review): delivered now, shown by dunst.\n")
            // The fake dmenu has answered (the add went on), so the menu it was shown is written.
            #expect(dunst.menu.contains(",chime-allow]"), "dunst's menu: \(dunst.menu)")
            #expect(dunst.menu.contains(",chime-deny]"), "dunst's menu: \(dunst.menu)")
            try await eventually("review among \(Self.app)'s delivered notifications") {
                try await cli.deliveredNotifications(app: Self.app).contains { $0.notification.identifier == "review" }
            }

            // chimed closes the answered prompt; the notification takes the top right alone: one popup,
            // not the prompt with the notification stacked below it.
            let shot = try await display.dunstScreen(showing: "the notification alone at the top right") { shot in
                guard Self.showsPopup(shot), let box = shot.box(of: Dunst.normalBackground)?.box else { return false }
                return box.minY < 30 && box.height < prompt.height + 40
            }
            let popup = try #require(shot.box(of: Dunst.normalBackground)).box
            #expect(popup.minX + popup.maxX > shot.width, "not in the right half: \(popup)")
            #expect(popup.maxX >= shot.width - 20, "not at the right edge: \(popup)")
            #expect(shot.lightPixels(in: popup) > 150, "no text drawn in \(popup)")

            // The user presses Accept in dunst's menu: dunst → ActionInvoked → chimed → the app.
            try await dunst.choose(",accept]")
            let event = try await response(app)
            // The fake dmenu has answered, so the menu it was shown is written: the notification's buttons.
            let menu = dunst.menu
            #expect(menu.contains("#Accept (\(Self.title)) [") && menu.contains("#Decline (\(Self.title)) ["), "dunst's menu: \(menu)")
            #expect(event.response.actionIdentifier == "accept")
            #expect(event.response.notification.identifier == "review")
            #expect(event.response.notification.request.content.title == .literal(Self.title))
            try await app.acknowledge(event)

            // chimed closes the notification once the app has the answer: nothing of dunst's is left.
            _ = try await display.dunstScreen(showing: "an empty screen") { $0.box(of: Dunst.normalBackground) == nil }
        } catch {
            adding.cancel()
            throw error
        }
    }

    /// The first response event the app's connection receives, within a deadline.
    func response(_ app: DaemonClient) async throws -> ResponseEvent {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let left = Double((deadline - ContinuousClock.now).components.seconds) + 0.5
            if case .response(let event) = try await nextEvent(app, within: left) { return event }
        }
        throw Timeout(description: "no response event reached \(Self.app)")
    }

    /// A private bus with dunst on a virtual display of its own; all three stop when `body` ends.
    func withDunst(_ body: (PrivateBus, VirtualDisplay, Dunst) async throws -> Void) async throws {
        let bus = try await PrivateBus.start()
        var display: VirtualDisplay?
        var dunst: Dunst?
        var failure: (any Error)?
        do {
            display = try await VirtualDisplay.start()
            dunst = try await Dunst.start(on: bus, display: display!)
            try await body(bus, display!, dunst!)
        } catch {
            failure = error
        }
        await dunst?.stop()
        await display?.stop()
        await bus.stop()
        if let failure { throw failure }
    }

    /// Whether `shot` shows at least a popup's worth of dunst's colour.
    static func showsPopup(_ shot: Screenshot) -> Bool {
        (shot.box(of: Dunst.normalBackground)?.count ?? 0) > 2_000
    }
}
