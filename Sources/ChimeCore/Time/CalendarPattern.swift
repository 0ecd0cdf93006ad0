internal import Foundation

/// The date components of a calendar trigger, normalised the way `Calendar.nextDate(after:matching:...)`
/// reads them, and matched with integer arithmetic.
///
/// Normalisation (what Foundation does, checked by the oracle test):
/// - Below the highest of month, day, hour, minute and second given, components not given are fixed to
///   their minimum: `month: 3` means March 1 at 00:00:00, `hour: 8` means 08:00:00, `day: 15, minute: 30`
///   means the 15th at 00:30:00. Components above the highest one given are free: `minute: 30` matches
///   every hour at :30.
/// - A year limits the dates to that year and fixes nothing below it unless it stands alone: `year: 2026,
///   hour: 8` is every day of 2026 at 08:00; `year: 2027` alone is 2027-01-01 at 00:00:00.
/// - A weekday filters dates without fixing the time: `weekday: 2, minute: 30` is every hour at :30 on
///   Mondays. A weekday alone means midnight.
///
/// Two modes follow from that:
/// - **Wall clock** (a month, day or hour is given, or only a weekday): one fixed time of day on each
///   matching date. A time skipped by a DST gap fires at the first instant after the gap; a time repeated
///   when the clock is set back fires once, at its first occurrence.
/// - **Every hour / every minute** (otherwise): every real instant whose wall clock shows that minute and
///   second, on matching weekdays. An hour skipped by a DST gap has no such instant; a repeated hour has
///   two, one real hour apart, and both fire: an hourly reminder stays hourly in elapsed time.
///
/// Where Chime deliberately differs from Foundation's `.nextTime` policy:
/// - Dates that do not exist never match: `day: 31` skips 30-day months and `month: 2, day: 29` fires only
///   in leap years (Foundation moves such dates to the 1st of the next month).
/// - `month: 6, weekday: 3` is every Tuesday of June (Foundation gives only the first Tuesday).
///
/// Every instant from year 1 through 9999 is answered here (see `ZoneOffsetTable`); nothing is ever
/// answered after 9999. The rarer fields (era, quarter, week-based fields, weekday ordinals,
/// nanoseconds, leap months, other calendars) are left to `Calendar`.
struct CalendarPattern: Hashable, Sendable {
    var year: Int?
    var month: Int?
    var day: Int?
    var weekday: Int?
    /// Fixed in wall-clock mode; `nil` (free) in every-hour and every-minute mode.
    var hour: Int?
    /// `nil` only in every-minute mode.
    var minute: Int?
    var second: Int

    /// Whether each match is a fixed time of day on a matching date.
    var isWallClock: Bool { hour != nil }

    /// The pattern for `components`, or `nil` when `Calendar` must answer (see above).
    /// Ranges are not checked here; `CalendarTrigger` validates them first.
    init?(_ components: DateComponents) {
        if let calendar = components.calendar, calendar.identifier != .gregorian { return nil }
        if components.era != nil || components.quarter != nil
            || components.weekOfMonth != nil || components.weekOfYear != nil || components.weekdayOrdinal != nil
            || components.yearForWeekOfYear != nil || components.nanosecond != nil
            || components.isLeapMonth != nil || components.dayOfYear != nil
        {
            return nil
        }
        year = components.year
        month = components.month
        day = components.day
        weekday = components.weekday
        let hasTime = components.hour != nil || components.minute != nil || components.second != nil
        guard year != nil || month != nil || day != nil || weekday != nil || hasTime else { return nil }
        if year != nil && month == nil && day == nil && weekday == nil && !hasTime { month = 1 }
        if month != nil && day == nil && weekday == nil { day = 1 }
        if month != nil || day != nil || components.hour != nil || !hasTime {
            hour = components.hour ?? 0
            minute = components.minute ?? 0
        } else {
            minute = components.minute
        }
        second = components.second ?? 0
    }

    /// The first instant strictly after `after` (whole seconds) that matches, in the zone of `table`; `nil`
    /// when none does from there through the year 9999 (a year in the past, an impossible date).
    func next(after: Int, in table: ZoneOffsetTable) -> Int? {
        let coverage = ZoneOffsetTable.coverage
        guard after < coverage.upperBound else { return nil }
        let start = max(after, coverage.lowerBound - 1)
        let instant = isWallClock ? nextWallClock(after: start, table: table) : nextEveryHourOrMinute(after: start, table: table)
        return instant.flatMap { coverage.contains($0) ? $0 : nil }
    }

    private func nextWallClock(after: Int, table: ZoneOffsetTable) -> Int? {
        let timeOfDay = hour! * 3600 + minute! * 60 + second
        let localStart = after + table.offset(at: after)
        var date = CivilDate(daysSinceEpoch: floorDivide(localStart, 86_400))
        // A local date before the start's cannot fire after it (its first occurrence is earlier), so the
        // search runs forward from the start's own date; a later date always resolves after the start.
        while true {
            guard let candidate = firstMatchingDate(onOrAfter: date) else { return nil }
            let days = candidate.daysSinceEpoch
            let instant = table.resolve(local: days * 86_400 + timeOfDay).firingInstant
            if instant > after {
                return instant
            }
            date = CivilDate(daysSinceEpoch: days + 1)
        }
    }

    private func nextEveryHourOrMinute(after: Int, table: ZoneOffsetTable) -> Int? {
        let (cycle, target) = minute.map { (3600, $0 * 60 + second) } ?? (60, second)
        var earliest = after + 1
        // Within one offset period the wall clock runs in step with real time; at a transition, restart
        // the search from the transition with the new offset. On a day of the wrong weekday, restart from
        // the next right day's midnight.
        while earliest < ZoneOffsetTable.coverage.upperBound {
            let (offset, nextTransition) = table.offsetAndNextTransition(at: earliest)
            let local = earliest + offset
            let instant = local + floorModulo(target - local, cycle) - offset
            if instant >= nextTransition {
                earliest = nextTransition
                continue
            }
            let days = floorDivide(instant + offset, 86_400)
            if let year {
                let localYear = CivilDate(daysSinceEpoch: days).year
                if localYear > year { return nil }
                if localYear < year {
                    earliest = max(instant + 1, table.resolve(local: CivilDate(year: year, month: 1, day: 1).daysSinceEpoch * 86_400).firingInstant)
                    continue
                }
            }
            guard let weekday else { return instant }
            let daysAhead = floorModulo(weekday - CivilDate.weekday(daysSinceEpoch: days), 7)
            if daysAhead == 0 { return instant }
            earliest = max(instant + 1, table.resolve(local: (days + daysAhead) * 86_400).firingInstant)
        }
        return nil
    }

    /// The first date on or after `start`, up to the year 9999, that matches year, month, day and weekday.
    func firstMatchingDate(onOrAfter start: CivilDate) -> CivilDate? {
        var year = start.year
        var month = start.month
        var firstDay = start.day
        if let wantedYear = self.year {
            if year > wantedYear { return nil }
            if year < wantedYear { (year, month, firstDay) = (wantedYear, 1, 1) }
        }
        // Weekdays repeat every 400 Gregorian years; a pattern that has not matched by then never will.
        for _ in 0..<(400 * 12 + 12) {
            if year > 9999 || self.year.map({ year > $0 }) == true { return nil }
            if let wantedMonth = self.month {
                if month > wantedMonth {
                    (year, month, firstDay) = (year + 1, wantedMonth, 1)
                    continue
                }
                if month < wantedMonth { (month, firstDay) = (wantedMonth, 1) }
            }
            let length = CivilDate.daysInMonth(year: year, month: month)
            if let wantedDay = day {
                if wantedDay >= firstDay && wantedDay <= length {
                    let date = CivilDate(year: year, month: month, day: wantedDay)
                    if weekday == nil || date.weekday == weekday { return date }
                }
            } else if let wantedWeekday = weekday {
                if firstDay <= length {
                    let first = CivilDate(year: year, month: month, day: firstDay)
                    let matchingDay = firstDay + floorModulo(wantedWeekday - first.weekday, 7)
                    if matchingDay <= length { return CivilDate(year: year, month: month, day: matchingDay) }
                }
            } else if firstDay <= length {
                return CivilDate(year: year, month: month, day: firstDay)
            }
            (month, firstDay) = month == 12 ? (1, 1) : (month + 1, 1)
            if month == 1 { year += 1 }
        }
        return nil
    }
}
