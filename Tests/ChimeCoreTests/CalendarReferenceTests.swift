import ChimeTesting
import Foundation
import Testing

@testable import ChimeCore

/// Chime's calendar matcher against `ReferenceCalendarMatcher`, a reference written from the rules with
/// offsets read from tzdata files and civil dates from the C library (nothing of Foundation's): random
/// specs with and without a year, zones whose offsets have seconds, start instants anywhere in the years
/// 1–9999, and repeats enumerated fire after fire.
@Suite("Calendar trigger against an independent reference")
struct CalendarReferenceTests {
    /// The oracle's zones and some whose history is odd: local mean time with seconds (Monrovia −0:44:30
    /// until 1972, Dublin −0:25:21 until 1916), negative DST (Dublin), DST changes at −1:00 (Nuuk) and at
    /// 24:00 (Santiago), a zone whose explicit transitions run to 2087 (Casablanca). (Not Amsterdam: the
    /// system's tzdata keeps its own history, +0:19:32 until 1937, where Foundation's zone data merged it
    /// with Brussels.)
    static let zones = oracleZones + ["Africa/Monrovia", "Europe/Dublin", "Africa/Casablanca", "America/Caracas", "Asia/Kolkata"]

    /// The reference's offsets are read independently from the same tzdata Foundation reads: where both
    /// cover (1900–2199), they must agree, or the reference is wrong.
    @Test func theReferenceZonesAgreeWithTheSystemsOffsets() throws {
        var generator = SeededGenerator(seed: 7)
        for name in Self.zones {
            let reference = ReferenceCalendarMatcher.zone(named: name)
            let system = try #require(TimeZone(identifier: name))
            for _ in 0..<300 {
                let instant = Int.random(in: -2_208_988_800..<7_258_118_400, using: &generator)
                #expect(reference.offset(at: instant) == system.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))), "\(name) at \(instant)")
            }
        }
    }

    /// The issue's reproducers, each of which Foundation's fallback got wrong.
    @Test func datedTriggersFireOnTheirDatesOnlyInEveryYear() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        func fires(_ components: DateComponents, after text: String, count: Int = 3, in zone: TimeZone = utc) throws -> [String] {
            try CalendarTrigger(dateMatching: components, repeats: true)
                .nextFireDates(after: InstantText.parse(text), count: count, floatingTimeZone: zone).map(InstantText.utc)
        }
        // A repeating trigger with a year goes on after its first fire.
        #expect(try fires(DateComponents(year: 2026, hour: 8), after: "2026-05-01T00:00:00Z")
            == ["2026-05-01T08:00:00Z", "2026-05-02T08:00:00Z", "2026-05-03T08:00:00Z"])
        // A one-off dated trigger asked after its date never fires (not on the 1st of the next month).
        let once = try CalendarTrigger(dateMatching: DateComponents(year: 2026, month: 4, day: 1, hour: 9), repeats: false)
        #expect(once.nextTriggerDate(after: try InstantText.parse("2026-04-02T10:00:00Z"), floatingTimeZone: utc) == nil)
        // Dates that do not exist never fire, in any century.
        #expect(try fires(DateComponents(month: 2, day: 29, hour: 1, minute: 34), after: "2190-01-01T00:00:00Z")
            == ["2192-02-29T01:34:00Z", "2196-02-29T01:34:00Z", "2204-02-29T01:34:00Z"])
        #expect(try fires(DateComponents(day: 31), after: "2199-10-01T00:00:00Z", count: 4)
            == ["2199-10-31T00:00:00Z", "2199-12-31T00:00:00Z", "2200-01-31T00:00:00Z", "2200-03-31T00:00:00Z"])
        // A year alone is its first instant; the last year ends the enumeration.
        #expect(try fires(DateComponents(year: 2027), after: "2026-12-03T00:00:00Z") == ["2027-01-01T00:00:00Z"])
        #expect(try fires(DateComponents(month: 12, day: 31, hour: 23), after: "9998-01-01T00:00:00Z")
            == ["9998-12-31T23:00:00Z", "9999-12-31T23:00:00Z"])
        // Local mean time with seconds: 08:00 in Monrovia in 1971 is 08:44:30 UTC.
        #expect(try fires(DateComponents(hour: 8), after: "1971-01-01T00:00:00Z", count: 1, in: try #require(TimeZone(identifier: "Africa/Monrovia")))
            == ["1971-01-01T08:44:30Z"])
    }

    @Test func agreesWithTheReferenceOnRandomSpecsZonesAndYears() async throws {
        var generator = SeededGenerator(seed: 0x2026_1203)
        var failures: [String] = []
        var tried = 0
        var fired = 0
        while tried < 4_000 {
            let components = Self.randomComponents(using: &generator)
            guard let trigger = try? CalendarTrigger(dateMatching: components, repeats: true) else { continue }
            tried += 1
            if tried % 100 == 0 { await Task.yield() }
            let name = Self.zones.randomElement(using: &generator)!
            let zone = TimeZone(identifier: name)!
            let start = Self.randomStart(for: components, zone: name, using: &generator)
            let ours = trigger.nextFireDates(after: start, count: 3, floatingTimeZone: zone)
            let reference = ReferenceCalendarMatcher(components: components, zone: zone).fires(after: start, count: 3)
            fired += ours.isEmpty ? 0 : 1
            if ours != reference, failures.count < 20 {
                failures.append("\(name) \(components) after \(InstantText.utc(start)): chime \(ours.map(InstantText.utc)), reference \(reference.map(InstantText.utc))")
            }
        }
        print("calendar reference: \(tried) cases, \(fired) with fires, \(failures.count) failures")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(fired > tried / 2, "most cases must fire, or they prove little")
    }

    // MARK: Generating

    static func randomComponents(using g: inout SeededGenerator) -> DateComponents {
        var c = DateComponents()
        if Int.random(in: 0..<100, using: &g) < 45 {
            c.year = [Int.random(in: 1...9999, using: &g), Int.random(in: 2020...2040, using: &g), Int.random(in: 1800...1975, using: &g),
                      Int.random(in: 9990...9999, using: &g)].randomElement(using: &g)!
        }
        if Int.random(in: 0..<100, using: &g) < 30 { c.month = Int.random(in: 1...12, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 30 { c.day = Bool.random(using: &g) ? Int.random(in: 28...31, using: &g) : Int.random(in: 1...31, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 5 { (c.month, c.day) = (2, 29) }
        if Int.random(in: 0..<100, using: &g) < 20 { c.weekday = Int.random(in: 1...7, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 60 { c.hour = Bool.random(using: &g) ? Int.random(in: 0...3, using: &g) : Int.random(in: 0...23, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 55 { c.minute = [0, 30, 45, 59, Int.random(in: 0...59, using: &g)].randomElement(using: &g)! }
        if Int.random(in: 0..<100, using: &g) < 20 { c.second = Int.random(in: 0...59, using: &g) }
        if c == DateComponents() { c.hour = 8 }
        return c
    }

    /// Anywhere in 1–9999, in the spec's year, near today, or near one of the zone's offset changes.
    static func randomStart(for c: DateComponents, zone: String, using g: inout SeededGenerator) -> Date {
        let first = civilSeconds(year: 1, month: 1, day: 1)
        let last = civilSeconds(year: 9999, month: 12, day: 31)
        var instant: Int
        switch Int.random(in: 0..<4, using: &g) {
        case 0: instant = Int.random(in: first...last, using: &g)
        case 1:
            let year = c.year ?? Int.random(in: 1...9999, using: &g)
            instant = civilSeconds(year: year, month: 1, day: 1) + Int.random(in: -86_400 * 40...86_400 * 370, using: &g)
        case 2: instant = Int.random(in: 1_700_000_000...2_100_000_000, using: &g)
        default:
            let around = Int.random(in: -2_500_000_000...8_000_000_000, using: &g)
            let change = ReferenceCalendarMatcher.zone(named: zone).nextChange(after: around)
            instant = change == Int.max ? around : change + Int.random(in: -10_800...10_800, using: &g)
        }
        instant = min(max(instant, first), last)
        return Date(timeIntervalSince1970: Double(instant) + (Bool.random(using: &g) ? 0 : 0.25))
    }
}
