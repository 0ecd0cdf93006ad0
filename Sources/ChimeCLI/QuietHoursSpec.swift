/// `--quiet "mon-fri 22:00-07:00"`: one period of a recipient's quiet hours, as typed.
///
/// Days are names (`sun` … `sat`), ranges in week order that may wrap (`fri-mon`), lists of both
/// (`sat,sun`), or `daily`, `weekdays`, `weekends`. Times are `H:MM` or `HH:MM`, local to the recipient;
/// a `to` at or before `from` ends the next day, as the server reads it.
public struct QuietHoursSpec: Equatable, Sendable {
    /// 1 is Sunday … 7 Saturday, ascending, each once.
    public var weekdays: [Int]
    /// `HH:MM`.
    public var from: String
    public var to: String

    static let dayNames = CalendarSpec.weekdayNames

    static func parse(_ text: String, command: String) throws(UsageError) -> QuietHoursSpec {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw UsageError("--quiet '\(text)': give the days and the hours, such as \"mon-fri 22:00-07:00\"", command: command)
        }
        let weekdays = try days(String(parts[0]).lowercased(), text: text, command: command)
        let times = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let from = clock(times[0]), let to = clock(times[1]) else {
            throw UsageError("--quiet '\(text)': the hours are two times such as 22:00-07:00", command: command)
        }
        guard from != to else { throw UsageError("--quiet '\(text)': the period starts and ends at the same time", command: command) }
        return QuietHoursSpec(weekdays: weekdays, from: from, to: to)
    }

    private static func days(_ text: String, text whole: String, command: String) throws(UsageError) -> [Int] {
        switch text {
        case "daily": return Array(1...7)
        case "weekdays": return Array(2...6)
        case "weekends": return [1, 7]
        default: break
        }
        var chosen = Set<Int>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = ends.compactMap { dayNames.firstIndex(of: String($0)).map { $0 + 1 } }
            guard numbers.count == ends.count, (1...2).contains(numbers.count) else {
                throw UsageError("--quiet '\(whole)': '\(item)' is not a day (sun … sat) or a range of days (mon-fri)", command: command)
            }
            var day = numbers[0]
            chosen.insert(day)
            // A range in week order, wrapping past Saturday (fri-mon is Friday to Monday).
            while numbers.count == 2, day != numbers[1] {
                day = day % 7 + 1
                chosen.insert(day)
            }
        }
        return chosen.sorted()
    }

    /// Weekdays (1 Sunday … 7 Saturday) as `--quiet` takes them: `daily`, `weekdays`, `weekends`, or names
    /// and ranges from Monday (`mon-wed,fri`, `sat,sun`).
    static func daysText(_ weekdays: [Int]) -> String {
        let days = Set(weekdays.filter { (1...7).contains($0) })
        switch days {
        case Set(1...7): return "daily"
        case Set(2...6): return "weekdays"
        case [1, 7]: return "weekends"
        default: break
        }
        // Runs of consecutive days in the order Monday … Sunday.
        let order = [2, 3, 4, 5, 6, 7, 1]
        var runs: [[Int]] = []
        for day in order where days.contains(day) {
            if let last = runs.last?.last, order.firstIndex(of: last)! + 1 == order.firstIndex(of: day)! {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        // A run through Sunday goes on into Monday's (sun-tue), as `--quiet` reads a wrapping range.
        if runs.count > 1, runs[runs.count - 1].last == 1, runs[0].first == 2 {
            runs[0] = runs.removeLast() + runs[0]
        }
        return runs.map { run in
            let first = dayNames[run[0] - 1], last = dayNames[run[run.count - 1] - 1]
            return run.count == 1 ? first : run.count == 2 ? "\(first),\(last)" : "\(first)-\(last)"
        }.joined(separator: ",")
    }

    /// `H:MM` or `HH:MM` as `HH:MM`; `nil` when it is not a time of day.
    private static func clock(_ text: Substring) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        return (hour < 10 ? "0" : "") + String(hour) + ":" + parts[1]
    }
}
