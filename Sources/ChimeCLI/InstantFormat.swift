internal import Foundation
import ChimeCore

/// Formats instants for people and scripts in a given zone: ISO 8601 with the zone's offset
/// (`2026-12-03T08:30:00+09:00`), and a weekday name, independent of the process locale.
enum InstantFormat {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Local time to the second with the zone's offset at that instant, exact to the second of the offset
    /// (see `InstantText`); UTC shows as `+00:00`, so a local column reads alike in every zone. (The UTC
    /// form in JSON carries fractions of a second.)
    static func iso8601(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let text = InstantText.format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)), offset: offset)
        return offset == 0 ? String(text.dropLast()) + "+00:00" : text
    }

    static func weekday(_ date: Date, in zone: TimeZone) -> String {
        weekdays[components(date, in: zone).weekday! - 1]
    }

    /// Parses ISO 8601 with an offset or `Z`, with or without fractional seconds; refuses a date that does
    /// not exist or a year outside 1–9999, saying which (`InstantText.parse`).
    static func parse(_ text: String, option: String, command: String) throws(UsageError) -> Date {
        do {
            return try InstantText.parse(text)
        } catch {
            throw UsageError("\(option): \(error.message)", command: command)
        }
    }

    private static func components(_ date: Date, in zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    }
}
