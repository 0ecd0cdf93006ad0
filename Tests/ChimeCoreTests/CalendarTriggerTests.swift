import ChimeCore
import Foundation
import Testing

@Suite("Calendar trigger")
struct CalendarTriggerTests {
    let newYork = TimeZone(identifier: "America/New_York")!
    let seoul = TimeZone(identifier: "Asia/Seoul")!

    func date(_ epoch: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(epoch)) }

    func trigger(_ components: DateComponents, repeats: Bool = true) throws -> CalendarTrigger {
        try CalendarTrigger(dateMatching: components, repeats: repeats)
    }

    /// Components Foundation's `nextDate` never returns for (found by fuzzing chimed's API): refused when
    /// the trigger is made, so no request can hang the engine for every app.
    @Test func componentsThatWouldHangFoundationAreRefused() throws {
        var iso = Calendar(identifier: .gregorian)
        iso.firstWeekday = 2
        iso.minimumDaysInFirstWeek = 4
        var weekZero = DateComponents(weekOfMonth: 0, weekOfYear: 26)
        weekZero.calendar = iso
        #expect(throws: ChimeError.self) { try CalendarTrigger(dateMatching: weekZero, repeats: false) }

        var undefinedWeeks = Calendar(identifier: .republicOfChina)
        undefinedWeeks.firstWeekday = 0
        var components = DateComponents(yearForWeekOfYear: 1)
        components.calendar = undefinedWeeks
        do {
            _ = try CalendarTrigger(dateMatching: components, repeats: false)
            Issue.record("a calendar with firstWeekday 0 was accepted")
        } catch {
            #expect(error.field == "calendar")
        }

        // The same week of the year in the ISO week rules is fine.
        var week26 = DateComponents(weekday: 2, weekOfYear: 26)
        week26.calendar = iso
        let trigger = try CalendarTrigger(dateMatching: week26, repeats: true)
        #expect(trigger.nextTriggerDate(after: Date(timeIntervalSince1970: 1_798_761_600), floatingTimeZone: .gmt) != nil)  // 2027-01-01
    }

    @Test func firesDailyAtTheGivenTimeInTheFloatingZone() throws {
        let alarm = try trigger(DateComponents(hour: 8, minute: 30))
        // From 2025-12-01T00:00:00Z: Seoul's next 08:30 is on Dec 2, New York's on Dec 1.
        #expect(alarm.nextTriggerDate(after: date(1_764_547_200), floatingTimeZone: seoul) == date(1_764_631_800))
        #expect(alarm.nextTriggerDate(after: date(1_764_547_200), floatingTimeZone: newYork) == date(1_764_595_800))
    }

    @Test func pinnedComponentsIgnoreTheUsersZone() throws {
        var components = DateComponents(hour: 8, minute: 30)
        components.timeZone = seoul
        let pinned = try trigger(components)
        #expect(pinned.pinnedTimeZone == seoul)
        // 2025-12-02T08:30:00+09:00, whatever zone the user is in now.
        #expect(pinned.nextTriggerDate(after: date(1_764_547_200), floatingTimeZone: newYork) == date(1_764_631_800))
    }

    @Test func timeSkippedBySpringForwardFiresAtTheEndOfTheGap() throws {
        let daily = try trigger(DateComponents(hour: 2, minute: 30))
        let fires = daily.nextFireDates(after: date(1_741_453_200), count: 2, floatingTimeZone: newYork)  // 2025-03-08T12:00-05:00
        #expect(fires == [
            date(1_741_503_600),  // 2025-03-09T03:00:00-04:00: 02:30 does not exist that day
            date(1_741_588_200),  // 2025-03-10T02:30:00-04:00
        ])
    }

    @Test func timeRepeatedByFallBackFiresOnceOnItsFirstOccurrence() throws {
        let daily = try trigger(DateComponents(hour: 1, minute: 30))
        let fires = daily.nextFireDates(after: date(1_762_012_800), count: 3, floatingTimeZone: newYork)  // 2025-11-01T12:00-04:00
        #expect(fires == [
            date(1_762_061_400),  // 2025-11-02T01:30:00-04:00 (EDT, the first of two 01:30s)
            date(1_762_151_400),  // 2025-11-03T01:30:00-05:00
            date(1_762_237_800),  // 2025-11-04T01:30:00-05:00
        ])
        // Asked from inside the repeated hour, after the first 01:30: that day has fired already.
        #expect(daily.nextTriggerDate(after: date(1_762_065_000 - 600), floatingTimeZone: newYork) == date(1_762_151_400))
    }

    @Test func hourlyTriggerFiresInBothPassesOfARepeatedHour() throws {
        let hourly = try trigger(DateComponents(minute: 30))
        let fires = hourly.nextFireDates(after: date(1_762_058_700), count: 3, floatingTimeZone: newYork)  // 2025-11-02T00:45-04:00
        #expect(fires == [
            date(1_762_061_400),  // 01:30 EDT
            date(1_762_065_000),  // 01:30 EST, one real hour later
            date(1_762_068_600),  // 02:30 EST
        ])
    }

    @Test func hourlyTriggerSkipsTheHourThatDoesNotExist() throws {
        let hourly = try trigger(DateComponents(minute: 30))
        let fires = hourly.nextFireDates(after: date(1_741_502_400), count: 2, floatingTimeZone: newYork)  // 2025-03-09T01:40-05:00
        #expect(fires == [date(1_741_505_400), date(1_741_509_000)])  // 03:30 and 04:30 EDT, one real hour apart
    }

    @Test func halfHourGapOnLordHoweFiresAtItsEnd() throws {
        let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!
        let daily = try trigger(DateComponents(hour: 2, minute: 10))
        let fires = daily.nextFireDates(after: date(1_759_590_600), count: 2, floatingTimeZone: lordHowe)  // 2025-10-05T01:40+10:30
        #expect(fires == [
            date(1_759_591_800),  // 2025-10-05T02:30:00+11:00, the clock jumped from 02:00 to 02:30
            date(1_759_677_000),  // 2025-10-06T02:10:00+11:00
        ])
    }

    @Test func theThirtyFirstSkipsShorterMonths() throws {
        let monthly = try trigger(DateComponents(day: 31))
        let fires = monthly.nextFireDates(after: date(1_743_868_800), count: 4, floatingTimeZone: newYork)  // 2025-04-05T12:00-04:00
        #expect(fires == [
            date(1_748_664_000),  // 2025-05-31
            date(1_753_934_400),  // 2025-07-31
            date(1_756_612_800),  // 2025-08-31
            date(1_761_883_200),  // 2025-10-31
        ])
    }

    @Test func februaryTwentyNinthFiresOnlyInLeapYears() throws {
        let leapDay = try trigger(DateComponents(month: 2, day: 29, hour: 9))
        let fires = leapDay.nextFireDates(after: date(1_735_657_200), count: 2, floatingTimeZone: seoul)  // 2025-01-01T00:00+09:00
        #expect(fires == [date(1_835_395_200), date(1_961_625_600)])  // 2028-02-29 and 2032-02-29, 09:00+09:00
    }

    @Test func monthWithWeekdayMatchesEveryThatWeekdayOfTheMonth() throws {
        let juneTuesdays = try trigger(DateComponents(month: 6, hour: 9, weekday: 3))
        let utc = TimeZone(identifier: "UTC")!
        let fires = juneTuesdays.nextFireDates(after: date(1_622_592_000), count: 5, floatingTimeZone: utc)  // 2021-06-02Z
        #expect(fires == [
            date(1_623_142_800), date(1_623_747_600), date(1_624_352_400), date(1_624_957_200),  // June 8, 15, 22, 29
            date(1_654_592_400),  // 2022-06-07
        ])
    }

    @Test func componentsBeyondTheFastPathAgreeWithCalendar() throws {
        var components = DateComponents(hour: 10)
        components.weekday = 3
        components.weekdayOrdinal = 2  // the second Tuesday of each month
        let secondTuesday = try trigger(components)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        let start = date(1_764_547_200)
        let expected = calendar.nextDate(after: start, matching: components, matchingPolicy: .nextTime)
        #expect(secondTuesday.nextTriggerDate(after: start, floatingTimeZone: newYork) == expected)
        #expect(expected != nil)
    }

    @Test func aOneShotDateInThePastNeverFiresAgain() throws {
        let once = try trigger(DateComponents(year: 2020, month: 5, day: 1, hour: 9), repeats: false)
        #expect(once.nextTriggerDate(after: date(1_764_547_200), floatingTimeZone: newYork) == nil)
        #expect(once.nextFireDates(after: date(1_764_547_200), count: 3, floatingTimeZone: newYork).isEmpty)
    }

    @Test func aNonRepeatingTriggerListsOneFire() throws {
        let once = try trigger(DateComponents(hour: 8, minute: 30), repeats: false)
        #expect(once.nextFireDates(after: date(1_764_547_200), count: 5, floatingTimeZone: seoul) == [date(1_764_631_800)])
    }

    static let invalidComponents: [(DateComponents, String)] = [
        (DateComponents(), "dateComponents"),
        (DateComponents(hour: 24), "hour"),
        (DateComponents(hour: -1), "hour"),
        (DateComponents(minute: 60), "minute"),
        (DateComponents(second: 60), "second"),
        (DateComponents(month: 13), "month"),
        (DateComponents(month: 0), "month"),
        (DateComponents(day: 0), "day"),
        (DateComponents(day: 32), "day"),
        (DateComponents(weekday: 8), "weekday"),
        (DateComponents(weekday: 0), "weekday"),
        (DateComponents(month: 2, day: 30), "day"),
        (DateComponents(month: 4, day: 31), "day"),
        (DateComponents(year: 2025, month: 2, day: 29), "day"),
        (DateComponents(year: 2025, month: 12, day: 2, weekday: 1), "weekday"),  // a Tuesday
    ]

    @Test(arguments: invalidComponents)
    func rejectsComponentsThatCanNeverMatch(components: DateComponents, field: String) {
        #expect {
            _ = try CalendarTrigger(dateMatching: components, repeats: true)
        } throws: { error in
            let error = error as? ChimeError
            return error?.code == .invalidDateComponents && error?.field == field
        }
    }

    @Test func roundTripsThroughJSON() throws {
        var components = DateComponents(hour: 7, minute: 30, weekday: 2)
        components.timeZone = seoul
        let original = try trigger(components)
        let decoded = try JSONDecoder().decode(CalendarTrigger.self, from: JSONEncoder().encode(original))
        #expect(decoded == original)
        #expect(decoded.nextTriggerDate(after: date(1_764_547_200)) == original.nextTriggerDate(after: date(1_764_547_200)))
    }

    @Test func decodingRevalidates() {
        let json = Data(#"{"dateComponents":{"hour":25},"repeats":true}"#.utf8)
        #expect(throws: ChimeError.self) {
            try JSONDecoder().decode(CalendarTrigger.self, from: json)
        }
    }
}
