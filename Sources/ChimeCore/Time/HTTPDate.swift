public import Foundation

/// HTTP's dates (RFC 9110 §5.6.7), as in `Retry-After` and `Date`: written as IMF-fixdate
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and read in all three forms a recipient must accept — IMF-fixdate, the
/// obsolete RFC 850 form `Sunday, 06-Nov-94 08:49:37 GMT` and C's asctime form `Sun Nov  6 08:49:37 1994`.
///
/// Reading follows the grammar exactly (names are case-sensitive, fields have fixed widths) and checks that
/// the date exists; the day name must be one, but need not be the date's own (the RFC asks recipients to
/// be robust, and the date alone names the instant). A leap second (`:60`) reads as the next minute's
/// start, since POSIX time does not count it.
public enum HTTPDate {
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longDayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or `nil` when it is none of the three forms. `now` decides the century of
    /// an RFC 850 two-digit year: a date that would lie more than 50 years after `now` is the one a century
    /// before (RFC 9110 §5.6.7).
    public static func parse(_ text: some StringProtocol, now: Date = Date()) -> Date? {
        var reader = Reader(Array(text.utf8))
        let fields: (year: Int, month: Int, day: Int, time: Int)?
        if reader.name(in: dayNames) != nil, reader.literal(",") {
            fields = reader.imfFixdate()
        } else if reader.rewound(), reader.name(in: longDayNames) != nil, reader.literal(",") {
            fields = reader.rfc850(now: now)
        } else if reader.rewound(), reader.name(in: dayNames) != nil, reader.literal(" ") {
            fields = reader.asctime()
        } else {
            fields = nil
        }
        guard let fields, reader.atEnd, fields.year >= 1, (1...12).contains(fields.month),
            (1...CivilDate.daysInMonth(year: fields.year, month: fields.month)).contains(fields.day)
        else { return nil }
        let days = CivilDate(year: fields.year, month: fields.month, day: fields.day).daysSinceEpoch
        let date = Date(timeIntervalSince1970: TimeInterval(days * 86_400 + fields.time))
        // A leap second on the last day of 9999 would name the year 10000.
        return InstantText.supportedRange.contains(date) ? date : nil
    }

    /// `date` as IMF-fixdate, to the second below it: `Sun, 06 Nov 1994 08:49:37 GMT`. Years run 0001–9999
    /// in this form; a date outside them is written as the nearest end.
    public static func format(_ date: Date) -> String {
        let range = InstantText.supportedRange
        let seconds = Int(min(max(date, range.lowerBound), range.upperBound).timeIntervalSince1970.rounded(.down))
        let days = floorDivide(seconds, 86_400)
        let time = floorModulo(seconds, 86_400)
        let civil = CivilDate(daysSinceEpoch: days)
        return "\(dayNames[CivilDate.weekday(daysSinceEpoch: days) - 1]), \(InstantText.pad(civil.day, 2)) \(monthNames[civil.month - 1]) \(InstantText.pad(civil.year, 4)) "
            + "\(InstantText.pad(time / 3600, 2)):\(InstantText.pad(time / 60 % 60, 2)):\(InstantText.pad(time % 60, 2)) GMT"
    }

    /// A cursor over the field's bytes; each reading step either takes what it expects or fails.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        /// Back to the start, to try another form; always true, so it chains in a condition.
        mutating func rewound() -> Bool {
            index = 0
            return true
        }

        mutating func literal(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return false }
            index += expected.count
            return true
        }

        /// The position (0-based) of the name in `names` that comes next.
        mutating func name(in names: [String]) -> Int? {
            for (position, name) in names.enumerated() where literal(name) { return position }
            return nil
        }

        mutating func digits(_ count: Int) -> Int? {
            fixedDigits(bytes, at: &index, count: count)
        }

        /// `HH:MM:SS` as seconds into the day; 60 seconds is a leap second.
        mutating func timeOfDay() -> Int? {
            guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2),
                hour <= 23, minute <= 59, second <= 60
            else { return nil }
            return hour * 3600 + minute * 60 + second
        }

        /// After `Sun,`: ` 06 Nov 1994 08:49:37 GMT`.
        mutating func imfFixdate() -> (year: Int, month: Int, day: Int, time: Int)? {
            guard literal(" "), let day = digits(2), literal(" "), let month = name(in: HTTPDate.monthNames), literal(" "),
                let year = digits(4), literal(" "), let time = timeOfDay(), literal(" GMT")
            else { return nil }
            return (year, month + 1, day, time)
        }

        /// After `Sunday,`: ` 06-Nov-94 08:49:37 GMT`.
        mutating func rfc850(now: Date) -> (year: Int, month: Int, day: Int, time: Int)? {
            guard literal(" "), let day = digits(2), literal("-"), let month = name(in: HTTPDate.monthNames), literal("-"),
                let twoDigits = digits(2), literal(" "), let time = timeOfDay(), literal(" GMT")
            else { return nil }
            // RFC 9110: a timestamp that appears more than 50 years in the future is of the most recent year
            // in the past with the same last two digits: later than now's own date and time 50 years on.
            let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
            let today = CivilDate(daysSinceEpoch: floorDivide(nowSeconds, 86_400))
            var year = today.year - today.year % 100 + twoDigits
            if (year, month + 1, day, time) > (today.year + 50, today.month, today.day, floorModulo(nowSeconds, 86_400)) { year -= 100 }
            return (year, month + 1, day, time)
        }

        /// After `Sun `: `Nov  6 08:49:37 1994` (the day is two digits or a space and one).
        mutating func asctime() -> (year: Int, month: Int, day: Int, time: Int)? {
            guard let month = name(in: HTTPDate.monthNames), literal(" ") else { return nil }
            let day: Int
            if literal(" "), let single = digits(1) {
                day = single
            } else if let double = digits(2) {
                day = double
            } else {
                return nil
            }
            guard literal(" "), let time = timeOfDay(), literal(" "), let year = digits(4) else { return nil }
            return (year, month + 1, day, time)
        }
    }
}
