import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The web center's notifications, in a real browser against a real chimed: what a user sees arrive and
/// does with it, and what the app receives.
@Suite("Web center: notifications", .serialized)
struct WebCenterPageTests {
    static let app = "com.example.meetings"

    /// Notifications arrive live, stacked by thread under the category's summary, in every open tab; a
    /// button, a typed reply and opening reach the app as the responses the desktop would send; dismissing
    /// tells the app only when its category asks, and takes the notification off the list either way.
    @Test func notificationsArriveLiveAndAnswersReachTheApp() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            let client = try await session.meetingApp()
            defer { client.close() }
            try await browser.wait("#center .empty", showing: "No notifications.")
            #expect(try await browser.script("return location.pathname + location.search") as? String == "/", "the code is gone from the address")

            // Live, without reloading: each arrives in its app's section, the thread stacked.
            await session.add(["--app", Self.app, "--category", "invite", "--thread", "ann", "--id", "lunch", "Lunch on Friday?", "Ann invites you"])
            try await browser.wait("section[data-app='\(Self.app)'] li[data-id='lunch']", showing: "Lunch on Friday?")
            await session.add(["--app", Self.app, "--category", "invite", "--thread", "ann", "--id", "coffee", "Coffee?", "Ann: at 3?"])
            try await browser.wait("ul[data-thread='ann'] li[data-id='coffee']", showing: "1 more invitations")
            #expect(try await browser.count("ul[data-thread='ann'] li.notification") == 1, "the stack shows its newest only")
            try await browser.click("section[data-app='\(Self.app)'] .stack-toggle")
            try await browser.wait("li[data-id='lunch']", showing: "Ann invites you")
            #expect(try await browser.count("ul[data-thread='ann'] li.notification") == 2)

            try await browser.newTab()
            try await browser.open(try session.origin + "/")
            try await browser.wait("li[data-id='coffee']", showing: "Coffee?")
            try await browser.switchTab(0)

            // A button, a typed reply, opening: the app receives each as the desktop would send it.
            try await browser.click("li[data-id='coffee'] button[data-action='accept']")
            var response = try await nextResponse(client)
            #expect(response.notification.request.identifier == "coffee" && response.actionIdentifier == "accept")
            try await browser.type("li[data-id='lunch'] input[data-action='decline']", "Dentist\n")
            response = try await nextResponse(client)
            #expect(response.actionIdentifier == "decline" && response.userText == "Dentist")
            await session.add(["--app", Self.app, "--id", "note", "--level", "time-sensitive", "A note"])
            try await browser.wait("li.timeSensitive[data-id='note'] .level", showing: "Time Sensitive")
            try await browser.click("li[data-id='note'] button[data-action='open']")
            response = try await nextResponse(client)
            #expect(response.isDefaultAction && response.notification.request.identifier == "note")

            // Dismissing a notification whose category asks for it: the app hears of it.
            await session.add(["--app", Self.app, "--category", "reminder", "--id", "call", "Call Ann"])
            try await browser.click("li[data-id='call'] button[data-action='dismiss']")
            response = try await nextResponse(client)
            #expect(response.isDismissAction && response.notification.request.identifier == "call")
            try await browser.waitGone("li[data-id='call']")
            // One whose category does not: it leaves the list, and the next response the app gets is the
            // next thing the user does, not a dismissal.
            try await browser.click("li[data-id='lunch'] button[data-action='dismiss']")
            try await browser.waitGone("li[data-id='lunch']")
            let delivered = await session.chime(["delivered", "--app", Self.app, "--json"]).standardOutput
            #expect(!delivered.contains(#""lunch""#), "\(delivered)")
            try await browser.switchTab(1)
            try await browser.waitGone("li[data-id='lunch']")
            try await browser.click("li[data-id='coffee'] button[data-action='accept']")
            response = try await nextResponse(client)
            #expect(response.actionIdentifier == "accept", "no dismissal reached the app for lunch")
        }
    }

    /// Everything works from the keyboard: a button is reached with Tab and pressed with Enter, and every
    /// control has a name a screen reader says.
    @Test func theCenterWorksFromTheKeyboardAndEveryControlIsNamed() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            let client = try await session.meetingApp()
            defer { client.close() }
            await session.add(["--app", Self.app, "--category", "invite", "--id", "tea", "Tea?"])
            try await browser.wait("li[data-id='tea']", showing: "Tea?")
            // Tab from the "Clear" button of the app's header reaches the first button of the notification.
            _ = try await browser.script("document.querySelector(\"section[data-app='\(Self.app)'] header button\").focus()")
            try await browser.keys(["TAB", "ENTER"])
            let response = try await nextResponse(client)
            #expect(response.actionIdentifier == "accept")

            let unnamed = try await browser.script("""
                return [...document.querySelectorAll('button, input, select, a[href]')]
                  .filter((e) => e.offsetParent !== null)
                  .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim() || (e.id && document.querySelector(`label[for="${e.id}"]`))))
                  .map((e) => e.outerHTML)
                """) as? [Any]
            #expect(unnamed?.isEmpty == true, "controls without a name: \(unnamed ?? [])")
            let lists = try await browser.count("#center ul[role='list']")
            #expect(lists >= 1)
        }
    }

    /// While the session is locked (logind's LockedHint, here a stand-in on a private bus) previews set to
    /// show when unlocked are hidden, and an action that needs unlocking is refused with a word saying
    /// so — on the page and by chimed; unlocked, both come back.
    @Test func aLockedSessionHidesPreviewsAndRefusesWhatNeedsUnlocking() async throws {
        let bus = try await PrivateBus.start()
        var options = FakeNotificationServer.Options()
        options.logind = true
        let server = try await FakeNotificationServer.start(on: bus, options: options)
        let session = try await WebCenterSession.start(
            bus: bus, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_SESSION_ID": "7"])
        let browser = session.browser
        try await session.run {
            try await session.setCategories(
                #"[{"identifier": "payment", "actions": [{"identifier": "pay", "title": "Pay now", "options": ["authenticationRequired"]}]}]"#, app: Self.app)
            // On a desktop the prompt would ask; the user allows the app beforehand instead.
            #expect(await session.chime(["apps", "allow", Self.app]).exitCode == .success)
            #expect(await session.chime(["apps", "settings", Self.app, "--previews", "when-unlocked"]).exitCode == .success)
            await session.add(["--app", Self.app, "--category", "payment", "--id", "bill", "Electricity bill", "42,000 won due Friday"])
            try await browser.wait("li[data-id='bill']", showing: "42,000 won due Friday")
            #expect(try await browser.script("return document.querySelector(\"li[data-id='bill'] button[data-action='pay']\").disabled") as? Bool == false)

            try await server.setLocked(true)
            try await browser.wait("#center .notice", showing: "The session is locked")
            try await browser.wait("li[data-id='bill'].hidden-preview .body", showing: "Notification")
            #expect(try await browser.count("li[data-id='bill'] .title") == 0, "the title is preview text too")
            #expect(try await browser.script("return document.querySelector(\"li[data-id='bill'] button[data-action='pay']\").disabled") as? Bool == true)
            try await browser.wait("li[data-id='bill'] .hint", showing: "Unlock first")
            // chimed refuses it too, whoever asks.
            let refused = await session.chime(["respond", "--app", Self.app, "--id", "bill", "--action", "pay"])
            #expect(refused.exitCode != .success && refused.standardError.contains("unlock"), "\(refused.standardError)")

            try await server.setLocked(false)
            try await browser.wait("li[data-id='bill']:not(.hidden-preview) .body", showing: "42,000 won due Friday")
            #expect(try await browser.count("#center .notice") == 0)
            try await browser.click("li[data-id='bill'] button[data-action='pay']")
            // The app is not running: the response waits for it.
            try await eventually("the payment queued for the app") {
                await session.chime(["responses", "--app", Self.app, "--json"]).standardOutput.contains(#""action" : "pay""#)
            }
        }
        await server.stop()
        await bus.stop()
    }

    /// The rating example's content extension: Rate turns the buttons into stars on the page, in place,
    /// and a star takes them away; the app saves the rating.
    @Test func theRatingExamplesStarsReplaceItsButtonsOnThePage() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            let executable = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("rating").path
            let rating = try ChildProcess(executable, ["--in", "0.5"], environment: session.home.environment, name: "rating")
            defer { rating.closeInput() }
            let order = "li[data-app='com.example.rating']"
            try await browser.wait("\(order) button[data-action='rate-action']", showing: "Rate", within: 20)
            try await browser.click("\(order) button[data-action='rate-action']")
            try await browser.wait("\(order) button[data-action='three-stars']", showing: "★★★", within: 10)
            #expect(try await browser.count("\(order) button[data-action='rate-action']") == 0, "the stars took the buttons' place")
            try await browser.click("\(order) button[data-action='three-stars']")
            _ = try await rating.output.take("the thanks") { $0.contains("Thanks! You rated the order ★★★.") }
            try await browser.waitGone("\(order) button[data-action='one-star']")
            #expect(try await browser.count("\(order) button[data-action='open']") == 1, "the notification stays, to open or dismiss")
        }
    }

    /// The alarm example in client mode, answered from the page: Snooze sets it nine minutes later.
    @Test func theAlarmsSnoozeFromThePageSetsItNineMinutesLater() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            let executable = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("alarm").path
            let alarm = try ChildProcess(executable, ["set", "--in", "1s"], environment: session.home.environment, name: "alarm")
            defer { alarm.closeInput() }
            _ = try await alarm.output.take("set") { $0.hasPrefix("Alarm set for ") }
            let ringing = "li[data-app='com.example.alarm']"
            try await browser.wait("\(ringing) button[data-action='snooze']", showing: "Snooze", within: 15)
            let before = Date()
            try await browser.click("\(ringing) button[data-action='snooze']")
            let line = try await alarm.output.take("snoozed") { $0.hasPrefix("Snoozed: the alarm rings again at ") }
            let stored = home(session).appendingPathComponent("data/com.example.alarm/ScheduledAlarm.json")
            let alarmDate = try JSONDecoder().decode(StoredAlarm.self, from: Data(contentsOf: stored)).date
            #expect(alarmDate >= before.addingTimeInterval(9 * 60 - 1) && alarmDate <= Date().addingTimeInterval(9 * 60 + 1), "\(line)")
            // The scheduled view lists it, in nine minutes.
            try await browser.click("nav a[href='#scheduled']")
            try await browser.wait("#scheduled li[data-app='com.example.alarm']", showing: "Next:")
        }
    }

    struct StoredAlarm: Decodable { var date: Date }

    func home(_ session: WebCenterSession) -> URL { session.home.root }
}
