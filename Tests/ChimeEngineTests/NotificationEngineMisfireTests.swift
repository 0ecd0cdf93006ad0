import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

/// Fire dates that pass while nothing runs: the engine is stopped, time moves on, and a new engine over
/// the same store starts later.
@Suite("Engine: missed fires")
struct NotificationEngineMisfireTests {
    let hour: TimeInterval = 3600

    /// Adds `request` to a running engine, stops it, and starts a new one on the same SQLite file
    /// `downtime` seconds later.
    func restart(after downtime: TimeInterval, with request: (EngineHarness) throws -> NotificationRequest) async throws -> EngineHarness {
        let before = try await EngineHarness.make().started()
        try await before.center.add(request(before))
        return try await before.restarted(at: EngineHarness.start.addingTimeInterval(downtime)).started()
    }

    @Test func aMissedFireIsDeliveredOnceLateByDefault() async throws {
        let h = try await restart(after: 2 * hour) { try $0.request("pill", trigger: $0.after(600)) }
        let shown = await h.presenter.nextPresentation()
        #expect(shown.isLate)
        #expect(shown.scheduledDate == EngineHarness.start.addingTimeInterval(600))
        let missed = try await h.center.missedNotifications()
        #expect(missed == [MissedFire(
            requestIdentifier: "pill", firstMissedDate: EngineHarness.start.addingTimeInterval(600),
            lastMissedDate: EngineHarness.start.addingTimeInterval(600), count: 1, outcome: .deliveredLate,
            detectedDate: EngineHarness.start.addingTimeInterval(2 * hour))])
        try await h.center.clearMissedNotifications()
        #expect(try await h.center.missedNotifications().isEmpty)
    }

    @Test func missedRepeatsAreCoalescedIntoOneLateDeliveryAndTheScheduleGoesOn() async throws {
        // Every 15 minutes from the start; down for 2 h 5 min: fires at 15, 30, ..., 120 minutes missed.
        let h = try await restart(after: 2 * hour + 300) { try $0.request("water", trigger: $0.after(900, repeats: true)) }
        let shown = await h.presenter.nextPresentation()
        #expect(shown.isLate)
        #expect(shown.scheduledDate == EngineHarness.start.addingTimeInterval(2 * hour))
        let missed = try #require(try await h.center.missedNotifications().first)
        #expect(missed.count == 8)
        #expect(missed.firstMissedDate == EngineHarness.start.addingTimeInterval(900))
        // The next fire keeps the original rhythm: 2 h 15 min after the anchor.
        await h.run(until: EngineHarness.start.addingTimeInterval(2 * hour + 900))
        let next = await h.presenter.nextPresentation()
        #expect(!next.isLate)
        #expect(next.date == EngineHarness.start.addingTimeInterval(2 * hour + 900))
    }

    @Test func theSkipPolicyDropsMissedFiresButRemembersThem() async throws {
        let h = try await restart(after: 2 * hour) {
            try $0.request("standup", trigger: $0.after(3600, repeats: true), misfirePolicy: .skip)
        }
        // Nothing is shown for the missed fires; the next one (3 h after the anchor) is.
        await h.run(until: EngineHarness.start.addingTimeInterval(3 * hour))
        let shown = await h.presenter.nextPresentation()
        #expect(shown.date == EngineHarness.start.addingTimeInterval(3 * hour))
        #expect(!shown.isLate)
        #expect(h.presenter.presentations.count == 1)
        let missed = try await h.center.missedNotifications()
        #expect(missed.map(\.outcome) == [.skipped])
        #expect(missed.first?.count == 2)
    }

    @Test func aShortDelayIsOrdinaryLatencyNotAMiss() async throws {
        let h = try await restart(after: 630) { try $0.request("pill", trigger: $0.after(600)) }
        let shown = await h.presenter.nextPresentation()
        #expect(!shown.isLate)
        #expect(try await h.center.missedNotifications().isEmpty)
    }

    // MARK: The wall clock set while running

    /// Every minute at :00, every 60 s from the add, and daily at 00:00:30 UTC; the first two have fired
    /// once and the daily one too by 90 s past the start.
    func clockStepHarness() async throws -> EngineHarness {
        let h = try await EngineHarness.make().started()
        let utc = TimeZone(identifier: "UTC")!
        try await h.center.add(h.request("minutely", trigger: .calendar(try CalendarTrigger(dateMatching: DateComponents(second: 0), repeats: true))))
        try await h.center.add(h.request("interval", trigger: h.after(60, repeats: true)))
        try await h.center.add(h.request(
            "daily", trigger: .calendar(try CalendarTrigger(dateMatching: DateComponents(timeZone: utc, hour: 0, minute: 0, second: 30), repeats: true))))
        await h.run(until: EngineHarness.start.addingTimeInterval(90))
        #expect(Self.count(h, "minutely") == 1 && Self.count(h, "interval") == 1 && Self.count(h, "daily") == 1)
        return h
    }

    static func count(_ h: EngineHarness, _ identifier: String) -> Int {
        h.presenter.presentations.filter { $0.notificationIdentifier == identifier }.count
    }

    /// Set back an hour, an every-minute trigger and a 60 s interval go on firing within the minute (they
    /// used to wait out the hour); the daily one that fired at 00:00:30 does not fire again when the clock
    /// shows 00:00:30 a second time.
    @Test func settingTheClockBackKeepsShortRepeatsFiringAndFiresNothingTwice() async throws {
        let h = try await clockStepHarness()
        h.clock.step(by: -hour)
        await h.run(for: 70)
        #expect(Self.count(h, "minutely") == 2, "one more fire in the 70 s after the step")
        #expect(Self.count(h, "interval") == 2)
        await h.run(for: hour)
        #expect(Self.count(h, "daily") == 1, "the daily fire is not repeated")
        #expect(Self.count(h, "minutely") == 62)
        #expect(h.presenter.presentations.allSatisfy { !$0.isLate })
        #expect(try await h.center.missedNotifications().isEmpty)
    }

    /// Set forward an hour, the fires the clock jumped over were missed: each repeating request is
    /// delivered once, late, with the count it missed, and goes on from the new time.
    @Test func settingTheClockForwardTreatsWhatItSkippedAsMissed() async throws {
        let h = try await clockStepHarness()
        h.clock.step(by: hour)
        await h.run(for: 5)
        let late = h.presenter.presentations.filter(\.isLate)
        #expect(Set(late.map(\.notificationIdentifier)) == ["minutely", "interval"])
        let missed = try await h.center.missedNotifications()
        #expect(missed.first { $0.requestIdentifier == "minutely" }?.count == 60)
        await h.run(for: 60)
        #expect(Self.count(h, "minutely") == 3 && Self.count(h, "interval") == 3)
        #expect(Self.count(h, "daily") == 1)
    }
}
