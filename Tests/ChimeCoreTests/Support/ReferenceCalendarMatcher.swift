import Foundation
import Synchronization

/// A deliberately naive implementation of Chime's calendar-trigger semantics, written from the rules in
/// `CalendarPattern`'s documentation and nothing of Chime's or Foundation's: offsets come from the zone's
/// tzdata file (`TZifZone`), civil dates from the C library. It walks real dates one by one (wall-clock
/// mode) or real instants a second-aligned step at a time (every-hour/minute mode). Slow, but obviously
/// right; the oracle tests use it to adjudicate every case.
///
/// The rules: below the highest of month, day, hour, minute and second given, the components not given are
/// their minimum (a month alone is its 1st at 00:00; a year alone is its January 1st at 00:00); a weekday
/// filters dates; a year limits them. With a month, day or hour given (or none of minute and second), each
/// matching date fires once at its time of day: the only or first occurrence, or the first instant after a
/// gap. Otherwise every real instant whose wall clock shows the minute and second fires. Nothing fires
/// after 9999-12-31T23:59:59Z.
struct ReferenceCalendarMatcher {
    let components: DateComponents
    let zone: TZifZone

    init(components: DateComponents, zone: TimeZone) {
        self.components = components
        self.zone = Self.zone(named: zone.identifier)
    }

    static let last = civilSeconds(year: 10_000, month: 1, day: 1) - 1
    private static let zones = Mutex<[String: TZifZone]>([:])

    static func zone(named name: String) -> TZifZone {
        if let zone = zones.withLock({ $0[name] }) { return zone }
        let zone = try! TZifZone(name == "GMT" ? "Etc/GMT" : name)
        zones.withLock { $0[name] = zone }
        return zone
    }

    var isWallClock: Bool {
        let c = components
        return c.month != nil || c.day != nil || c.hour != nil || (c.minute == nil && c.second == nil)
    }

    func next(after start: Date) -> Date? {
        let startSecond = Int(start.timeIntervalSince1970.rounded(.down))
        let found = isWallClock ? nextWallClock(after: startSecond) : nextEveryHourOrMinute(after: startSecond)
        return found.flatMap { $0 <= Self.last ? Date(timeIntervalSince1970: Double($0)) : nil }
    }

    /// Up to `count` fires after `start`, each found from the one before.
    func fires(after start: Date, count: Int) -> [Date] {
        var dates: [Date] = []
        var cursor = start
        while dates.count < count, let next = next(after: cursor) {
            dates.append(next)
            cursor = next
        }
        return dates
    }

    private var wantedMonth: Int? {
        let c = components
        return c.month ?? (c.year != nil && c.day == nil && c.weekday == nil && c.hour == nil && c.minute == nil && c.second == nil ? 1 : nil)
    }

    private func dateMatches(year: Int, month: Int, day: Int, weekday: Int) -> Bool {
        let c = components
        let wantedDay = c.day ?? (wantedMonth != nil && c.weekday == nil ? 1 : nil)
        return (c.year == nil || c.year == year) && (wantedMonth == nil || wantedMonth == month)
            && (wantedDay == nil || wantedDay == day) && (c.weekday == nil || c.weekday == weekday + 1)
    }

    /// Local wall-clock seconds (instant + offset) at `instant`.
    private func local(_ instant: Int) -> Int {
        instant + zone.offset(at: instant)
    }

    private func nextWallClock(after start: Int) -> Int? {
        let c = components
        let timeOfDay = (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0)
        // From the local date of the start (a day earlier, to be safe), or the wanted year's first day.
        var day = local(start) - civilFields(local(start)).secondOfDay - 86_400
        if let year = c.year {
            guard year >= civilYear(day) else { return nil }
            day = max(day, civilSeconds(year: year, month: 1, day: 1))
        }
        for _ in 0..<(146_097 + 366) {  // 400 years: every date pattern recurs within them
            defer { day += 86_400 }
            let d = civilFields(day)
            if d.year > 9999 || c.year.map({ d.year > $0 }) == true { return nil }
            guard dateMatches(year: d.year, month: d.month, day: d.day, weekday: d.weekday) else { continue }
            let wanted = day + timeOfDay
            // Every offset in force within 15 hours; the instants that show the wanted time.
            let offsets = Set(stride(from: -15 * 3600, through: 15 * 3600, by: 900).map { zone.offset(at: wanted + $0) })
            let occurrences = offsets.map { wanted - $0 }.filter { local($0) == wanted }.sorted()
            let fire: Int
            if let first = occurrences.first {
                fire = first  // the only occurrence, or the first of a repeated time
            } else {
                // Skipped by a gap: the first instant whose wall clock shows a later time.
                var low = wanted - 15 * 3600
                var high = wanted + 15 * 3600
                while low + 1 < high {
                    let mid = (low + high) / 2
                    if local(mid) > wanted { high = mid } else { low = mid }
                }
                fire = high
            }
            if fire > start { return fire }
        }
        return nil
    }

    private func nextEveryHourOrMinute(after start: Int) -> Int? {
        let c = components
        let second = c.second ?? 0
        var instant = start + 1
        if let year = c.year {
            // Nothing before the wanted year's first day (less a day, for any offset) can match.
            instant = max(instant, civilSeconds(year: year, month: 1, day: 1) - 86_400)
        }
        var change = zone.nextChange(after: instant)
        for _ in 0..<(60 * 24 * 9) {
            guard instant <= Self.last else { return nil }
            if instant >= change { change = zone.nextChange(after: instant) }
            let fields = civilFields(local(instant))
            if let year = c.year, fields.year > year { return nil }
            let dayMatches = (c.weekday == nil || c.weekday == fields.weekday + 1) && (c.year == nil || c.year == fields.year)
            if dayMatches, fields.secondOfDay % 60 == second, c.minute == nil || c.minute == fields.secondOfDay / 60 % 60 {
                return instant
            }
            // On to the next local midnight when the day is wrong, else to the next instant whose wall clock
            // shows the wanted second; never past an offset change (the wall clock jumps there).
            let step = dayMatches ? (((second - fields.secondOfDay % 60) % 60 + 60) % 60) : 86_400 - fields.secondOfDay
            instant = min(instant + (step == 0 ? 60 : step), change)
        }
        return nil
    }
}
