import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

/// Location triggers fired by fixes: the first fix decides where the device is without a crossing; an
/// entry or exit fires once, as its region's flags ask; a non-repeating trigger then leaves, a repeating one
/// waits for the next crossing; fixes jittering at the edge fire nothing.
@Suite("Engine: location triggers")
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
        for jitter in [140.0, 160, 120, 170] {  // within the cushion of the edge: still outside
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

    /// A coarse fix cannot place the device inside; an invalid one changes nothing; a request replaced by
    /// a timed one is not fired by crossings of the region it no longer has. Each "nothing" is checked
    /// against the next fire that does come: it would have been shown before it.
    @Test func coarseInvalidAndReplacedRequestsDoNotFire() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("arrive", trigger: region(entry: true, exit: true, repeats: true)))
        try await h.engine.locationChanged(to: fix(800, at: h.clock.now))
        try await h.engine.locationChanged(to: fix(0, accuracy: 2000, at: h.clock.now))
        try await h.engine.locationChanged(to: LocationFix(latitude: Self.center.latitude, longitude: Self.center.longitude, accuracy: -1, timestamp: h.clock.now))
        await h.run(for: 1)
        try await h.engine.locationChanged(to: fix(0, accuracy: 10, at: h.clock.now))
        await h.run(for: 1)
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "arrive")
        #expect(h.presenter.presentations.count == 1, "neither the coarse nor the invalid fix entered; the good one did")

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
}
