import ChimeCore
import Foundation

/// Times `CalendarTrigger.nextTriggerDate(after:floatingTimeZone:)` against Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime, repeatedTimePolicy: .first)` on the same
/// cases in the same run, and reports both per-call costs and their ratio.
///
/// The cases are what apps schedule (daily alarms, weekday reminders, monthly bills, hourly nudges,
/// birthdays, leap days) in 12 zones, from start instants spread over 2020–2034. Setup (building triggers
/// and calendars) is outside the timed loops; each loop runs the cases several times and the fastest
/// round counts, so a noisy neighbour inflates neither side.
struct CalendarTriggerBenchmark {
    var casesPerRound = 100_000
    var rounds = 3

    static let zones = [
        "America/New_York", "America/Los_Angeles", "America/Santiago", "Europe/London", "Europe/Berlin",
        "Asia/Kolkata", "Asia/Seoul", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Auckland",
        "Pacific/Chatham", "UTC",
    ]

    static let shapes: [DateComponents] = [
        DateComponents(hour: 7, minute: 30),  // daily alarm
        DateComponents(hour: 2, minute: 30),  // daily, in the DST gap hour of many zones
        DateComponents(hour: 9, minute: 0, weekday: 2),  // every Monday
        DateComponents(day: 31, hour: 12),  // monthly, skipping short months
        DateComponents(day: 1),  // first of the month
        DateComponents(month: 2, day: 29, hour: 9),  // leap day
        DateComponents(month: 12, day: 25, hour: 8),  // yearly
        DateComponents(minute: 30),  // hourly
        DateComponents(second: 0),  // every minute
        DateComponents(hour: 18, minute: 45, second: 10, weekday: 6),  // Fridays with seconds
    ]

    struct Result: Encodable {
        let workload = "calendar-next-trigger-date"
        let cases: Int
        let rounds: Int
        let foundationNanosecondsPerCall: Double
        let chimeNanosecondsPerCall: Double
        /// Foundation's time divided by Chime's: how many times faster Chime is.
        let speedup: Double
        /// Generated cases left out because the answers differ (Chime's deliberate differences, such as
        /// leap days in common years; see the oracle test).
        let differingAnswersExcluded: Int
    }

    func run() throws -> Result {
        var generator = SystemRandomNumberGenerator()
        struct Case {
            let trigger: CalendarTrigger
            let components: DateComponents
            let zone: TimeZone
            let calendar: Calendar
            let start: Date
        }
        let calendars = Dictionary(uniqueKeysWithValues: Self.zones.map { id -> (String, Calendar) in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: id)!
            return (id, calendar)
        })
        let generatedCases = try (0..<casesPerRound).map { _ -> Case in
            let components = Self.shapes.randomElement(using: &generator)!
            let calendar = calendars[Self.zones.randomElement(using: &generator)!]!
            let start = Date(timeIntervalSince1970: Double.random(in: 1_577_836_800..<2_051_222_400, using: &generator))
            return Case(
                trigger: try CalendarTrigger(dateMatching: components, repeats: true), components: components,
                zone: calendar.timeZone, calendar: calendar, start: start)
        }
        // Time only the cases where both give the same answer, so both sides do the same job; this also
        // warms both paths (zone tables, Foundation's caches).
        let generated = generatedCases.count
        let cases = generatedCases.filter { c in
            c.trigger.nextTriggerDate(after: c.start, floatingTimeZone: c.zone)
                == c.calendar.nextDate(after: c.start, matching: c.components, matchingPolicy: .nextTime, repeatedTimePolicy: .first)
        }

        var checksum = 0.0
        var foundationBest = Duration.seconds(1_000_000)
        var chimeBest = Duration.seconds(1_000_000)
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let foundation = clock.measure {
                for c in cases {
                    checksum += c.calendar.nextDate(
                        after: c.start, matching: c.components, matchingPolicy: .nextTime, repeatedTimePolicy: .first
                    )?.timeIntervalSince1970 ?? 0
                }
            }
            let chime = clock.measure {
                for c in cases {
                    checksum += c.trigger.nextTriggerDate(after: c.start, floatingTimeZone: c.zone)?.timeIntervalSince1970 ?? 0
                }
            }
            foundationBest = min(foundationBest, foundation)
            chimeBest = min(chimeBest, chime)
        }
        precondition(checksum != 0)  // keeps the optimiser from dropping the loops

        let foundationPerCall = nanoseconds(foundationBest) / Double(cases.count)
        let chimePerCall = nanoseconds(chimeBest) / Double(cases.count)
        return Result(
            cases: cases.count, rounds: rounds, foundationNanosecondsPerCall: foundationPerCall.rounded(),
            chimeNanosecondsPerCall: chimePerCall.rounded(), speedup: (foundationPerCall / chimePerCall * 10).rounded() / 10,
            differingAnswersExcluded: generated - cases.count)
    }

    private func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}
