internal import Foundation

/// Parses durations such as `90`, `90s`, `10m`, `1h30m`, `1.5h`, `2d` or `1w` into seconds.
enum DurationSpec {
    /// Unit words as people type them (`5 minutes`, `5min`, `2 hrs`, `1 week`), and their seconds.
    static let unitWords: [String: TimeInterval] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "d": 86_400, "day": 86_400, "days": 86_400,
        "w": 604_800, "week": 604_800, "weeks": 604_800,
    ]

    /// Seconds in `text`: a bare number (seconds), or numbers each followed by a unit — `90s`, `10m`,
    /// `1h30m`, `1.5h`, `5 minutes`, `5min`, `2 hours 30 minutes`, `1 week`.
    static func parse(_ text: String, option: String, command: String) throws(UsageError) -> TimeInterval {
        let refusal = UsageError(
            "\(option) '\(text)' is not a duration such as 90s, 10m, 1h30m, 5min, \"2 hours 30 minutes\" or 2d", command: command)
        if let seconds = TimeInterval(text), seconds.isFinite { return seconds }
        var total: TimeInterval = 0
        var rest = Substring(text.lowercased())
        var sawOne = false
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            if rest.isEmpty { break }
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = TimeInterval(number) else { throw refusal }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            let word = rest.prefix { $0.isLetter }
            guard let unit = unitWords[String(word)] else { throw refusal }
            rest = rest.dropFirst(word.count)
            total += value * unit
            sawOne = true
        }
        guard sawOne, total.isFinite else { throw refusal }
        return total
    }

    /// Seconds as the shortest readable duration: `1h30m`, `90s`, `2d`.
    static func format(_ seconds: TimeInterval) -> String {
        guard seconds == seconds.rounded(), seconds > 0, seconds < 1e12 else { return "\(seconds)s" }
        var rest = Int(seconds)
        var text = ""
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }
}
