internal import Foundation

/// Formats instants for people and scripts in a given zone: ISO 8601 with the zone's offset
/// (`2026-12-03T08:30:00+09:00`), and a weekday name, independent of the process locale.
enum InstantFormat {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func iso8601(_ date: Date, in zone: TimeZone) -> String {
        let parts = components(date, in: zone)
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        let local = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
            parts.second!)
        return local + sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    static func weekday(_ date: Date, in zone: TimeZone) -> String {
        weekdays[components(date, in: zone).weekday! - 1]
    }

    /// Parses ISO 8601 with an offset or `Z`, with or without fractional seconds.
    static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    private static func components(_ date: Date, in zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    }
}
