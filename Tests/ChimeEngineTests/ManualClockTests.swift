import ChimeEngine
import ChimeTesting
import Foundation
import Testing

@Suite("Manual clock")
struct ManualClockTests {
    let start = Date(timeIntervalSince1970: 1_764_547_200)

    @Test func aSleeperWakesOnlyWhenTimeReachesItsDeadline() async throws {
        let clock = ManualClock(now: start)
        let woke = Task {
            try await clock.sleep(until: start.addingTimeInterval(60))
            return clock.now
        }
        #expect(await clock.nextSleep() == start.addingTimeInterval(60))
        clock.advance(by: 59)
        #expect(clock.pendingDeadlines == [start.addingTimeInterval(60)])  // still asleep
        clock.advance(by: 1)
        #expect(try await woke.value == start.addingTimeInterval(60))
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func aDeadlineInThePastReturnsAtOnceWithoutAnnouncing() async throws {
        let clock = ManualClock(now: start)
        try await clock.sleep(until: start)
        try await clock.sleep(until: start.addingTimeInterval(-5))
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func oneAdvanceWakesEverySleeperThatIsDue() async throws {
        let clock = ManualClock(now: start)
        let early = Task { try await clock.sleep(until: start.addingTimeInterval(10)) }
        let late = Task { try await clock.sleep(until: start.addingTimeInterval(20)) }
        let announced = [await clock.nextSleep(), await clock.nextSleep()].sorted()
        #expect(announced == [start.addingTimeInterval(10), start.addingTimeInterval(20)])
        clock.advance(to: start.addingTimeInterval(30))
        try await early.value
        try await late.value
        #expect(clock.now == start.addingTimeInterval(30))
    }

    @Test func cancellingASleeperThrowsCancellation() async {
        let clock = ManualClock(now: start)
        let sleeper = Task { try await clock.sleep(until: start.addingTimeInterval(3600)) }
        _ = await clock.nextSleep()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingDeadlines.isEmpty)
    }
}

@Suite("System clock")
struct SystemClockTests {
    @Test func sleepsUntilADateThatHasPassed() async throws {
        let clock = SystemClock(maximumChunk: 0.01)
        let deadline = clock.now.addingTimeInterval(0.05)
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
    }
}
