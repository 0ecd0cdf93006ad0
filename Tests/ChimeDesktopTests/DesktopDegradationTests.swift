import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeTestSupport
import Foundation
import Testing

/// The authorization prompt, and what the presenter does when the desktop cannot do everything: a server
/// without buttons or without a body, no server at all, a server that restarts, one that never answers.
@Suite("Desktop presenter: authorization and degraded desktops")
struct DesktopDegradationTests {
    // MARK: - Authorization prompt

    @Test(arguments: [true, false])
    func theAuthorizationPromptTakesTheUsersChoice(allows: Bool) async throws {
        try await DesktopHarness.run { h in
            let center = h.engine.center(for: "com.example.photos")
            async let granted = center.requestAuthorization(options: [.alert, .sound, .badge])
            let prompt = try await h.fake.nextCall("Notify")
            #expect(prompt.summary == "Allow “Photos” to send notifications?")
            #expect(prompt.body == "“Photos” would like to send alerts, sounds and badges.")
            #expect(prompt.actions == ["chime-allow", "Allow", "chime-deny", "Don't Allow"])
            #expect(prompt.expireTimeout == 0)
            try await h.fake.invoke(id: prompt.id, key: allows ? "chime-allow" : "chime-deny")
            #expect(try await granted == allows)
            #expect(try await center.notificationSettings().authorizationStatus == (allows ? .authorized : .denied))
            // Answered, the question leaves the screen (the server would keep a resident one).
            #expect(try await h.fake.nextCall("CloseNotification").id == prompt.id)
        }
    }

    /// The user allows the app through another door (`chime apps allow`) while the prompt is up: the
    /// waiting request is answered, and the prompt leaves the screen.
    @Test func aPromptAnsweredElsewhereIsWithdrawn() async throws {
        try await DesktopHarness.run { h in
            let center = h.engine.center(for: "com.example.photos")
            async let granted = center.requestAuthorization(options: [.alert])
            let prompt = try await h.fake.nextCall("Notify")
            try await center.updateSettings(.granted([.alert]))
            #expect(try await granted == true)
            #expect(try await h.fake.nextCall("CloseNotification").id == prompt.id)
            #expect(try await center.notificationSettings().authorizationStatus == .authorized)
        }
    }

    @Test func aPromptClosedWithoutAChoiceLeavesTheAppUndecided() async throws {
        try await DesktopHarness.run { h in
            let center = h.engine.center(for: "com.example.photos")
            async let granted = center.requestAuthorization(options: [.alert])
            let prompt = try await h.fake.nextCall("Notify")
            try await h.fake.close(id: prompt.id, reason: 2)
            #expect(try await granted == false)
            #expect(try await center.notificationSettings().authorizationStatus == .notDetermined)

            // Asked again later, it can still be allowed.
            async let again = center.requestAuthorization(options: [.alert])
            let second = try await h.fake.nextCall("Notify")
            try await h.fake.invoke(id: second.id, key: "chime-allow")
            #expect(try await again == true)
        }
    }

    // MARK: - Servers that can do less

    @Test func aServerWithoutActionsGetsNoButtonsAndCannotAsk() async throws {
        var plain = FakeNotificationServer.Options()
        plain.capabilities = ["body"]
        try await DesktopHarness.run(server: plain) { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.actions.isEmpty)
            #expect(notify.body == "Shared some photo")

            let other = h.engine.center(for: "com.example.alarm")
            #expect(try await other.requestAuthorization(options: [.alert]) == false)
            #expect(try await other.notificationSettings().authorizationStatus == .notDetermined)
            _ = try await h.log.nextWarning(containing: "shows no buttons")
        }
    }

    @Test func aServerWithoutABodyGetsTheTextInTheSummary() async throws {
        var terse = FakeNotificationServer.Options()
        terse.capabilities = ["actions"]
        try await DesktopHarness.run(server: terse) { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            var content = try Seeds.photoPost()
            content.subtitle = "From Jane"
            try await h.deliver("photo-1", content, in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.summary == "Hello — From Jane — Shared some photo")
            #expect(notify.body == "")
        }
    }

    @Test func withoutAServerNotificationsAreDroppedWithAWarningAndTheEngineGoesOn() async throws {
        try await DesktopHarness.run(server: nil) { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            let warning = try await h.log.nextWarning(containing: "com.example.photos/photo-1 was not shown")
            #expect(warning.contains("no notification server"))
            #expect(warning.contains("org.freedesktop.Notifications"))
            // Delivered all the same, and the engine keeps working.
            try await h.deliver("photo-2", Seeds.photoPost(), in: center)
            _ = try await h.log.nextWarning(containing: "com.example.photos/photo-2 was not shown")
            #expect(Set(try await center.deliveredNotifications().map(\.identifier)) == ["photo-1", "photo-2"])
            try await center.setBadgeCount(2)  // a badge needs no server: the signal goes out regardless
            await h.presenter.idle()

            let newcomer = h.engine.center(for: "com.example.alarm")
            #expect(try await newcomer.requestAuthorization(options: [.alert]) == false)
            #expect(try await newcomer.notificationSettings().authorizationStatus == .notDetermined)
            _ = try await h.log.nextWarning(containing: "cannot ask whether com.example.alarm may send notifications")
        }
    }

    @Test func withoutABusAtAllNothingHangs() async throws {
        try await DesktopHarness.run(server: nil) { h in
            let presenter = DesktopPresenter(
                configuration: .init(bus: .address("unix:path=/nonexistent/chime-no-bus")), log: h.log)
            let presentation = Presentation(
                appIdentifier: "com.example.photos", notificationIdentifier: "photo-1", date: DesktopHarness.start,
                destinations: [.banner], title: "Hello", group: PresentationGroup(threadIdentifier: "", count: 1, summary: ""))
            await presenter.present(presentation)
            await presenter.updateBadge(appIdentifier: "com.example.photos", count: 1)
            await presenter.idle()
            _ = try await h.log.nextWarning(containing: "cannot reach the bus at unix:path=/nonexistent/chime-no-bus")
            #expect(await presenter.decide(appIdentifier: "com.example.photos", options: [.alert]) == nil)
        }
    }

    @Test func aServerThatNeverAnswersCostsTheEngineNothingAndThePresenterOnlyTheTimeout() async throws {
        // Long enough for the second delivery to be shown before the first call times out on a machine
        // busy with the rest of the suite.
        try await DesktopHarness.run(callTimeout: .seconds(15)) { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.fake.hang()
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            _ = try await h.fake.nextCall("Notify")
            // While the server keeps the call waiting, the engine goes on delivering.
            try await h.deliver("photo-2", Seeds.photoPost(), in: center)
            try await eventually("both are delivered") { try await center.deliveredNotifications().count == 2 }
            #expect(h.log.warnings.all.isEmpty)  // still waiting for the server
            let warning = try await h.log.nextWarning(containing: "com.example.photos/photo-1 was not shown", within: 40)
            #expect(warning.contains("timedOut"))
            _ = try await h.log.nextWarning(containing: "com.example.photos/photo-2 was not shown", within: 40)
        }
    }

    @Test func aRestartedServerIsAskedForItsCapabilitiesAgain() async throws {
        var plain = FakeNotificationServer.Options()
        plain.capabilities = ["body"]
        let bus = try await PrivateBus.start()
        let log = RecordingLog()
        let presenter = DesktopPresenter(configuration: .init(bus: .address(bus.address)), log: log)
        let presentation = Presentation(
            appIdentifier: "com.example.photos", notificationIdentifier: "photo-1", date: DesktopHarness.start,
            destinations: [.banner], title: "Hello", actions: [PresentationAction(identifier: "like", title: "Like")],
            group: PresentationGroup(threadIdentifier: "", count: 1, summary: ""))
        do {
            let first = try await FakeNotificationServer.start(on: bus, options: plain)
            await presenter.present(presentation)
            #expect(try await first.nextCall("Notify").actions.isEmpty)
            await first.stop()
            _ = try await log.infos.next("the note that the server went away")

            let second = try await FakeNotificationServer.start(on: bus)
            await presenter.present(presentation)
            let notify = try await second.nextCall("Notify")
            #expect(notify.actions == ["default", "Open", "like", "Like"])
            #expect(notify.replacesID == 0)  // the old server's notification is gone with it
            #expect(try second.calls("GetCapabilities").count == 1)
            await second.stop()
        } catch {
            await bus.stop()
            throw error
        }
        await bus.stop()
    }
}
