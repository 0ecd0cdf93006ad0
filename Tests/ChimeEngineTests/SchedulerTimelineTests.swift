import ChimeEngine
import ChimeTesting
import Foundation
import Testing

@Suite("Scheduler timeline")
struct SchedulerTimelineTests {
    let now = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    func fire(_ seconds: TimeInterval, _ id: String, app: String = "app") -> ScheduledFire {
        ScheduledFire(date: now.addingTimeInterval(seconds), key: RequestKey(appIdentifier: app, requestIdentifier: id))
    }

    @Test func startsByLoadingOneWindowFromTheStore() {
        let timeline = TimelineBox(window: 600, pageSize: 1000)
        #expect(timeline.nextStep(now: now) == .load(after: nil, through: now.addingTimeInterval(600), limit: 1000))
    }

    @Test func sleepsUntilTheFirstFireThenFiresItOnce() {
        let timeline = TimelineBox(window: 600, pageSize: 1000)
        _ = timeline.nextStep(now: now)
        timeline.didLoad([fire(60, "a"), fire(120, "b")], after: nil, through: now.addingTimeInterval(600))
        #expect(timeline.nextStep(now: now) == .sleep(until: now.addingTimeInterval(60)))
        #expect(timeline.nextStep(now: now.addingTimeInterval(60)) == .fire([fire(60, "a")]))
        #expect(timeline.nextStep(now: now.addingTimeInterval(60)) == .sleep(until: now.addingTimeInterval(120)))
        // Woken late: everything overdue fires together, earliest first, equal dates by key.
        timeline.didAdd(fire(120, "a"))
        #expect(timeline.nextStep(now: now.addingTimeInterval(500)) == .fire([fire(120, "a"), fire(120, "b")]))
        #expect(timeline.count == 0)
    }

    @Test func aRemovedRequestNeverFiresAndOneAddedBackFiresOnce() {
        let timeline = TimelineBox()
        _ = timeline.nextStep(now: now)
        timeline.didLoad([fire(60, "a")], after: nil, through: now.addingTimeInterval(600))
        timeline.didRemove(fire(60, "a").key)
        #expect(timeline.nextStep(now: now.addingTimeInterval(60)) != .fire([fire(60, "a")]))
        timeline.didAdd(fire(60, "a"))
        timeline.didRemove(fire(60, "a").key)
        timeline.didAdd(fire(60, "a"))
        #expect(timeline.nextStep(now: now.addingTimeInterval(60)) == .fire([fire(60, "a")]))
    }

    @Test func replacingARequestMovesItsFire() {
        let timeline = TimelineBox()
        _ = timeline.nextStep(now: now)
        timeline.didLoad([fire(60, "a")], after: nil, through: now.addingTimeInterval(600))
        timeline.didAdd(fire(300, "a"))  // same identifier: replaces
        #expect(timeline.nextStep(now: now.addingTimeInterval(60)) == .sleep(until: now.addingTimeInterval(300)))
        #expect(timeline.count == 1)
    }

    @Test func anEarlierAddWakesTheDriverAndALaterOneBeyondTheWindowStaysInTheStore() {
        let timeline = TimelineBox(window: 600, pageSize: 1000)
        _ = timeline.nextStep(now: now)
        timeline.didLoad([fire(300, "a")], after: nil, through: now.addingTimeInterval(600))
        #expect(timeline.didAdd(fire(10, "soon")))
        #expect(!timeline.didAdd(fire(400, "later")))
        #expect(!timeline.didAdd(fire(86_400, "tomorrow")))
        #expect(timeline.count == 3)  // "tomorrow" is left to the store
    }

    @Test func reloadsWhenHalfTheWindowHasPassed() {
        let timeline = TimelineBox(window: 600, pageSize: 1000)
        _ = timeline.nextStep(now: now)
        timeline.didLoad([], after: nil, through: now.addingTimeInterval(600))
        #expect(timeline.nextStep(now: now) == .sleep(until: now.addingTimeInterval(300)))
        #expect(timeline.nextStep(now: now.addingTimeInterval(300)) == .load(
            after: .datesThrough(now.addingTimeInterval(600)), through: now.addingTimeInterval(900), limit: 1000))
    }

    @Test func aFullPageIsContinuedAfterItsLastFire() {
        let timeline = TimelineBox(window: 600, pageSize: 2)
        _ = timeline.nextStep(now: now)
        timeline.didLoad([fire(10, "a"), fire(10, "b")], after: nil, through: now.addingTimeInterval(600))
        #expect(timeline.coverage == .firesThrough(fire(10, "b")))
        // A full page in memory: no load until it drains.
        #expect(timeline.nextStep(now: now) == .sleep(until: now.addingTimeInterval(10)))
        #expect(timeline.nextStep(now: now.addingTimeInterval(10)) == .fire([fire(10, "a"), fire(10, "b")]))
        #expect(timeline.nextStep(now: now.addingTimeInterval(10)) == .load(
            after: .firesThrough(fire(10, "b")), through: now.addingTimeInterval(610), limit: 2))
    }

    @Test func resetReloadsEverything() {
        let timeline = TimelineBox()
        _ = timeline.nextStep(now: now)
        timeline.didLoad([fire(60, "a")], after: nil, through: now.addingTimeInterval(600))
        timeline.reset()
        #expect(timeline.count == 0)
        #expect(timeline.nextStep(now: now) == .load(after: nil, through: now.addingTimeInterval(600), limit: 1000))
    }

    /// Drives the timeline against a simulated store of many fires spread over a day, with adds and
    /// removals while it runs: every fire that is still pending when its time comes fires exactly once, in
    /// order, never early, and memory never holds more than a page plus what was added live.
    @Test func firesEveryStoredFireOnceInOrderWhileHoldingOnlyAPage() {
        var generator = SeededGenerator(seed: 0x71E1)
        var store: [RequestKey: Date] = [:]
        for index in 0..<20_000 {
            store[RequestKey(appIdentifier: "app\(index % 7)", requestIdentifier: "r\(index)")] =
                now.addingTimeInterval(Double(Int.random(in: 0..<86_400, using: &generator)))
        }
        func page(after: SchedulerTimeline.Coverage?, through: Date, limit: Int) -> [ScheduledFire] {
            Array(
                store.map { ScheduledFire(date: $0.value, key: $0.key) }
                    .filter { $0.date <= through && after?.covers($0) != true }
                    .sorted()
                    .prefix(limit))
        }

        let timeline = TimelineBox(window: 600, pageSize: 100)
        var clock = now
        var fired: [ScheduledFire] = []
        var largestMemory = 0
        var liveAdds = 0
        while clock < now.addingTimeInterval(90_000) {
            switch timeline.nextStep(now: clock) {
            case .load(let after, let through, let limit):
                timeline.didLoad(page(after: after, through: through, limit: limit), after: after, through: through)
            case .fire(let due):
                for fire in due {
                    #expect(fire.date <= clock)
                    #expect(store[fire.key] == fire.date)
                    store[fire.key] = nil
                }
                fired += due
            case .sleep(let until):
                clock = min(until, now.addingTimeInterval(90_000))
                // Between wake-ups, the app adds and removes requests.
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    let added = ScheduledFire(
                        date: clock.addingTimeInterval(Double(Int.random(in: 1..<1200, using: &generator))),
                        key: RequestKey(appIdentifier: "live", requestIdentifier: "l\(liveAdds)"))
                    liveAdds += 1
                    store[added.key] = added.date
                    timeline.didAdd(added)
                }
                if Int.random(in: 0..<4, using: &generator) == 0, let victim = store.keys.randomElement(using: &generator) {
                    store[victim] = nil
                    timeline.didRemove(victim)
                }
            }
            largestMemory = max(largestMemory, timeline.count)
        }
        let end = now.addingTimeInterval(90_000)
        #expect(store.values.allSatisfy { $0 > end }, "\(store.count) fires never fired")
        #expect(fired == fired.sorted())
        #expect(Set(fired.map(\.key)).count == fired.count)
        #expect(largestMemory <= 100 + liveAdds)
        #expect(largestMemory < 1_000)
    }
}

/// Lets `#expect` call the timeline's mutating methods (the macro cannot capture an `inout` value).
final class TimelineBox {
    var timeline: SchedulerTimeline

    init(window: TimeInterval = 600, pageSize: Int = 1000) {
        timeline = SchedulerTimeline(window: window, pageSize: pageSize)
    }

    var count: Int { timeline.count }
    var coverage: SchedulerTimeline.Coverage? { timeline.coverage }
    func nextStep(now: Date) -> SchedulerTimeline.Step { timeline.nextStep(now: now) }
    func didLoad(_ fires: [ScheduledFire], after: SchedulerTimeline.Coverage?, through: Date) {
        timeline.didLoad(fires, after: after, through: through)
    }
    @discardableResult func didAdd(_ fire: ScheduledFire) -> Bool { timeline.didAdd(fire) }
    func didRemove(_ key: RequestKey) { timeline.didRemove(key) }
    func reset() { timeline.reset() }
}
