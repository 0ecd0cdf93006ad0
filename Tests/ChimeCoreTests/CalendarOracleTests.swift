import ChimeTesting
import Foundation
import Testing

@testable import ChimeCore

/// Compares `CalendarTrigger.nextTriggerDate(after:)` with Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime, repeatedTimePolicy: .first)` on generated
/// cases. Where they differ, Chime's answer must equal `ReferenceCalendarMatcher`'s (a naive walk over real
/// dates and instants that implements Chime's documented rules on tzdata's own offsets, nothing of
/// Foundation's), and the difference must be one of Chime's deliberate ones:
///
/// 1. **Dates that do not exist never match.** Foundation moves "the 31st" in a 30-day month, and February
///    29 in a common year, to the 1st of the next month; Chime waits for the next real match ("matches only
///    the given components").
/// 2. **A month with a weekday is every such weekday of the month.** Foundation gives only the first one.
/// 3. **A time repeated by a DST change fires once.** Asked from inside the repeated hour, after the first
///    occurrence of a daily time, Foundation returns its second occurrence; Chime has already fired it.
/// 4. **A time skipped by a DST gap fires at the first instant after the gap.** Foundation does so when the
///    hour is given, but shifts the time by the gap's length when the hour is implicit (`day: 30,
///    minute: 30` on a day whose midnight is skipped fires at 01:30, not 01:00).
/// 5. **DST changes that are not a whole hour** (Lord Howe's 30 minutes, Chatham's 02:45 changes): there
///    Foundation sometimes skips a whole day or returns a time that does not match the components; Chime
///    follows the same rules as everywhere else. Accepted only in those zones.
/// 6. **A year changes nothing else.** With a year, Foundation neither fixes the components below the
///    highest one given (`year: 2033, month: 1, hour: 2` fires every day of January) nor answers from inside
///    a unit that just matched (a repeating `year: 2026, hour: 8` stops after one fire); Chime applies the
///    same rules as without a year, within that year.
///
/// A sample of the cases where Chime and Foundation agree is also checked against the reference, so the
/// reference itself is held to Foundation.
@Suite("Calendar trigger oracle")
struct CalendarOracleTests {
    struct Case: CustomStringConvertible {
        var zone: String
        var components: DateComponents
        var start: Date

        var description: String {
            "\(zone) \(components) after \(start.timeIntervalSince1970) (\(start))"
        }
    }

    enum Verdict: String, Hashable, CaseIterable {
        case same, nonexistentDate, monthWithWeekday, repeatedTime, gapEnd, irregularDSTChange, yearGiven
    }

    @Test func agreesWithFoundationOnGeneratedCases() async throws {
        var generator = SeededGenerator(seed: 0xC41E)
        var counts: [Verdict: Int] = [:]
        var failures: [String] = []
        var tried = 0
        var referenceChecks = 0
        while tried < 110_000 {
            let oracleCase = Self.generateCase(using: &generator)
            guard let trigger = try? CalendarTrigger(dateMatching: oracleCase.components, repeats: true) else {
                continue  // impossible dates are rejected up front; validation has its own tests
            }
            tried += 1
            // A long computation gives way now and then: the other tests' tasks share these threads.
            if tried % 500 == 0 { await Task.yield() }
            let zone = TimeZone(identifier: oracleCase.zone)!
            let ours = trigger.nextTriggerDate(after: oracleCase.start, floatingTimeZone: zone)
            let theirs = Self.foundation(after: oracleCase.start, oracleCase.components, zone)
            let checkReference = ours != theirs || tried % 50 == 0
            let reference = checkReference
                ? ReferenceCalendarMatcher(components: oracleCase.components, zone: zone).next(after: oracleCase.start)
                : ours
            referenceChecks += checkReference ? 1 : 0
            let verdict = reference == ours ? Self.classify(ours: ours, theirs: theirs, oracleCase, zone) : nil
            if let verdict {
                counts[verdict, default: 0] += 1
            } else if failures.count < 25 {
                failures.append("\(oracleCase): chime \(ours.map(\.description) ?? "nil"), foundation \(theirs.map(\.description) ?? "nil"), reference \(reference.map(\.description) ?? "nil")")
            }
        }
        let summary = Verdict.allCases.map { "\($0.rawValue) \(counts[$0, default: 0])" }.joined(separator: ", ")
        print("calendar oracle: \(tried) cases, \(referenceChecks) checked against the reference; \(summary); failures \(tried - counts.values.reduce(0, +))")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(counts[.same, default: 0] > tried * 9 / 10)
        // Each deliberate difference must actually be exercised, or this test no longer proves it.
        for verdict in Verdict.allCases {
            #expect(counts[verdict, default: 0] > 0, "no case exercised \(verdict)")
        }
    }

    // MARK: Judging

    static func foundation(after date: Date, _ components: DateComponents, _ zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = components
        components.timeZone = nil
        return calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime, repeatedTimePolicy: .first)
    }

    /// Why Foundation's answer differs from Chime's (already confirmed by the reference), or `nil` when the
    /// difference is none of the deliberate ones.
    static func classify(ours: Date?, theirs: Date?, _ c: Case, _ zone: TimeZone) -> Verdict? {
        if ours == theirs { return .same }
        let k = c.components
        if k.year != nil { return .yearGiven }
        if k.month != nil, k.weekday != nil, k.day == nil { return .monthWithWeekday }
        guard let theirs else { return .nonexistentDate }  // Foundation gave up on a rare date
        if !matchesDateComponents(theirs, c, zone) { return .nonexistentDate }
        if isWallClock(c), isSecondOccurrence(theirs, zone) { return .repeatedTime }
        if ["Australia/Lord_Howe", "Pacific/Chatham"].contains(c.zone) { return .irregularDSTChange }
        if isWallClock(c), wantedTimeIsInGap(near: theirs, c, zone) || ours.map({ wantedTimeIsInGap(near: $0, c, zone) }) == true {
            return .gapEnd
        }
        return nil
    }

    static func isWallClock(_ c: Case) -> Bool {
        ReferenceCalendarMatcher(components: c.components, zone: TimeZone(identifier: "UTC")!).isWallClock
    }

    static func matchesDateComponents(_ date: Date, _ c: Case, _ zone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let actual = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let wanted = c.components
        return (wanted.year == nil || wanted.year == actual.year)
            && (wanted.month == nil || wanted.month == actual.month)
            && (wanted.day == nil || wanted.day == actual.day)
            && (wanted.weekday == nil || wanted.weekday == actual.weekday)
    }

    /// Whether the wall clock already showed this time once, before a DST change set it back.
    static func isSecondOccurrence(_ date: Date, _ zone: TimeZone) -> Bool {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        return [1800.0, 3600, 7200].contains { shift in
            let earlier = date.addingTimeInterval(-shift)
            return earlier.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: earlier)) == local
        }
    }

    /// Whether the wanted time of day, on the local date of `date` or the day before, fell in a DST gap.
    static func wantedTimeIsInGap(near date: Date, _ c: Case, _ zone: TimeZone) -> Bool {
        let wantedTimeOfDay = (c.components.hour ?? 0) * 3600 + (c.components.minute ?? 0) * 60 + (c.components.second ?? 0)
        let local = Int(date.timeIntervalSince1970) + zone.secondsFromGMT(for: date)
        let midnight = local - ((local % 86_400) + 86_400) % 86_400
        return [midnight, midnight - 86_400].contains { day in
            let wanted = day + wantedTimeOfDay
            // In a gap, no instant within 15 hours shows the wanted time.
            return !stride(from: -15 * 3600, through: 15 * 3600, by: 900).contains { shift in
                let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wanted + shift)))
                let instant = wanted - offset
                return instant + zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) == wanted
            }
        }
    }

    // MARK: Generating

    static func generateCase(using g: inout SeededGenerator) -> Case {
        let zone = oracleZones.randomElement(using: &g)!
        var components = DateComponents()
        // Each field is present with its own probability; values lean towards the hard cases: the DST
        // hours, the ends of months, February 29.
        if Int.random(in: 0..<100, using: &g) < 3 { components.year = Int.random(in: 2019...2034, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 25 { components.month = Int.random(in: 1...12, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 35 {
            components.day = Bool.random(using: &g) ? Int.random(in: 28...31, using: &g) : Int.random(in: 1...31, using: &g)
        }
        if Int.random(in: 0..<100, using: &g) < 5 { (components.month, components.day) = (2, 29) }
        if Int.random(in: 0..<100, using: &g) < 25 { components.weekday = Int.random(in: 1...7, using: &g) }
        if Int.random(in: 0..<100, using: &g) < 70 {
            components.hour = Bool.random(using: &g) ? Int.random(in: 0...3, using: &g) : Int.random(in: 0...23, using: &g)
        }
        if Int.random(in: 0..<100, using: &g) < 60 {
            components.minute = [0, 15, 30, 45, 59, Int.random(in: 0...59, using: &g)].randomElement(using: &g)!
        }
        if Int.random(in: 0..<100, using: &g) < 25 { components.second = Int.random(in: 0...59, using: &g) }
        if components == DateComponents() { components.minute = 30 }
        if Int.random(in: 0..<100, using: &g) < 10 { components.timeZone = TimeZone(identifier: zone) }

        let start: Date
        let tz = TimeZone(identifier: zone)!
        let from = 1_546_300_800.0  // 2019-01-01T00:00:00Z
        let to = 2_051_222_400.0  // 2035-01-01T00:00:00Z
        let anywhere = Date(timeIntervalSince1970: Double.random(in: from..<to, using: &g).rounded(.down))
        if Int.random(in: 0..<100, using: &g) < 40, let transition = tz.nextDaylightSavingTimeTransition(after: anywhere) {
            // Near a DST change, where the rules differ; sometimes on a whole second, sometimes not.
            let offset = Double(Int.random(in: -10_800...10_800, using: &g))
            start = transition.addingTimeInterval(Bool.random(using: &g) ? offset : offset + 0.25)
        } else {
            start = anywhere
        }
        return Case(zone: zone, components: components, start: start)
    }
}
