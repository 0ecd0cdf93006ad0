import ChimeCore
import ChimeTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Instants as text, checked against the C library's `gmtime_r`/`timegm` (not Foundation, not Chime's own
/// date arithmetic) over the whole calendar Chime keeps.
@Suite("Instants as text")
struct InstantTextTests {
    /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SS` by glibc.
    static func reference(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    }

    @Test func writingAndReadingAgreeWithTheCLibraryAcrossYears1To9999() throws {
        var generator = SeededGenerator(seed: 20261203)
        let first = Int(InstantText.supportedRange.lowerBound.timeIntervalSince1970)
        let last = Int(InstantText.supportedRange.upperBound.timeIntervalSince1970)
        for _ in 0..<20_000 {
            let seconds = Int.random(in: first...last, using: &generator)
            // Offsets up to ±15 h, a third of them with seconds (as zones had before 1972).
            var offset = Int.random(in: -54_000...54_000, using: &generator)
            if Int.random(in: 0..<3, using: &generator) > 0 { offset -= offset % 60 }
            let local = seconds + offset
            guard (first...last).contains(local) else { continue }
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(InstantText.utc(date) == Self.reference(seconds) + "Z")
            let text = InstantText.format(date, offset: offset)
            #expect(text.hasPrefix(Self.reference(local)), "\(text) for \(seconds) at \(offset)")
            #expect(try InstantText.parse(text) == date, "\(text)")
        }
    }

    @Test func offsetsAndFractionsAreWrittenToTheSecond() throws {
        let monrovia = Date(timeIntervalSince1970: 31_567_470)  // 1971-01-01T08:44:30Z
        #expect(InstantText.format(monrovia, offset: -2670) == "1971-01-01T08:00:00-00:44:30")
        #expect(InstantText.format(monrovia, offset: 32_400) == "1971-01-01T17:44:30+09:00")
        #expect(InstantText.utc(monrovia.addingTimeInterval(0.25)) == "1971-01-01T08:44:30.25Z")
        #expect(InstantText.utc(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.5Z")
        #expect(try InstantText.parse("1971-01-01T08:00:00-00:44:30") == monrovia)
        #expect(try InstantText.parse("1971-01-01 17:44:30.000+09:00") == monrovia)
        #expect(try InstantText.parse("0001-01-01T00:00:00Z") == InstantText.supportedRange.lowerBound)
        #expect(try InstantText.parse("2024-02-29T12:00:00z") == Date(timeIntervalSince1970: 1_709_208_000))
    }

    @Test(arguments: [
        ("2030-02-30T00:00:00Z", "February 30, 2030 does not exist (that month has 28 days)"),
        ("2100-02-29T00:00:00Z", "February 29, 2100 does not exist (that month has 28 days)"),
        ("2026-04-31T09:00:00+09:00", "April 31, 2026 does not exist (that month has 30 days)"),
        ("2026-13-01T00:00:00Z", "there is no month 13"),
        ("2026-12-01T24:00:00Z", "the time must be from 00:00:00 to 23:59:59"),
        ("2026-12-31T23:59:60Z", "the time must be from 00:00:00 to 23:59:59"),
        ("2026-12-01T09:00:00", "it has no offset"),
        ("2026-12-01T09:00:00+9:00", "the offset must be ±HH:MM"),
        ("2026-12-01T09:00:00Z trailing", "unexpected text after the offset"),
        ("0000-12-31T00:00:00Z", "years start at 0001"),
        ("9999-12-31T23:00:00-01:00", "outside the years 0001–9999"),
        ("20261201T090000Z", "expected YYYY-MM-DDTHH:MM:SS"),
        ("", "expected YYYY-MM-DDTHH:MM:SS"),
    ])
    func whatIsNotAnInstantIsRefusedSayingWhy(text: String, reason: String) {
        do {
            let date = try InstantText.parse(text)
            Issue.record("\(text) was read as \(date)")
        } catch {
            #expect(error.code == .invalidDateComponents)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }
}
