import ChimeCore
import ChimeDelivery
import ChimeTestSupport
import Foundation
import Testing

/// HTTP dates (RFC 9110 §5.6.7) and `Retry-After` (§10.2.3): the RFC's own examples, what the grammar
/// refuses, and 3,000 instants from year 1 to 9999 in all three forms against an independent judge
/// (`http_date_oracle.py`: the C library's `gmtime` writes them, `calendar.timegm` reads the two-digit years).
@Suite("HTTP dates and Retry-After")
struct HTTPDateTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("http_date_oracle.py").path
    /// 2026-12-07T10:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_796_637_600)

    /// RFC 9110's example, in its three forms, is one instant: 1994-11-06T08:49:37Z.
    @Test func theRFCsExampleReadsTheSameInEveryForm() {
        let instant = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == instant)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == instant)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: Self.now) == instant)
        #expect(HTTPDate.format(instant) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(instant.addingTimeInterval(0.999)) == "Sun, 06 Nov 1994 08:49:37 GMT", "to the second below")
    }

    @Test(arguments: [
        "Sun, 6 Nov 1994 08:49:37 GMT",  // the day has two digits
        "sun, 06 Nov 1994 08:49:37 GMT",  // names are case-sensitive
        "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC",  // only GMT
        "Sun, 06 Nov 1994 08:49:37 GMT ",  // nothing after it (the field's own spaces are the caller's)
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 31 Feb 1994 08:49:37 GMT",  // no such day
        "Sun, 29 Feb 1900 08:49:37 GMT",  // 1900 was not a leap year
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 0000 08:49:37 GMT",  // years start at 1
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sunday, 06 Nov 1994 08:49:37 GMT",  // a long day name belongs to the RFC 850 form
        "Sun, 06-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sun Nov 6 08:49:37 1994",  // asctime pads a one-digit day with a space
        "Sun Nov  6 08:49:37 94",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "", "GMT", "1994-11-06T08:49:37Z",
    ])
    func theGrammarRefuses(_ text: String) {
        #expect(HTTPDate.parse(text, now: Self.now) == nil, "\(text)")
    }

    /// RFC 850's two-digit years: more than 50 years after now, by the instant, is the century before.
    @Test func twoDigitYearsFollowTheFiftyYearRule() {
        let newYear2026 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        #expect(HTTPDate.parse("Thursday, 31-Dec-75 23:59:59 GMT", now: newYear2026) == HTTPDate.parse("Thu, 31 Dec 2075 23:59:59 GMT"))
        #expect(HTTPDate.parse("Friday, 01-Jan-76 00:00:00 GMT", now: newYear2026) == HTTPDate.parse("Fri, 01 Jan 2076 00:00:00 GMT"), "exactly 50 years")
        #expect(HTTPDate.parse("Thursday, 31-Dec-76 23:59:59 GMT", now: newYear2026) == HTTPDate.parse("Fri, 31 Dec 1976 23:59:59 GMT"), "past 50 years")
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: newYear2026) == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:60 GMT") == nil, "a leap second into the year 10000")
        // On 29 February the limit is that date 50 years on, not the 28th.
        let leapDay = Date(timeIntervalSince1970: 2_466_590_400)  // 2048-02-29T12:00:00Z
        #expect(HTTPDate.parse("Friday, 28-Feb-98 18:00:00 GMT", now: leapDay) == HTTPDate.parse("Fri, 28 Feb 2098 18:00:00 GMT"))
    }

    /// The day name need not be the date's own (the date names the instant); a leap second is the next
    /// minute's start.
    @Test func aWrongDayNameAndALeapSecondStillName() {
        #expect(HTTPDate.parse("Mon, 06 Nov 1994 08:49:37 GMT", now: Self.now) == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT", now: Self.now) == HTTPDate.parse("Sun, 01 Jan 2017 00:00:00 GMT", now: Self.now))
    }

    /// Random instants over the whole calendar, and `now`s that put the two-digit years on either side of
    /// the 50-year line, agree with the judge in all three forms; what `format` writes is the judge's text.
    @Test func thousandsOfInstantsAgreeWithTheJudge() async throws {
        var generator = SystemRandomNumberGenerator()
        let first = Int(InstantText.supportedRange.lowerBound.timeIntervalSince1970)
        let last = Int(InstantText.supportedRange.upperBound.timeIntervalSince1970)
        var cases: [(seconds: Int, now: Int)] = (0..<3000).map { _ in
            (Int.random(in: first...last, using: &generator), Int.random(in: 0...4_102_444_800, using: &generator))
        }
        // 2000-02-29, whose RFC 850 form read in 1970 is 1900's, which had no such day; 1900-03-01.
        cases += [(first, 0), (last, 0), (0, 0), (951_782_400, 0), (951_782_400, 1_796_637_600), (-2_203_891_200, 1_796_637_600)]
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("chime-http-dates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(cases.map { "\($0.seconds) \($0.now)\n" }.joined().utf8).write(to: input)
        let judged = try await Subprocess.run("/usr/bin/python3", [Self.oracle, input.path])
        #expect(judged.status == 0, "\(judged.standardError)")
        let lines = judged.standardOutput.split(separator: "\n")
        try #require(lines.count == cases.count, "the judge answered for each instant")
        var disagreements: [String] = []
        for (instant, line) in zip(cases, lines) {
            let forms = line.split(separator: "|").map(String.init)
            let date = Date(timeIntervalSince1970: TimeInterval(instant.seconds))
            let now = Date(timeIntervalSince1970: TimeInterval(instant.now))
            if HTTPDate.parse(forms[0], now: now) != date { disagreements.append("\(forms[0]) read as \(String(describing: HTTPDate.parse(forms[0], now: now)))") }
            if HTTPDate.format(date) != forms[0] { disagreements.append("\(instant.seconds) written as \(HTTPDate.format(date)), not \(forms[0])") }
            if HTTPDate.parse(forms[2], now: now) != date { disagreements.append("\(forms[2]) read as \(String(describing: HTTPDate.parse(forms[2], now: now)))") }
            let named = Int(forms[3]).map { Date(timeIntervalSince1970: TimeInterval($0)) }
            if HTTPDate.parse(forms[1], now: now) != named {
                disagreements.append("\(forms[1]) at \(instant.now) read as \(String(describing: HTTPDate.parse(forms[1], now: now))), not \(String(describing: named))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(10))")
    }

    @Test func retryAfterIsSecondsOrADate() {
        let now = Self.now.addingTimeInterval(0.25)
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds(" 0\r\n", now: now) == 0)
        #expect(RetryAfter.seconds("99999999999999999999999999", now: now) == RetryAfter.maximumSeconds, "more digits than an Int holds is a long pause")
        #expect(RetryAfter.seconds(String(RetryAfter.maximumSeconds + 1), now: now) == RetryAfter.maximumSeconds)
        for refused in ["-1", "+5", "1.5", "5s", "", "soon", "0x10", "٣"] {
            #expect(RetryAfter.seconds(refused, now: now) == nil, "\(refused)")
        }
        // 90 s after `now`'s second: 89.75 s from `now`, a pause of 90 (never shorter than asked).
        #expect(RetryAfter.seconds(HTTPDate.format(Self.now.addingTimeInterval(90)), now: now) == 90)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0, "a date already past is no pause")
        #expect(RetryAfter.seconds("Fri, 31 Dec 9999 23:59:59 GMT", now: now) == RetryAfter.maximumSeconds)
        #expect(RetryAfter.seconds(headerLine: "retry-after: 7\r\n", now: now) == 7)
        #expect(RetryAfter.seconds(headerLine: "X-Retry-After: 7\r\n", now: now) == nil)
        #expect(RetryAfter.seconds(headerLine: "HTTP/1.1 503 Service Unavailable\r\n", now: now) == nil)
    }
}
