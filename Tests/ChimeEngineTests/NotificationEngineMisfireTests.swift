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
}
