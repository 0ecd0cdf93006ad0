public import Foundation

/// Fires when the wall clock matches date components, once or repeatedly
/// (Apple's `UNCalendarNotificationTrigger`).
///
/// Only the components given are matched; those below the highest one given are fixed to their minimum
/// (`hour: 8` fires at 08:00:00), those above are free (`minute: 30` fires every hour). See
/// `CalendarPattern` for the exact rules, including DST gaps and repeated hours.
///
/// **Time zone.** Components without a time zone *float*: they are matched in the user's current zone,
/// passed as `floatingTimeZone`, so "08:30" stays 08:30 after the user travels. Components with a time zone
/// are *pinned* to it.
///
/// ```swift
/// let alarm = try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 30), repeats: true)
/// alarm.nextFireDates(after: now, count: 3, floatingTimeZone: TimeZone(identifier: "Asia/Seoul")!)
/// ```
///
/// Answers agree with Foundation's `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first)` except where Chime's semantics deliberately differ (dates that do not exist,
/// second occurrences of a repeated time, DST gaps shorter than an hour); the oracle test names each case.
/// The common components (year, month, day, weekday, hour, minute, second in the Gregorian calendar) are
/// answered for years 1 through 9999 by integer arithmetic over a per-zone offset table, many times faster
/// than `Calendar` and without its gaps (a repeating trigger with a year that stops after one fire, a
/// dated trigger that rolls over into the next month); nothing fires after 9999. Only the rare components
/// (era, quarter, week-based fields, weekday ordinals, nanoseconds, other calendars) are left to `Calendar`.
public struct CalendarTrigger: Sendable, Hashable, Codable {
    public let dateComponents: DateComponents
    public let repeats: Bool
    /// The pattern Chime matches, or `nil` when `Calendar` answers. Derived from `dateComponents`.
    private let pattern: CalendarPattern?

    /// - Throws: `ChimeError.invalidDateComponents` when no date or time component is given, a component is
    ///   out of range (month 1...12, day 1...31, weekday 1...7, hour 0...23, minute and second 0...59, ...),
    ///   or the components name a date that never exists (February 30, April 31, February 29 of a common year).
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) throws(ChimeError) {
        try Self.validate(dateComponents)
        self.dateComponents = dateComponents
        self.repeats = repeats
        pattern = CalendarPattern(dateComponents)
    }

    /// Whether it fires every hour or every minute (at a minute and second, on any hour), rather than at a
    /// time of day on matching dates.
    public var firesEveryHourOrMinute: Bool { pattern.map { !$0.isWallClock } ?? false }

    /// The zone the components are pinned to, or `nil` when they float with the user's zone.
    public var pinnedTimeZone: TimeZone? { dateComponents.timeZone }

    /// The first fire strictly after `date`, or `nil` when the components never match again.
    ///
    /// - Parameter floatingTimeZone: the user's zone now; used when the components have no time zone.
    public func nextTriggerDate(after date: Date, floatingTimeZone: TimeZone = .current) -> Date? {
        let zone = dateComponents.timeZone ?? floatingTimeZone
        let start = date.timeIntervalSince1970
        guard let pattern else { return foundationNextDate(after: date, in: zone) }
        guard start.isFinite else { return nil }
        let clamped = Int(min(max(start, -1e15), 1e15).rounded(.down))
        return pattern.next(after: clamped, in: ZoneOffsetTable.table(for: zone)).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// The next `count` fires strictly after `date`, in order: fewer when the components stop matching,
    /// at most one when the trigger does not repeat.
    ///
    /// Repeats are enumerated date by date on the wall clock from `date`, so a time repeated by a DST change
    /// appears once and a skipped time appears once, at the end of the gap.
    public func nextFireDates(after date: Date, count: Int, floatingTimeZone: TimeZone = .current) -> [Date] {
        var dates: [Date] = []
        var cursor = date
        let limit = repeats ? count : min(count, 1)
        while dates.count < limit, let next = nextTriggerDate(after: cursor, floatingTimeZone: floatingTimeZone) {
            dates.append(next)
            cursor = next
        }
        return dates
    }

    /// `Calendar`'s answer, for the rare components Chime's matcher does not handle.
    private func foundationNextDate(after date: Date, in zone: TimeZone) -> Date? {
        var calendar = dateComponents.calendar ?? Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = dateComponents
        components.calendar = nil
        components.timeZone = nil
        return calendar.nextDate(
            after: date, matching: components, matchingPolicy: .nextTime, repeatedTimePolicy: .first)
    }

    private enum CodingKeys: String, CodingKey { case dateComponents, repeats }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            dateMatching: container.decode(DateComponents.self, forKey: .dateComponents),
            repeats: container.decode(Bool.self, forKey: .repeats))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dateComponents, forKey: .dateComponents)
        try container.encode(repeats, forKey: .repeats)
    }

    public static func == (lhs: CalendarTrigger, rhs: CalendarTrigger) -> Bool {
        lhs.dateComponents == rhs.dateComponents && lhs.repeats == rhs.repeats
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dateComponents)
        hasher.combine(repeats)
    }
}

extension CalendarTrigger {
    private static func validate(_ c: DateComponents) throws(ChimeError) {
        func check(_ value: Int?, _ range: ClosedRange<Int>, _ name: String) throws(ChimeError) {
            if let value, !range.contains(value) {
                throw ChimeError(
                    .invalidDateComponents, field: name,
                    "\(name) must lie in \(range.lowerBound)...\(range.upperBound)")
            }
        }
        try check(c.era, 0...1, "era")
        try check(c.year, 1...9999, "year")
        try check(c.month, 1...12, "month")
        try check(c.day, 1...31, "day")
        try check(c.weekday, 1...7, "weekday")
        try check(c.hour, 0...23, "hour")
        try check(c.minute, 0...59, "minute")
        try check(c.second, 0...59, "second")
        try check(c.nanosecond, 0...999_999_999, "nanosecond")
        try check(c.quarter, 1...4, "quarter")
        // Week 0 of a month (the days before its first week) sends Foundation's search into a loop that
        // never returns when the calendar's first week needs more than one day; no reminder needs it.
        try check(c.weekOfMonth, 1...6, "weekOfMonth")
        try check(c.weekOfYear, 1...53, "weekOfYear")
        try check(c.weekdayOrdinal, -5...5, "weekdayOrdinal")
        try check(c.dayOfYear, 1...366, "dayOfYear")
        try check(c.yearForWeekOfYear, 1...9999, "yearForWeekOfYear")
        // A calendar with week rules Foundation does not define (a first weekday of 0) loops forever too.
        if let calendar = c.calendar {
            guard (1...7).contains(calendar.firstWeekday), (1...7).contains(calendar.minimumDaysInFirstWeek) else {
                throw ChimeError(
                    .invalidDateComponents, field: "calendar", "a calendar's firstWeekday and minimumDaysInFirstWeek must lie in 1...7")
            }
        }
        if c.weekdayOrdinal == 0 {
            throw ChimeError(.invalidDateComponents, field: "weekdayOrdinal", "weekdayOrdinal must not be 0")
        }

        let matchesSomething = [
            c.era, c.year, c.month, c.day, c.weekday, c.hour, c.minute, c.second, c.nanosecond, c.quarter,
            c.weekOfMonth, c.weekOfYear, c.weekdayOrdinal, c.dayOfYear, c.yearForWeekOfYear,
        ].contains { $0 != nil }
        guard matchesSomething else {
            throw ChimeError(.invalidDateComponents, field: "dateComponents", "give at least one date or time component")
        }

        // Dates that never exist would never fire; say so now rather than schedule nothing.
        if c.calendar == nil || c.calendar?.identifier == .gregorian, let month = c.month, let day = c.day {
            let longest = c.year.map { CivilDate.daysInMonth(year: $0, month: month) }
                ?? (month == 2 ? 29 : CivilDate.daysInMonth(year: 2000, month: month))
            guard day <= longest else {
                // With a year, the month is one real month: name the date, not months in general.
                let message =
                    c.year.map { "\(CalendarTrigger.monthNames[month - 1]) \(day), \($0) does not exist (that month has \(longest) days)" }
                    ?? "this month never has that day"
                throw ChimeError(.invalidDateComponents, field: "day", message)
            }
            if let year = c.year, let weekday = c.weekday,
                CivilDate(year: year, month: month, day: day).weekday != weekday
            {
                throw ChimeError(.invalidDateComponents, field: "weekday", "that date falls on another weekday")
            }
        }
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
}
