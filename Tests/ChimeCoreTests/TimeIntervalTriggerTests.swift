import ChimeCore
import Foundation
import Testing

@Suite("Time-interval trigger")
struct TimeIntervalTriggerTests {
    let anchor = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    @Test func firesOnceAfterTheIntervalFromItsAnchor() throws {
        let snooze = try TimeIntervalTrigger(timeInterval: 540, repeats: false)
        #expect(snooze.nextTriggerDate(after: anchor, anchor: anchor) == anchor.addingTimeInterval(540))
        #expect(snooze.nextTriggerDate(after: anchor.addingTimeInterval(540), anchor: anchor) == nil)
        #expect(snooze.nextFireDates(after: anchor, anchor: anchor, count: 3) == [anchor.addingTimeInterval(540)])
    }

    @Test func repeatsAtWholeMultiplesOfTheIntervalFromTheAnchor() throws {
        let hourly = try TimeIntervalTrigger(timeInterval: 3600, repeats: true)
        // Asked long after the anchor (the process was down): the next multiple, not "now + interval".
        let late = anchor.addingTimeInterval(10 * 3600 + 17)
        #expect(hourly.nextTriggerDate(after: late, anchor: anchor) == anchor.addingTimeInterval(11 * 3600))
        #expect(hourly.nextTriggerDate(after: anchor.addingTimeInterval(3600), anchor: anchor) == anchor.addingTimeInterval(7200))
        #expect(hourly.nextFireDates(after: anchor, anchor: anchor, count: 3) == [1, 2, 3].map { anchor.addingTimeInterval($0 * 3600) })
    }

    @Test func repeatingAtExactlySixtySecondsIsAllowed() throws {
        #expect(try TimeIntervalTrigger(timeInterval: 60, repeats: true).timeInterval == 60)
    }

    @Test(arguments: [
        (0.0, false), (-5, false), (.nan, false), (.infinity, false), (59.9, true), (1, true), (1e18, false), (3.2e11, true),
    ])
    func rejectsIntervalsThatCannotFire(interval: Double, repeats: Bool) {
        #expect {
            _ = try TimeIntervalTrigger(timeInterval: interval, repeats: repeats)
        } throws: { ($0 as? ChimeError)?.code == .invalidTimeInterval }
    }

    /// Apple takes any positive interval; one too short to move a Date this far from 2001 (1e-9 s) still
    /// fires, at the first instant after its anchor, instead of never.
    @Test func anIntervalTooShortToMeasureFiresAtOnce() throws {
        let tiny = try TimeIntervalTrigger(timeInterval: 1e-9, repeats: false)
        let next = try #require(tiny.nextTriggerDate(after: anchor, anchor: anchor))
        #expect(next > anchor && next.timeIntervalSince(anchor) < 1e-6)
        #expect(tiny.nextTriggerDate(after: next, anchor: anchor) == nil)
    }

    /// No fire lands after the year 9999: an add whose first fire would is refused, and a repeating trigger
    /// ends with its last fire inside the calendar.
    @Test func nothingFiresAfterTheYear9999() throws {
        let long = try TimeIntervalTrigger(timeInterval: 3e11, repeats: false)  // about 9,500 years
        #expect(throws: ChimeError.self) { try long.validate(anchor: anchor) }
        try long.validate(anchor: Date(timeIntervalSince1970: -3e11))
        let request = try NotificationRequest(identifier: "far", content: NotificationContent(title: "Far"), trigger: .timeInterval(long))
        #expect { try request.validateForScheduling(at: anchor) } throws: { ($0 as? ChimeError)?.code == .invalidTimeInterval }
        let yearly = try TimeIntervalTrigger(timeInterval: 365 * 86_400, repeats: true)
        let late = InstantText.supportedRange.upperBound.addingTimeInterval(-100 * 86_400)
        #expect(yearly.nextTriggerDate(after: late, anchor: anchor) == nil)
    }

    @Test func decodingRevalidates() throws {
        let valid = try TimeIntervalTrigger(timeInterval: 90, repeats: true)
        #expect(try JSONDecoder().decode(TimeIntervalTrigger.self, from: JSONEncoder().encode(valid)) == valid)
        #expect(throws: ChimeError.self) {
            try JSONDecoder().decode(TimeIntervalTrigger.self, from: Data(#"{"timeInterval":30,"repeats":true}"#.utf8))
        }
    }
}
