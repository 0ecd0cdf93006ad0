import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeTestSupport
import Foundation
import Testing

/// The presenter against a real notification server: dunst, drawing on a virtual screen (Xvfb). The
/// screenshots show that a notification really appears, where and in which urgency's colour, and goes
/// away; dunst's own context menu sends a real action back.
@Suite("Desktop presenter with dunst on a virtual screen")
struct DunstTests {
    /// A harness whose notification server is dunst on a virtual display of its own.
    func withDunst(_ body: (DesktopHarness, VirtualDisplay, Dunst) async throws -> Void) async throws {
        try await DesktopHarness.run(server: nil) { h in
            let display = try await VirtualDisplay.start()
            do {
                let dunst = try await Dunst.start(on: h.bus, display: display)
                do {
                    try await body(h, display, dunst)
                } catch {
                    await dunst.stop()
                    throw error
                }
                await dunst.stop()
            } catch {
                await display.stop()
                throw error
            }
            await display.stop()
        }
    }

    /// Whether `shot` shows at least a popup's worth of `color`.
    static func shows(_ color: Screenshot.Color, in shot: Screenshot) -> Bool {
        (shot.box(of: color)?.count ?? 0) > 2_000
    }

    @Test func aNotificationAppearsAtTheTopRightInItsUrgencysColour() async throws {
        try await withDunst { h, display, _ in
            let empty = try await display.screenshot()
            #expect(empty.box(of: Dunst.normalBackground) == nil)
            #expect(empty.box(of: Dunst.criticalBackground) == nil)
            #expect(empty.lightPixels(in: .init(minX: 0, minY: 0, maxX: empty.width - 1, maxY: empty.height - 1)) == 0)

            let center = try await h.center("com.example.alarm", options: [.alert, .sound, .criticalAlert])
            try await h.deliver("hello", NotificationContent(title: "CHIME", body: "Hello from Swift"), in: center)
            let shot = try await display.dunstScreen(showing: "the notification") { Self.shows(Dunst.normalBackground, in: $0) }
            let popup = try #require(shot.box(of: Dunst.normalBackground))
            // Where dunst puts it: the top right corner (offset 10 px), about 420 px wide.
            #expect(popup.box.minX + popup.box.maxX > shot.width)  // its middle is in the right half
            #expect(popup.box.maxX >= shot.width - 20)
            #expect(popup.box.minY < 30)
            #expect(popup.box.width > 300 && popup.box.height > 40)
            // Its text is drawn inside it, in white.
            #expect(shot.lightPixels(in: popup.box) > 150)

            // A critical alert gets the critical colour: the urgency hint reached dunst.
            try await h.deliver("glucose", Seeds.lowGlucose(), in: center)
            let both = try await display.dunstScreen(showing: "both notifications") {
                Self.shows(Dunst.criticalBackground, in: $0) && Self.shows(Dunst.normalBackground, in: $0)
            }
            let critical = try #require(both.box(of: Dunst.criticalBackground))
            #expect(critical.box.minX + critical.box.maxX > both.width)
            #expect(both.lightPixels(in: critical.box) > 150)

            // Withdrawn, it leaves the screen.
            try await center.removeDeliveredNotifications(withIdentifiers: ["glucose"])
            _ = try await display.dunstScreen(showing: "the first notification alone") {
                $0.box(of: Dunst.criticalBackground) == nil && Self.shows(Dunst.normalBackground, in: $0)
            }
        }
    }

    @Test func anActionChosenInDunstsMenuReachesTheApp() async throws {
        try await withDunst { h, display, dunst in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            _ = try await display.dunstScreen(showing: "the notification") { Self.shows(Dunst.normalBackground, in: $0) }

            try await dunst.choose(",ACTION_LIKE]")
            let response = try await h.app.responses.next("the app's response")
            #expect(response.actionIdentifier == "ACTION_LIKE")
            #expect(dunst.menu.contains("Like"))
            #expect(dunst.menu.contains("Dislike"))

            // dunst takes it down after the action, and closes it as the user's doing: not a dismissal.
            _ = try await display.dunstScreen(showing: "an empty screen") { $0.box(of: Dunst.normalBackground) == nil }
            await h.presenter.idle()
            #expect(h.app.responses.all.map(\.actionIdentifier) == ["ACTION_LIKE"])
            #expect(try await center.deliveredNotifications().map(\.identifier) == ["photo-1"])
        }
    }
    /// dunst's pause (`dunstctl set-paused true`) is its Do Not Disturb: Chime reads it as the desktop's,
    /// and holds an active notification in its own list (dunst would only queue it and pop it up when
    /// unpaused); unpaused, it is off again.
    @Test func pausingDunstIsTheDesktopsDoNotDisturb() async throws {
        try await withDunst { h, display, _ in
            let monitor = EnvironmentMonitor(sessionBus: .address(h.bus.address), systemBus: nil, log: h.log)
            await monitor.start()
            let updating = monitor.keepUpdated(h.engine)
            defer { updating.cancel() }
            #expect(await monitor.state.notificationsPaused == false)
            #expect(await monitor.state.doNotDisturb == false)

            func dunstctl(_ arguments: String...) async throws -> String {
                let outcome = try await Subprocess.run("/usr/bin/dunstctl", arguments, environment: ProcessInfo.processInfo.environment.merging(h.bus.environment) { $1 })
                return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            _ = try await dunstctl("set-paused", "true")
            try await eventually("Chime sees the pause as Do Not Disturb") { await h.engine.environment.focus.isOn }

            let center = try await h.center("com.example.alarm", options: [.alert, .sound, .criticalAlert])
            try await h.deliver("tea", NotificationContent(title: "Tea", body: "The kettle boiled"), in: center)
            try await eventually("the active one is in the list") { try await center.deliveredNotifications().contains { $0.identifier == "tea" } }
            await h.presenter.idle()
            #expect(try await dunstctl("count", "waiting") == "0", "not sent to dunst, which would queue it")

            _ = try await dunstctl("set-paused", "false")
            try await eventually("Do Not Disturb is off again") { await !h.engine.environment.focus.isOn }
            #expect(await monitor.state.doNotDisturb == false)
            _ = try await display.dunstScreen(showing: "an empty screen") { $0.box(of: Dunst.normalBackground) == nil }
            await monitor.stop()
        }
    }
}
