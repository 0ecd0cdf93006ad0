import ChimeCore
import ChimeEngine
import ChimeTestSupport
import ChimeTesting
import Foundation
import Testing

/// Fires are recorded up to `fireLead` before their instants and shown at them. Until the instant nothing
/// an app can see says the fire happened: the request is still pending, the delivered list does not have
/// it, and removing or replacing the request cancels it. A process stopped (or killed) in the lead leaves
/// the fire to the next one, through the presentation journal, shown once.
@Suite("Engine: fires recorded ahead of their instants")
struct FireLeadTests {
    static let lead: TimeInterval = 0.05

    /// A harness whose engine journals its fires ahead in `folder`.
    static func harness(journalIn folder: EngineHarness.Folder) async throws -> EngineHarness {
        var configuration = EngineConfiguration()
        configuration.fireLead = lead
        configuration.presentationJournal = folder.url.appendingPathComponent("presented")
        return try await EngineHarness.make(configuration: configuration).started()
    }

    /// Waits until the store (not the engine's lists) has the notification recorded as delivered.
    static func recorded(_ identifier: String, in h: EngineHarness) async throws {
        try await eventually("\(identifier) recorded ahead") {
            try await h.store.deliveredNotification(appIdentifier: "com.example.app", identifier: identifier) != nil
        }
    }

    /// The identifiers shown so far, once at least `count` were (waiting 15 s at most, then failing).
    static func shown(_ h: EngineHarness, count: Int) async throws -> [String] {
        try await eventually("\(count) shown") { h.presenter.presentations.count >= count }
        return h.presenter.presentations.map(\.notificationIdentifier)
    }

    @Test func aFireIsRecordedInTheLeadButPendingAndUnlistedUntilItsInstant() async throws {
        let folder = try EngineHarness.Folder()
        let h = try await Self.harness(journalIn: folder)
        let instant = EngineHarness.start.addingTimeInterval(300)
        try await h.center.add(h.request("tea", title: "Tea is ready", trigger: h.after(300)))

        await h.run(until: instant.addingTimeInterval(-Self.lead / 2))
        try await Self.recorded("tea", in: h)
        #expect(h.presenter.presentations.isEmpty, "shown before its instant")
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["tea"])
        #expect(try await h.center.deliveredNotifications().isEmpty)
        #expect(try await h.engine.deliveredTotal(appIdentifier: nil) == 0)
        #expect(try await h.engine.deliveredPage(appIdentifier: nil, after: nil, limit: 10).isEmpty)
        #expect(try await h.engine.pendingPage(appIdentifier: nil, after: nil, limit: 10).map(\.nextFireDate) == [instant])
        #expect(try await h.engine.pendingTotal(appIdentifier: nil) == 1)

        await h.run(until: instant)
        #expect(try await Self.shown(h, count: 1) == ["tea"])
        let shown = h.presenter.presentations[0]
        #expect(shown.date == instant)
        #expect(h.clock.now == instant)
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
        #expect(try await h.center.deliveredNotifications().map(\.date) == [instant])
        #expect(try await h.engine.deliveredTotal(appIdentifier: "com.example.app") == 1)
    }

    @Test func aRepeatingRequestInTheLeadIsListedOnceAtThisFiresDate() async throws {
        let folder = try EngineHarness.Folder()
        let h = try await Self.harness(journalIn: folder)
        let instant = EngineHarness.start.addingTimeInterval(300)
        try await h.center.add(h.request("every 5 min", trigger: h.after(300, repeats: true)))
        try await h.center.add(h.request("other", trigger: h.after(400)))

        await h.run(until: instant.addingTimeInterval(-Self.lead / 2))
        try await Self.recorded("every 5 min", in: h)
        let stored = try await h.store.pendingRequests(appIdentifier: "com.example.app")
        #expect(stored.map(\.request.identifier) == ["other", "every 5 min"], "the store has the next fire at 600 s already")
        let whole = try await h.engine.pendingPage(appIdentifier: "com.example.app", after: nil, limit: 10)
        #expect(whole.map(\.request.identifier) == ["every 5 min", "other"])
        #expect(whole.first?.nextFireDate == instant)
        #expect(try await h.engine.pendingTotal(appIdentifier: "com.example.app") == 2)
        // Page by page: each request once, the repeating one at this fire's date only.
        var position: PendingListPosition?
        var paged: [String] = []
        while true {
            let page = try await h.engine.pendingPage(appIdentifier: nil, after: position, limit: 1)
            guard let last = page.last else { break }
            paged += page.map(\.request.identifier)
            position = PendingListPosition(last)
        }
        #expect(paged == ["every 5 min", "other"])

        await h.run(until: instant)
        #expect(try await Self.shown(h, count: 1) == ["every 5 min"])
        let after = try await h.engine.pendingPage(appIdentifier: nil, after: nil, limit: 10)
        #expect(after.map(\.request.identifier) == ["other", "every 5 min"])
        #expect(after.last?.nextFireDate == instant.addingTimeInterval(300))
    }

    @Test func removingTheRequestInTheLeadCancelsItsFire() async throws {
        let folder = try EngineHarness.Folder()
        let h = try await Self.harness(journalIn: folder)
        try await h.center.add(h.request("tea", trigger: h.after(300)))
        try await h.center.add(h.request("later", trigger: h.after(301)))

        await h.run(until: EngineHarness.start.addingTimeInterval(300 - Self.lead / 2))
        try await Self.recorded("tea", in: h)
        try await h.center.removePendingNotificationRequests(withIdentifiers: ["tea"])
        #expect(try await h.store.deliveredNotification(appIdentifier: "com.example.app", identifier: "tea") == nil)

        await h.run(until: EngineHarness.start.addingTimeInterval(302))
        // Shown in order of their instants: had "tea" been shown, it would come first.
        #expect(try await Self.shown(h, count: 1) == ["later"])
        #expect(try await h.center.deliveredNotifications().map(\.identifier) == ["later"])
    }

    @Test func replacingTheRequestInTheLeadCancelsTheOldFire() async throws {
        let folder = try EngineHarness.Folder()
        let h = try await Self.harness(journalIn: folder)
        try await h.center.add(h.request("tea", title: "Old", trigger: h.after(300)))

        await h.run(until: EngineHarness.start.addingTimeInterval(300 - Self.lead / 2))
        try await Self.recorded("tea", in: h)
        try await h.center.add(h.request("tea", title: "New", trigger: h.after(60)))
        #expect(try await h.center.pendingNotificationRequests().map(\.content.title) == [.literal("New")])

        await h.run(until: h.clock.now.addingTimeInterval(61))
        _ = try await Self.shown(h, count: 1)
        #expect(h.presenter.presentations.map(\.title) == ["New"])
    }

    @Test func aFireRecordedAheadIsShownOnceByTheNextEngineWhenTheFirstStopsInTheLead() async throws {
        let folder = try EngineHarness.Folder()
        let h = try await Self.harness(journalIn: folder)
        // Identifiers the journal must carry byte for byte.
        let odd = "b \n 2 ü 🎉 A 9 0\n"
        try await h.center.add(h.request("a", trigger: h.after(10)))
        try await h.center.add(h.request(odd, trigger: h.after(20)))

        await h.run(until: EngineHarness.start.addingTimeInterval(10))
        #expect(try await Self.shown(h, count: 1) == ["a"])
        await h.run(until: EngineHarness.start.addingTimeInterval(20 - Self.lead / 2))
        try await Self.recorded(odd, in: h)

        let next = try await h.restarted(at: EngineHarness.start.addingTimeInterval(30))
        #expect(h.presenter.presentations.map(\.notificationIdentifier) == ["a"])
        await next.engine.start()
        #expect(try await Self.shown(next, count: 1) == [odd])
        try await next.center.add(next.request("after restart"))
        // Anything else shown after the restart (the first one again) would come before this.
        #expect(try await Self.shown(next, count: 2) == [odd, "after restart"])
        #expect(Set(try await next.center.deliveredNotifications().map(\.identifier)) == ["a", odd, "after restart"])

        // Shown once: a third engine shows nothing again.
        let third = try await next.restarted(at: EngineHarness.start.addingTimeInterval(40))
        await third.engine.start()
        try await third.center.add(third.request("third"))
        #expect(try await Self.shown(third, count: 1) == ["third"])
        await third.engine.stop()
    }

    @Test func withoutALeadAFireIsRecordedAtItsInstant() async throws {
        var configuration = EngineConfiguration()
        configuration.fireLead = 0
        let h = try await EngineHarness.make(configuration: configuration).started()
        try await h.center.add(h.request("tea", trigger: h.after(300)))
        await h.run(until: EngineHarness.start.addingTimeInterval(300 - 0.001))
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await h.store.deliveredNotification(appIdentifier: "com.example.app", identifier: "tea") == nil)
        await h.run(until: EngineHarness.start.addingTimeInterval(300))
        #expect(try await Self.shown(h, count: 1) == ["tea"])
    }
}
