internal import Foundation

/// Parses durations such as `90`, `90s`, `10m`, `1h30m`, `1.5h`, `2d` or `1w` into seconds.
enum DurationSpec {
    static let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    static func parse(_ text: String, option: String, command: String) throws(UsageError) -> TimeInterval {
        if let seconds = TimeInterval(text), seconds.isFinite { return seconds }
        var total: TimeInterval = 0
        var number = ""
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
            } else if let unit = units[character], let value = TimeInterval(number) {
                total += value * unit
                number = ""
            } else {
                throw UsageError("\(option) '\(text)' is not a duration such as 90s, 10m, 1h30m or 2d", command: command)
            }
        }
        guard number.isEmpty, !text.isEmpty else {
            throw UsageError("\(option) '\(text)' is not a duration such as 90s, 10m, 1h30m or 2d", command: command)
        }
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
