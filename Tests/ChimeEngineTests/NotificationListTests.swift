import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

/// The notification list as a page shows it (`NotificationEngine.listed`): the policy applied with what
/// holds now — settings, the lock, the grouping setting — and the stacks' sizes and summaries.
@Suite("Engine: the notification list as it shows now")
struct NotificationListTests {
    /// Delivers requests of `threads` (one notification each) and returns the list entries, newest first.
    func deliver(_ h: EngineHarness, threads: [(String, String)], category: String = "") async throws -> [(appIdentifier: String, notification: DeliveredNotification)] {
        for (identifier, thread) in threads {
            var content = NotificationContent(title: .literal("Title \(identifier)"), body: .literal("Body \(identifier)"))
            content.categoryIdentifier = category
            content.threadIdentifier = thread
            content.summaryArgument = "Ann"
            try await h.center.add(try NotificationRequest(identifier: identifier, content: content, trigger: nil))
            _ = await h.presenter.nextPresentation()
        }
        return try await h.center.deliveredNotifications().map { ("com.example.app", $0) }
    }

    func change(_ h: EngineHarness, _ edit: (inout NotificationSettings) -> Void) async throws {
        var settings = try await h.center.notificationSettings()
        edit(&settings)
        try await h.center.updateSettings(settings)
    }

    @Test func stacksFollowTheThreadsAndTheNewestSaysHowManyOthersThereAre() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.setNotificationCategories([
            try NotificationCategory(identifier: "chat", actions: [], categorySummaryFormat: .literal("%u more messages from %@"))
        ])
        let entries = try await deliver(h, threads: [("a1", "ann"), ("b1", "bob"), ("a2", "ann"), ("a3", "ann")], category: "chat")
        let listed = try await h.engine.listed(entries)
        let byID = Dictionary(uniqueKeysWithValues: listed.map { ($0.presentation.notificationIdentifier, $0) })
        #expect(byID["a3"]?.presentation.group.threadIdentifier == "ann" && byID["a3"]?.presentation.group.count == 3)
        #expect(byID["a3"]?.othersSummary == "2 more messages from Ann")
        #expect(byID["b1"]?.presentation.group.count == 1 && byID["b1"]?.othersSummary == nil, "alone in its stack: nothing more to say")
    }

    @Test func groupingByAppMakesOneStackAndOffMakesNone() async throws {
        let h = try await EngineHarness.make().started()
        let entries = try await deliver(h, threads: [("a1", "ann"), ("b1", "bob"), ("x", "")])
        try await change(h) { $0.groupingSetting = .byApp }
        var listed = try await h.engine.listed(entries)
        #expect(listed.allSatisfy { $0.presentation.group.threadIdentifier == "" && $0.presentation.group.count == 3 && !$0.presentation.group.standsAlone })
        #expect(listed.first?.othersSummary == "2 more notifications from Ann")

        try await change(h) { $0.groupingSetting = .off }
        listed = try await h.engine.listed(entries)
        #expect(listed.allSatisfy { $0.presentation.group.standsAlone && $0.presentation.group.count == 1 && $0.othersSummary == nil })
        #expect(Set(listed.map(\.presentation.group.threadIdentifier)) == ["ann", "bob", ""], "the content's thread is still told")
    }

    /// Turning previews off hides the text of what arrived before, as on iOS; "when unlocked" hides it
    /// only while the session is locked.
    @Test func previewsFollowTheSettingAndTheLockAsTheyAreNow() async throws {
        let h = try await EngineHarness.make().started()
        let entries = try await deliver(h, threads: [("n", "")])
        #expect(try await h.engine.listed(entries).first?.presentation.body == "Body n")

        try await change(h) { $0.showPreviewsSetting = .never }
        let hidden = try #require(try await h.engine.listed(entries).first?.presentation)
        #expect(hidden.previewsHidden && hidden.title.isEmpty && hidden.body == "Notification")

        try await change(h) { $0.showPreviewsSetting = .whenAuthenticated }
        #expect(try await h.engine.listed(entries).first?.presentation.previewsHidden == false)
        await h.engine.updateEnvironment(UserEnvironment(isLocked: true))
        #expect(try await h.engine.listed(entries).first?.presentation.previewsHidden == true)
    }

    /// Buttons come from the categories as registered now, titles resolved.
    @Test func buttonsAreTheCategorysAsRegisteredNow() async throws {
        let h = try await EngineHarness.make().started()
        let entries = try await deliver(h, threads: [("n", "")], category: "invite")
        #expect(try await h.engine.listed(entries).first?.presentation.actions.isEmpty == true)
        try await h.center.setNotificationCategories([
            try NotificationCategory(
                identifier: "invite",
                actions: [try NotificationAction(identifier: "accept", title: "Accept", options: [.authenticationRequired])],
                intentIdentifiers: [])
        ])
        let action = try #require(try await h.engine.listed(entries).first?.presentation.actions.first)
        #expect(action.identifier == "accept" && action.title == "Accept" && action.requiresUnlock)
    }

    /// The scheduler's next dates, listed ahead: a repeating trigger's on its own schedule, a one-off once.
    @Test func upcomingFireDatesFollowTheTriggersSchedule() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("every-minute", trigger: h.after(60, repeats: true)))
        try await h.center.add(h.request("once", trigger: h.after(30)))
        var daily = DateComponents()
        daily.hour = 8
        try await h.center.add(h.request("daily", trigger: .calendar(try CalendarTrigger(dateMatching: daily, repeats: true))))
        let pending = try await h.store.pendingPage(appIdentifier: "com.example.app", after: nil, limit: 10)
        let byID = Dictionary(uniqueKeysWithValues: pending.map { ($0.request.identifier, $0) })
        let start = EngineHarness.start
        #expect(await h.engine.upcomingFireDates(of: try #require(byID["every-minute"]), count: 3) == [60, 120, 180].map { start.addingTimeInterval($0) })
        #expect(await h.engine.upcomingFireDates(of: try #require(byID["once"]), count: 3) == [start.addingTimeInterval(30)])
        // 08:00 in Seoul is 23:00 UTC the day before; the harness starts at 2025-12-01T00:00Z (09:00 in Seoul).
        let firstEight = Date(timeIntervalSince1970: 1_764_630_000)  // 2025-12-01T23:00:00Z
        #expect(await h.engine.upcomingFireDates(of: try #require(byID["daily"]), count: 3) == [0, 1, 2].map { firstEight.addingTimeInterval(Double($0) * 86_400) })
    }
}
