internal import Foundation

/// Parses the `--calendar` argument: `key=value` pairs separated by spaces or commas, such as
/// `"hour=8 minute=30"` or `"weekday=mon,hour=9"`.
///
/// Keys: `year`, `month` (1–12 or `jan`…`dec`), `day`, `weekday` (1–7 from Sunday, or `sun`…`sat`),
/// `hour`, `minute`, `second`. Ranges are checked by `CalendarTrigger`, not here.
enum CalendarSpec {
    static let keys = ["year", "month", "day", "weekday", "hour", "minute", "second"]
    static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String, command: String) throws(UsageError) -> DateComponents {
        var components = DateComponents()
        var seen: Set<String> = []
        let pairs = text.split(whereSeparator: { $0 == " " || $0 == "," })
        guard !pairs.isEmpty else {
            throw UsageError("--calendar needs at least one key=value pair, such as \"hour=8 minute=30\"", command: command)
        }
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.lowercased() }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw UsageError("'\(pair)' in --calendar is not key=value", command: command)
            }
            let (key, rawValue) = (parts[0], parts[1])
            guard keys.contains(key) else {
                throw UsageError("unknown --calendar key '\(key)' (expected one of \(keys.joined(separator: ", ")))", command: command)
            }
            guard seen.insert(key).inserted else {
                throw UsageError("--calendar gives '\(key)' twice", command: command)
            }
            guard let value = number(rawValue, key: key) else {
                throw UsageError("--calendar \(key) '\(rawValue)' is not a number\(key == "weekday" || key == "month" ? " or a name" : "")", command: command)
            }
            switch key {
            case "year": components.year = value
            case "month": components.month = value
            case "day": components.day = value
            case "weekday": components.weekday = value
            case "hour": components.hour = value
            case "minute": components.minute = value
            default: components.second = value
            }
        }
        return components
    }

    private static func number(_ text: String, key: String) -> Int? {
        if let value = Int(text) { return value }
        let names = key == "weekday" ? weekdayNames : key == "month" ? monthNames : []
        return names.firstIndex { text.hasPrefix($0) && $0.count >= 3 }.map { $0 + 1 }
    }

    /// The components back as `key=value` text, in key order.
    static func format(_ components: DateComponents) -> String {
        let values = [components.year, components.month, components.day, components.weekday, components.hour, components.minute, components.second]
        return zip(keys, values).compactMap { key, value in value.map { "\(key)=\($0)" } }.joined(separator: " ")
    }
}
