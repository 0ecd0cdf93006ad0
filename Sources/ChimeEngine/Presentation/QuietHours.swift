public import Foundation

/// A weekly schedule of quiet times in a person's own zone ("weeknights 22:00–07:00"), during which a
/// focus is on: what it holds back and what breaks through is the focus rule of `PresentationPolicy`
/// (active notifications go quietly to the list, time-sensitive ones break through when allowed,
/// critical ones always).
///
/// ```swift
/// let nights = try QuietHours(periods: [.init(weekdays: [2, 3, 4, 5, 6], start: 22 * 60, end: 7 * 60)])
/// nights.focus(at: date, in: seoul)  // .on(allowsTimeSensitive: true) at 23:00 on a Tuesday
/// ```
public struct QuietHours: Sendable, Hashable, Codable {
    /// Quiet from `start` to `end` (minutes after local midnight) on each of `weekdays` (1 is Sunday, as
    /// `Calendar` counts). An `end` at or before `start` ends the next day: 22:00–07:00 starting Friday
    /// holds until Saturday 07:00.
    public struct Period: Sendable, Hashable, Codable {
        public var weekdays: Set<Int>
        public var start: Int
        public var end: Int

        public init(weekdays: Set<Int>, start: Int, end: Int) {
            self.weekdays = weekdays
            self.start = start
            self.end = end
        }
    }

    public var periods: [Period]
    /// Whether time-sensitive notifications break through (Apple's Focus setting of the same name).
    public var allowsTimeSensitive: Bool

    /// No quiet hours.
    public static let none = QuietHours(unchecked: [], allowsTimeSensitive: true)

    /// Refuses a weekday outside 1...7, a minute outside 0..<1440, or a period with no weekday.
    public init(periods: [Period], allowsTimeSensitive: Bool = true) throws(QuietHoursError) {
        for period in periods {
            guard !period.weekdays.isEmpty, period.weekdays.allSatisfy((1...7).contains) else {
                throw QuietHoursError("a period's weekdays are 1 (Sunday) through 7 (Saturday), at least one")
            }
            guard (0..<1440).contains(period.start), (0..<1440).contains(period.end) else {
                throw QuietHoursError("a period starts and ends at a minute of the day, 0 (00:00) through 1439 (23:59)")
            }
        }
        self.init(unchecked: periods, allowsTimeSensitive: allowsTimeSensitive)
    }

    private init(unchecked periods: [Period], allowsTimeSensitive: Bool) {
        self.periods = periods
        self.allowsTimeSensitive = allowsTimeSensitive
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let periods = try container.decode([Period].self, forKey: .periods)
        let allows = try container.decodeIfPresent(Bool.self, forKey: .allowsTimeSensitive) ?? true
        do {
            try self.init(periods: periods, allowsTimeSensitive: allows)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .periods, in: container, debugDescription: error.description)
        }
    }

    /// Whether `date` falls in a quiet period, read on the wall clock of `zone`.
    public func isQuiet(at date: Date, in zone: TimeZone) -> Bool {
        guard !periods.isEmpty else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        guard let weekday = parts.weekday, let hour = parts.hour, let minute = parts.minute else { return false }
        let now = hour * 60 + minute
        let yesterday = weekday == 1 ? 7 : weekday - 1
        return periods.contains { period in
            if period.start < period.end {
                return period.weekdays.contains(weekday) && (period.start..<period.end).contains(now)
            }
            // Over midnight: the evening part today, or the morning part of a period begun yesterday.
            return (period.weekdays.contains(weekday) && now >= period.start) || (period.weekdays.contains(yesterday) && now < period.end)
        }
    }

    /// The focus in effect at `date`: on during quiet hours, off otherwise.
    public func focus(at date: Date, in zone: TimeZone) -> UserEnvironment.Focus {
        isQuiet(at: date, in: zone) ? .on(allowsTimeSensitive: allowsTimeSensitive) : .off
    }
}

/// Quiet hours that cannot hold, with the rule they break.
public struct QuietHoursError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
