import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A time zone read straight from its tzdata file (`/usr/share/zoneinfo/<name>`, RFC 8536 TZif), with the
/// POSIX TZ rule of its footer for the years after its last transition: an independent source of UTC
/// offsets for the calendar references, sharing nothing with Foundation's `TimeZone` or Chime's
/// `ZoneOffsetTable`. Civil dates are converted with the C library (`timegm`, `gmtime_r`).
struct TZifZone {
    let name: String
    /// Explicit transitions (instants, ascending) and the offset from each on.
    private let transitions: [Int]
    private let offsetsAfter: [Int]
    /// The offset before the first transition (RFC 8536: the first time type).
    private let initialOffset: Int
    private let rule: PosixRule?

    init(_ name: String) throws {
        self.name = name
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name)))
        var reader = ByteReader(bytes: bytes)
        // Skip the version 1 block (32-bit times), then read the version 2+ block (64-bit).
        let first = try reader.header()
        reader.position += first.timeCount * 4 + first.timeCount + first.typeCount * 6 + first.charCount + first.leapCount * 8
            + first.isStdCount + first.isUTCount
        let header = try reader.header()
        let times = (0..<header.timeCount).map { _ in reader.int64() }
        let indices = (0..<header.timeCount).map { _ in Int(reader.byte()) }
        let types = (0..<header.typeCount).map { _ -> Int in
            let offset = Int(reader.int32())
            reader.position += 2  // isdst, designation index
            return offset
        }
        reader.position += header.charCount + header.leapCount * 12 + header.isStdCount + header.isUTCount
        let footer = String(decoding: bytes[min(reader.position, bytes.count)...], as: UTF8.self).trimmingCharacters(in: .newlines)
        transitions = times
        offsetsAfter = indices.map { types[$0] }
        initialOffset = types.first ?? 0
        rule = footer.isEmpty ? nil : try PosixRule(footer)
    }

    /// The offset from UTC, in seconds, at `instant` (seconds since 1970).
    func offset(at instant: Int) -> Int {
        if let last = transitions.last, instant >= last, let rule {
            return rule.offset(at: instant)
        }
        if transitions.isEmpty { return rule?.offset(at: instant) ?? initialOffset }
        guard instant >= transitions[0] else { return initialOffset }
        var low = 0
        var high = transitions.count  // first index with transitions[index] > instant
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        return offsetsAfter[low - 1]
    }

    /// The first instant after `instant` at which the offset may change (a transition, explicit or by the
    /// rule); `Int.max` when none follows.
    func nextChange(after instant: Int) -> Int {
        var low = 0
        var high = transitions.count  // first index with transitions[index] > instant
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        if low < transitions.count { return transitions[low] }
        return rule?.nextChange(after: instant) ?? Int.max
    }
}

/// A POSIX TZ string as tzdata writes in a TZif footer: `EST5EDT,M3.2.0,M11.1.0`,
/// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`, `IST-1GMT0,M10.5.0,M3.5.0/1` (negative DST), times from −167 to
/// 167 hours (`M9.1.6/24`, `M3.5.0/-1`).
struct PosixRule {
    struct Change {
        var month: Int
        var week: Int
        var weekday: Int
        var time: Int
    }

    var standardOffset: Int
    var daylight: (offset: Int, start: Change, end: Change)?

    init(_ text: String) throws {
        var scanner = Array(text.utf8)[...]
        func name() throws {
            if scanner.first == UInt8(ascii: "<") {
                guard let close = scanner.firstIndex(of: UInt8(ascii: ">")) else { throw ReadError("bad name in \(text)") }
                scanner = scanner[(close + 1)...]
            } else {
                let letters = scanner.prefix { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
                guard letters.count >= 3 else { throw ReadError("bad name in \(text)") }
                scanner = scanner.dropFirst(letters.count)
            }
        }
        func number() -> Int {
            let digits = scanner.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            scanner = scanner.dropFirst(digits.count)
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        /// [+-]hh[:mm[:ss]] in seconds.
        func duration() -> Int {
            var sign = 1
            if scanner.first == UInt8(ascii: "-") { sign = -1; scanner = scanner.dropFirst() } else if scanner.first == UInt8(ascii: "+") { scanner = scanner.dropFirst() }
            var seconds = number() * 3600
            if scanner.first == UInt8(ascii: ":") { scanner = scanner.dropFirst(); seconds += number() * 60 }
            if scanner.first == UInt8(ascii: ":") { scanner = scanner.dropFirst(); seconds += number() }
            return sign * seconds
        }
        func change() throws -> Change {
            guard scanner.first == UInt8(ascii: ",") else { throw ReadError("expected a rule in \(text)") }
            scanner = scanner.dropFirst()
            guard scanner.first == UInt8(ascii: "M") else { throw ReadError("only Mm.w.d rules are read: \(text)") }
            scanner = scanner.dropFirst()
            let month = number()
            scanner = scanner.dropFirst()
            let week = number()
            scanner = scanner.dropFirst()
            let weekday = number()
            var time = 7200
            if scanner.first == UInt8(ascii: "/") { scanner = scanner.dropFirst(); time = duration() }
            return Change(month: month, week: week, weekday: weekday, time: time)
        }
        try name()
        // POSIX offsets count west of Greenwich: EST5 is UTC−5.
        standardOffset = -duration()
        guard !scanner.isEmpty else { return }
        try name()
        var daylightOffset = standardOffset + 3600
        if let next = scanner.first, next != UInt8(ascii: ",") { daylightOffset = -duration() }
        let start = try change()
        let end = try change()
        guard scanner.isEmpty else { throw ReadError("unread text in \(text)") }
        daylight = (daylightOffset, start, end)
    }

    /// The instant, in year `year`, of `change` on the clock of `offset` (the offset in force before it).
    static func instant(of change: Change, year: Int, offset: Int) -> Int {
        let firstOfMonth = civilSeconds(year: year, month: change.month, day: 1)
        let firstWeekday = weekday(firstOfMonth)  // 0 = Sunday
        var day = 1 + (change.weekday - firstWeekday + 7) % 7 + (change.week - 1) * 7
        let length = (civilSeconds(year: change.month == 12 ? year + 1 : year, month: change.month % 12 + 1, day: 1) - firstOfMonth) / 86_400
        while day > length { day -= 7 }
        return firstOfMonth + (day - 1) * 86_400 + change.time - offset
    }

    func offset(at instant: Int) -> Int {
        guard let daylight else { return standardOffset }
        let year = civilYear(instant)
        // The last change at or before the instant, among the changes of the years around it.
        var latest: (instant: Int, offset: Int)?
        for candidateYear in (year - 1)...(year + 1) {
            let start = Self.instant(of: daylight.start, year: candidateYear, offset: standardOffset)
            let end = Self.instant(of: daylight.end, year: candidateYear, offset: daylight.offset)
            for (when, offset) in [(start, daylight.offset), (end, standardOffset)] where when <= instant {
                if latest == nil || when > latest!.instant { latest = (when, offset) }
            }
        }
        return latest?.offset ?? standardOffset
    }

    func nextChange(after instant: Int) -> Int? {
        guard let daylight else { return nil }
        let year = civilYear(instant)
        return ((year - 1)...(year + 1)).flatMap { candidateYear in
            [Self.instant(of: daylight.start, year: candidateYear, offset: standardOffset),
             Self.instant(of: daylight.end, year: candidateYear, offset: daylight.offset)]
        }.filter { $0 > instant }.min()
    }
}

// MARK: - Civil time through the C library

/// Seconds since 1970 of 00:00:00 UTC on the given proleptic Gregorian date (`timegm`).
func civilSeconds(year: Int, month: Int, day: Int) -> Int {
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    return Int(timegm(&parts))
}

/// The UTC calendar fields of `instant` (`gmtime_r`): year, month 1–12, day, weekday 0 = Sunday, and the
/// seconds since midnight.
func civilFields(_ instant: Int) -> (year: Int, month: Int, day: Int, weekday: Int, secondOfDay: Int) {
    var time = time_t(instant)
    var parts = tm()
    gmtime_r(&time, &parts)
    return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_wday),
            Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec))
}

func civilYear(_ instant: Int) -> Int { civilFields(instant).year }

func weekday(_ instant: Int) -> Int { civilFields(instant).weekday }

struct ReadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    struct Header {
        var isUTCount, isStdCount, leapCount, timeCount, typeCount, charCount: Int
    }

    mutating func header() throws -> Header {
        guard position + 44 <= bytes.count, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { throw ReadError("not a TZif file") }
        position += 20
        let counts = (0..<6).map { _ in Int(int32()) }
        return Header(isUTCount: counts[0], isStdCount: counts[1], leapCount: counts[2], timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    mutating func int32() -> Int32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(byte()) }
        return Int32(bitPattern: value)
    }

    mutating func int64() -> Int {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int(Int64(bitPattern: value))
    }
}
