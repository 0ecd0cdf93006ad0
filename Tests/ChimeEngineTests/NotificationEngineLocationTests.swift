import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

/// Location triggers fired by fixes: the first fix decides where the device is without a crossing; an
/// entry or exit fires once, as its region's flags ask; a non-repeating trigger then leaves, a repeating one
/// waits for the next crossing; fixes jittering at the edge fire nothing.
// The limit only turns a missing presentation into a failure instead of a hang: it is generous, because
// a full test run keeps the shared pool busy for tens of seconds and a test can wait that long to run.
@Suite("Engine: location triggers", .timeLimit(.minutes(5)))
struct NotificationEngineLocationTests {
    static let center = (latitude: 37.5665, longitude: 126.978)

    /// A fix `metres` north of the region's centre (a degree of latitude is 110,990 m there, near enough
    /// for the margins used here), good to `accuracy` metres.
    func fix(_ metres: Double, accuracy: Double = 10, at date: Date) -> LocationFix {
        LocationFix(latitude: Self.center.latitude + metres / 110_990, longitude: Self.center.longitude, accuracy: accuracy, timestamp: date)
    }

    func region(entry: Bool, exit: Bool, repeats: Bool) throws -> NotificationTrigger {
        .location(
            LocationTrigger(
                region: try CircularRegion(
                    latitude: Self.center.latitude, longitude: Self.center.longitude, radius: 150, identifier: "office", notifyOnEntry: entry,
                    notifyOnExit: exit),
                repeats: repeats))
    }

    @Test func crossingsFireAsTheRegionsFlagsAsk() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("arrive", title: "At the office", trigger: region(entry: true, exit: false, repeats: false)))
        try await h.center.add(h.request("leave", title: "Left the office", trigger: region(entry: false, exit: true, repeats: true)))
        func move(_ metres: Double, accuracy: Double = 10) async throws {
            try await h.engine.locationChanged(to: fix(metres, accuracy: accuracy, at: h.clock.now))
            await h.run(for: 1)
        }
        // Fires are shown in the order they are made: each awaited fire is checked against everything
        // shown so far, so a fire that should not have happened before it would be in the list.
        func next() async -> String { await h.presenter.nextPresentation().notificationIdentifier }
        func shown() -> [String] { h.presenter.presentations.map(\.notificationIdentifier) }

        try await move(0)  // the first fix, inside: decides without an entry
        try await move(500)
        #expect(await next() == "leave")
        #expect(shown() == ["leave"], "leaving fires the exit trigger only, and the first fix fired nothing")
        for jitter in [140.0, 160, 125, 170] {  // within the cushion (the accuracy, 30 m) of the edge: still outside
            try await move(jitter, accuracy: 30)
        }
        try await move(20)
        #expect(await next() == "arrive")
        #expect(shown() == ["leave", "arrive"], "no flapping at the edge; entering fires the entry trigger")
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["leave"], "the one-shot entry left; the repeating exit stays")
        try await move(400)
        #expect(await next() == "leave")
        try await move(0)
        try await move(400)
        #expect(await next() == "leave")
        #expect(shown() == ["leave", "arrive", "leave", "leave"], "the repeating exit fires on every exit, the spent entry never again")
        let delivered = try await h.center.deliveredNotifications()
        #expect(Set(delivered.map(\.identifier)) == ["leave", "arrive"])
        let left = try await h.store.pendingRequests(appIdentifier: "com.example.app")
        #expect(left.map(\.request.identifier) == ["leave"] && left.first?.nextFireDate == nil, "waiting, undated")
    }

    /// A request replaced by one with another region starts where nobody knows: the old region's state
    /// does not make the first fix a crossing of the new one.
    @Test func aRequestReplacedWithAnotherRegionStartsUnknown() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("office", trigger: region(entry: true, exit: true, repeats: true)))
        try await h.engine.locationChanged(to: fix(0, at: h.clock.now))  // inside the first region
        let far = try CircularRegion(
            latitude: Self.center.latitude + 5000 / 110_990, longitude: Self.center.longitude, radius: 150, identifier: "branch")
        h.clock.advance(by: 1)
        try await h.center.add(h.request("office", trigger: .location(LocationTrigger(region: far, repeats: true))))
        try await h.engine.locationChanged(to: fix(0, at: h.clock.now))  // outside the new one: its first fix
        await h.run(for: 1)
        try await h.engine.locationChanged(to: fix(5000, at: h.clock.now))  // into the new one
        await h.run(for: 1)
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "office")
        #expect(h.presenter.presentations.count == 1, "no exit from the region the request no longer has")
    }

    /// A fix coarser than four radii decides nothing, and a coarse one near the edge does not enter; an
    /// invalid one changes nothing; a request replaced by a timed one is not fired by crossings of the
    /// region it no longer has. Each "nothing" is checked against the next fire that does come: it would
    /// have been shown before it, at an earlier instant.
    @Test func coarseInvalidAndReplacedRequestsDoNotFire() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("arrive", trigger: region(entry: true, exit: false, repeats: true)))
        try await h.engine.locationChanged(to: fix(800, at: h.clock.now))
        try await h.engine.locationChanged(to: fix(0, accuracy: 601, at: h.clock.now))  // coarser than 4 × 150 m
        try await h.engine.locationChanged(to: fix(100, accuracy: 500, at: h.clock.now))  // inside, but not by the cushion (75 m)
        try await h.engine.locationChanged(to: LocationFix(latitude: Self.center.latitude, longitude: Self.center.longitude, accuracy: -1, timestamp: h.clock.now))
        await h.run(for: 1)
        let entered = h.clock.now
        try await h.engine.locationChanged(to: fix(0, accuracy: 0, at: h.clock.now))  // a fixed position says 0: valid
        await h.run(for: 1)
        let arrived = await h.presenter.nextPresentation()
        #expect(arrived.notificationIdentifier == "arrive" && arrived.date == entered, "the good fix entered, not one before it")
        #expect(h.presenter.presentations.count == 1)

        let replacedAt = h.clock.now
        try await h.center.add(h.request("arrive", trigger: h.after(3600)))
        for metres in [800.0, 0, 800] {
            try await h.engine.locationChanged(to: fix(metres, at: h.clock.now))
            await h.run(for: 1)
        }
        await h.run(until: replacedAt.addingTimeInterval(3600))
        let timed = await h.presenter.nextPresentation()
        #expect(timed.notificationIdentifier == "arrive" && timed.date == replacedAt.addingTimeInterval(3600), "the replacement fired at its own time")
        #expect(h.presenter.presentations.count == 2, "the crossings fired nothing")
    }

    /// The first fix decides by its centre alone when it is no coarser than the region: 140 m from the
    /// centre of a 150 m region, good to 100 m, is inside, so leaving afterwards is an exit; a first fix
    /// coarser than four radii decides nothing, and the next usable one is then the first.
    @Test func theFirstFixDecidesByItsCentre() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("left", trigger: region(entry: true, exit: true, repeats: true)))
        try await h.engine.locationChanged(to: fix(0, accuracy: 5000, at: h.clock.now))  // decides nothing
        try await h.engine.locationChanged(to: fix(140, accuracy: 100, at: h.clock.now))  // the first: inside, no entry
        await h.run(for: 1)
        let leaving = h.clock.now
        try await h.engine.locationChanged(to: fix(1000, accuracy: 20, at: h.clock.now))
        await h.run(for: 1)
        let shown = await h.presenter.nextPresentation()
        #expect(shown.notificationIdentifier == "left" && shown.date == leaving, "an exit, at the fix that left")
        #expect(h.presenter.presentations.count == 1, "no entry before it")
    }

    /// With iOS's 20-region limit set (here 3), an add that would watch more regions fails whole and
    /// changes nothing; a replaced request is not counted twice, and other apps have their own limit.
    @Test func theRegionLimitRefusesMoreAndCountsReplacementsOnce() async throws {
        var configuration = EngineConfiguration()
        configuration.locationTriggerLimitPerApp = 3
        let h = try await EngineHarness.make(configuration: configuration).started()
        let watch = try region(entry: true, exit: false, repeats: false)
        try await h.center.add(contentsOf: [h.request("a", trigger: watch), h.request("b", trigger: watch), h.request("timed", trigger: h.after(60))])
        try await h.center.add(h.request("c", trigger: watch))
        let refused = await #expect(throws: ChimeError.self) { try await h.center.add(h.request("d", trigger: watch)) }
        #expect(refused?.code == .valueOutOfRange && refused?.field == "trigger.region", "\(String(describing: refused))")
        await #expect(throws: ChimeError.self) { try await h.center.add(contentsOf: [h.request("e", trigger: h.after(30)), h.request("f", trigger: watch)]) }
        #expect(try await Set(h.center.pendingNotificationRequests().map(\.identifier)) == ["a", "b", "c", "timed"], "the refused adds changed nothing")

        try await h.center.add(h.request("c", trigger: watch))  // replaces c: still 3
        await #expect(throws: ChimeError.self) { try await h.center.add(h.request("timed", trigger: watch)) }  // a 4th region
        try await h.center.add(h.request("a", trigger: h.after(90)))  // a region given up for a time
        try await h.center.add(h.request("timed", trigger: watch))  // the third again
        #expect(try await Set(h.center.pendingNotificationRequests().map(\.identifier)) == ["a", "b", "c", "timed"])

        let other = h.engine.center(for: "com.example.other")
        try await other.add(contentsOf: (1...3).map { try h.request("o\($0)", trigger: watch) })
        #expect(try await other.pendingNotificationRequests().count == 3, "another app has its own three")
    }
}
