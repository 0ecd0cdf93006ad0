public import Foundation

/// Instants as text, exactly: RFC 3339 / ISO 8601 `2026-12-24T18:00:00+09:00`, read strictly and written
/// without losing a second.
///
/// Chime's calendar covers the years 1–9999 (`supportedRange`); both directions refuse or never produce
/// anything outside it. Reading checks that the local date and time exist (`2030-02-30` is refused, not
/// rolled over into March). Writing keeps offsets that are not whole minutes (Monrovia was −0:44:30 until
/// 1972) as `-00:44:30`, and fractions of a second down to microseconds, so the text names the instant
/// itself, not one a few seconds off.
public enum InstantText {
    /// 0001-01-01T00:00:00Z up to 9999-12-31T23:59:59Z (whole seconds: a Date that far from 2001 has no
    /// microseconds to spare).
    public static let supportedRange: ClosedRange<Date> = {
        let first = Date(timeIntervalSince1970: TimeInterval(CivilDate(year: 1, month: 1, day: 1).daysSinceEpoch) * 86_400)
        let last = Date(timeIntervalSince1970: TimeInterval(CivilDate(year: 10_000, month: 1, day: 1).daysSinceEpoch) * 86_400 - 1)
        return first...last
    }()

    /// The instant `text` names: `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM[:SS]` (a lower-case
    /// `t`/`z` and a space for `T` are accepted, as RFC 3339 allows).
    ///
    /// - Throws: `ChimeError.invalidDateComponents` naming what is wrong: the shape, a field out of range,
    ///   a date that does not exist, or a missing offset (a local time alone names no instant).
    public static func parse(_ text: String) throws(ChimeError) -> Date {
        let bytes = Array(text.utf8)
        var index = 0
        func fail(_ why: String) -> ChimeError {
            ChimeError(.invalidDateComponents, field: "date", "'\(text)' is not an instant such as 2026-12-24T18:00:00+09:00: \(why)")
        }
        func digits(_ count: Int) -> Int? {
            fixedDigits(bytes, at: &index, count: count)
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2), expect("Tt "),
            let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2)
        else { throw fail("expected YYYY-MM-DDTHH:MM:SS") }
        var fraction = 0.0
        if expect(".") {
            let start = index
            var scale = 0.1
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { throw fail("expected digits after the decimal point") }
        }
        let offset: Int
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2), expect(":"), let minutes = digits(2), hours <= 23, minutes <= 59 else {
                throw fail("the offset must be ±HH:MM")
            }
            // ±HH:MM:SS, as `format` writes an offset with seconds, so every instant it writes reads back.
            var seconds = 0
            if expect(":") {
                guard let value = digits(2), value <= 59 else { throw fail("the offset must be ±HH:MM") }
                seconds = value
            }
            offset = sign * (hours * 3600 + minutes * 60 + seconds)
        } else {
            throw fail(index == bytes.count ? "it has no offset (add Z for UTC, or ±HH:MM)" : "unexpected text after the seconds")
        }
        guard index == bytes.count else { throw fail("unexpected text after the offset") }
        guard year >= 1 else { throw fail("years start at 0001") }
        guard (1...12).contains(month) else { throw fail("there is no month \(month)") }
        let length = CivilDate.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            throw ChimeError(
                .invalidDateComponents, field: "date",
                "\(CalendarTrigger.monthNames[month - 1]) \(day), \(year) does not exist (that month has \(length) days)")
        }
        // 60 is a leap second, which POSIX time (and so Chime) does not count: refused rather than shifted.
        guard hour <= 23, minute <= 59, second <= 59 else { throw fail("the time must be from 00:00:00 to 23:59:59") }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        // From 2001, where a Date counts: the whole seconds exactly, then one rounding for the fraction.
        let date = Date(timeIntervalSinceReferenceDate: TimeInterval(seconds - Self.referenceOffset) + fraction)
        guard supportedRange.contains(date) else { throw fail("it lies outside the years 0001–9999") }
        return date
    }

    /// `date` in UTC: `2026-12-24T09:00:00Z`, with a fraction when it has one.
    public static func utc(_ date: Date) -> String {
        format(date, offset: 0)
    }

    /// `date` as local time at `offset` seconds east of UTC: `2026-12-24T18:00:00+09:00`; an offset with
    /// seconds is written `-00:44:30`.
    public static func format(_ date: Date, offset: Int) -> String {
        // The microsecond nearest the Date's own value: whole seconds and fraction split exactly where the
        // Date counts from (2001), so no rounding of a large product moves the last digit, and a Double's
        // last bits never print as 0.999999.
        let reference = date.timeIntervalSinceReferenceDate
        let whole = reference.rounded(.down)
        var fractionMicros = Int64(((reference - whole) * 1_000_000).rounded())
        var wholeSeconds = Int64(whole)
        if fractionMicros == 1_000_000 { (wholeSeconds, fractionMicros) = (wholeSeconds + 1, 0) }
        let micros = (wholeSeconds + Int64(Self.referenceOffset) + Int64(offset)) * 1_000_000 + fractionMicros
        let seconds = Int(floorDivide64(micros, 1_000_000))
        let fraction = Int(micros - Int64(seconds) * 1_000_000)
        let civil = CivilDate(daysSinceEpoch: floorDivide(seconds, 86_400))
        let time = floorModulo(seconds, 86_400)
        var text = pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2) + "T"
            + pad(time / 3600, 2) + ":" + pad(time / 60 % 60, 2) + ":" + pad(time % 60, 2)
        if fraction != 0 {
            var digits = pad(fraction, 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        guard offset != 0 else { return text + "Z" }
        let magnitude = abs(offset)
        text += (offset < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += ":" + pad(magnitude % 60, 2) }
        return text
    }

    /// Seconds from 1970 to 2001, where `Date` counts from.
    static let referenceOffset = 978_307_200

    /// `value` with leading zeros to `width` digits (HTTPDate writes its fields with it too).
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivide64(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
