import Foundation

/// A deliberately naive implementation of Chime's calendar-trigger semantics, written from the rules in
/// `CalendarPattern`'s documentation with nothing but `Calendar` and `TimeZone.secondsFromGMT(for:)`:
/// it walks real dates one by one (wall-clock mode) or real minutes one by one (every-hour/minute mode).
/// Slow, but obviously right; the oracle test uses it to adjudicate every case where Chime and Foundation
/// disagree.
struct ReferenceCalendarMatcher {
    let components: DateComponents
    let zone: TimeZone
    private let calendar: Calendar

    init(components: DateComponents, zone: TimeZone) {
        self.components = components
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    var isWallClock: Bool {
        let c = components
        return c.month != nil || c.day != nil || c.hour != nil || (c.weekday != nil && c.minute == nil && c.second == nil)
    }

    func next(after start: Date) -> Date? {
        isWallClock ? nextWallClock(after: start) : nextEveryHourOrMinute(after: start)
    }

    private func dateMatches(year: Int, month: Int, day: Int, weekday: Int) -> Bool {
        let c = components
        let wantedDay = c.day ?? (c.month != nil && c.weekday == nil ? 1 : nil)
        return (c.month == nil || c.month == month) && (wantedDay == nil || wantedDay == day)
            && (c.weekday == nil || c.weekday == weekday)
    }

    /// Local wall-clock seconds (instant + offset) at `instant`.
    private func local(_ instant: Int) -> Int {
        instant + zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
    }

    private func nextWallClock(after start: Date) -> Date? {
        let c = components
        let timeOfDay = (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0)
        let startSecond = Int(start.timeIntervalSince1970.rounded(.down))
        var noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: start)!
        for _ in 0..<(366 * 30) {
            defer { noon = calendar.date(byAdding: .day, value: 1, to: noon)! }
            let d = calendar.dateComponents([.year, .month, .day, .weekday], from: noon)
            guard dateMatches(year: d.year!, month: d.month!, day: d.day!, weekday: d.weekday!) else { continue }
            // The wall time as if it were UTC; the real instants lie within 15 hours of it.
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let wanted = Int(utc.date(from: DateComponents(year: d.year, month: d.month, day: d.day))!.timeIntervalSince1970) + timeOfDay
            let offsets = Set(stride(from: -15 * 3600, through: 15 * 3600, by: 900).map {
                zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wanted + $0)))
            })
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
            if fire > startSecond { return Date(timeIntervalSince1970: Double(fire)) }
        }
        return nil
    }

    private func nextEveryHourOrMinute(after start: Date) -> Date? {
        let c = components
        let second = c.second ?? 0
        var instant = Int(start.timeIntervalSince1970.rounded(.down)) + 1
        // Offsets in the covered years are whole minutes, so the wall clock's seconds are UTC's.
        instant += ((second - instant % 60) + 60) % 60
        for _ in 0..<(60 * 24 * 8) {
            defer { instant += 60 }
            let parts = calendar.dateComponents([.minute, .weekday], from: Date(timeIntervalSince1970: Double(instant)))
            if (c.minute == nil || c.minute == parts.minute) && (c.weekday == nil || c.weekday == parts.weekday) {
                return Date(timeIntervalSince1970: Double(instant))
            }
        }
        return nil
    }
}
