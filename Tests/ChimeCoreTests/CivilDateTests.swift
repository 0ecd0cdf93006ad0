import Foundation
import Testing

@testable import ChimeCore

@Suite("Civil date arithmetic")
struct CivilDateTests {
    @Test func agreesWithCalendarOnEveryDayFrom1900To2200() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var mismatches = 0
        for days in stride(from: -25_567, to: 84_000, by: 1) {
            let date = CivilDate(daysSinceEpoch: days)
            let expected = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(days) * 86_400))
            if date.year != expected.year || date.month != expected.month || date.day != expected.day
                || date.weekday != expected.weekday || date.daysSinceEpoch != days
            {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test func knowsLeapYearsAndMonthLengths() {
        #expect(CivilDate.isLeapYear(2000) && CivilDate.isLeapYear(2028))
        #expect(!CivilDate.isLeapYear(1900) && !CivilDate.isLeapYear(2100) && !CivilDate.isLeapYear(2025))
        #expect(CivilDate.daysInMonth(year: 2028, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 2025, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2025, month: 4) == 30)
        #expect(CivilDate.daysInMonth(year: 2025, month: 12) == 31)
    }
}
