import ChimeCore
import Foundation

/// `--at` as people type it, besides an instant with an offset: a wall-clock time in the user's zone, as
/// `at`, `systemd-run --on-calendar` and ntfy users write it.
///
/// - `18:00`, `18:00:30`, `7pm`, `7:30pm`, `7 pm`, `noon`, `midnight`: the next time the clock shows it
///   (today, or tomorrow once it has passed today), as `at` does.
/// - `today 18:00`, `tomorrow 9am`: that day.
/// - `2026-12-24 18:00`, `2026-12-24T18:00[:00]`: that date and time, local.
///
/// Resolved at `now` in `zone`; a local time a DST gap skips resolves to the first instant after it.
public struct LocalTimeSpec: Equatable, Sendable {
    public enum Day: Equatable, Sendable {
        /// The next time the clock shows it.
        case next
        case today
        case tomorrow
        case date(year: Int, month: Int, day: Int)
    }

    public var day: Day
    public var hour: Int
    public var minute: Int
    public var second: Int

    static let examples = "18:00, 7pm, tomorrow 9:00, 2026-12-24 18:00, or 2026-12-24T18:00:00+09:00"

    /// `nil` when `text` is none of these forms.
    static func parse(_ text: String) -> LocalTimeSpec? {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        var day = Day.next
        switch words[0] {
        case "today": day = .today; words.removeFirst()
        case "tomorrow": day = .tomorrow; words.removeFirst()
        default:
            if let date = date(words[0]) {
                day = date
                words.removeFirst()
            } else if let split = words[0].firstIndex(of: "t"), let date = date(String(words[0][..<split])) {
                // 2026-12-24T18:00 (no offset)
                day = date
                words[0] = String(words[0][words[0].index(after: split)...])
            }
        }
        guard let time = timeOfDay(words.joined()) else { return nil }
        return LocalTimeSpec(day: day, hour: time.hour, minute: time.minute, second: time.second)
    }

    private static func date(_ word: String) -> Day? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return .date(year: year, month: month, day: day)
    }

    /// `18:00`, `18:00:30`, `7pm`, `7:30pm`, `noon`, `midnight` (spaces already removed).
    private static func timeOfDay(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        if text == "noon" { return (12, 0, 0) }
        if text == "midnight" { return (0, 0, 0) }
        var clock = text
        var meridiem: String?
        for suffix in ["am", "pm"] where clock.hasSuffix(suffix) {
            meridiem = suffix
            clock.removeLast(2)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        var hour = parts[0]!
        let minute = parts.count > 1 ? parts[1]! : 0
        let second = parts.count > 2 ? parts[2]! : 0
        // "18" alone is not a time (it could be anything); "7pm" is.
        guard meridiem != nil || parts.count > 1 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return (hour, minute, second)
    }

    /// The instant this names at `now` in `zone`.
    ///
    /// - Throws: a `UsageError` for a date that does not exist, or an instant that has passed.
    func resolve(now: Date, zone: TimeZone, option: String, command: String) throws(UsageError) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        var components = DateComponents(hour: hour, minute: minute, second: second)
        switch day {
        case .next, .today:
            (components.year, components.month, components.day) = (today.year, today.month, today.day)
        case .tomorrow:
            let tomorrow = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: 1, to: now)!)
            (components.year, components.month, components.day) = (tomorrow.year, tomorrow.month, tomorrow.day)
        case .date(let year, let month, let day):
            do {
                // The strict reader names a date that does not exist ("February 30, 2030 does not exist").
                _ = try InstantText.parse(String(format: "%04d-%02d-%02dT00:00:00Z", year, month, day))
            } catch {
                throw UsageError("\(option): \(error.message)", command: command)
            }
            (components.year, components.month, components.day) = (year, month, day)
        }
        guard var date = Self.firstInstant(showing: components, in: zone) else {
            throw UsageError("\(option): no such time in \(zone.identifier)", command: command)
        }
        if date <= now, day == .next, let next = calendar.date(byAdding: .day, value: 1, to: date) {
            components = calendar.dateComponents([.year, .month, .day], from: next)
            (components.hour, components.minute, components.second) = (hour, minute, second)
            date = Self.firstInstant(showing: components, in: zone) ?? next
        }
        guard date > now else {
            throw UsageError("\(option): \(InstantFormat.iso8601(date, in: zone)) is in the past", command: command)
        }
        return date
    }

    /// The first instant the zone's clock shows `components` (a full date and time), or the first after a
    /// DST gap that skips them: Chime's own calendar rules, as a dated trigger would fire.
    private static func firstInstant(showing components: DateComponents, in zone: TimeZone) -> Date? {
        var pinned = components
        pinned.timeZone = zone
        guard let trigger = try? CalendarTrigger(dateMatching: pinned, repeats: false) else { return nil }
        // From the calendar's start: the matcher goes straight to the components' year.
        return trigger.nextTriggerDate(after: InstantText.supportedRange.lowerBound, floatingTimeZone: zone)
    }
}
