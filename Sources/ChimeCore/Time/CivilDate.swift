/// Proleptic Gregorian calendar arithmetic on plain integers.
///
/// Days are counted from 1970-01-01 (day 0), as in Howard Hinnant's `days_from_civil` and
/// `civil_from_days` (http://howardhinnant.github.io/date_algorithms.html). These are exact for every
/// date Chime handles and cost a handful of integer operations, which is what makes trigger evaluation
/// fast: no `Calendar`, no allocation, no locks.
struct CivilDate: Hashable, Comparable, Sendable {
    var year: Int
    var month: Int  // 1...12
    var day: Int  // 1...31

    /// The date `days` after 1970-01-01.
    init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March = 0
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (negative before).
    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 1 = Sunday ... 7 = Saturday, as `Calendar.component(.weekday, ...)` numbers them.
    var weekday: Int { Self.weekday(daysSinceEpoch: daysSinceEpoch) }

    static func weekday(daysSinceEpoch days: Int) -> Int {
        // 1970-01-01 was a Thursday (5).
        let r = (days + 4) % 7
        return (r < 0 ? r + 7 : r) + 1
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// Floor division and modulo for possibly negative numerators (Swift's `/` and `%` truncate).
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always)
func floorModulo(_ a: Int, _ b: Int) -> Int {
    let r = a % b
    return r != 0 && (r < 0) != (b < 0) ? r + b : r
}
