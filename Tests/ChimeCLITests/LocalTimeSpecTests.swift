@testable import ChimeCLI
import ChimeCore
import Foundation
import Testing

/// `--at` and `--in` as people type them, resolved in the user's zone at a fixed now.
@Suite("chime add: times as people write them")
struct LocalTimeSpecTests {
    /// Wednesday 2026-12-02 10:00 in Seoul (01:00Z).
    let now = Date(timeIntervalSince1970: 1_796_173_200)
    let seoul = TimeZone(identifier: "Asia/Seoul")!

    func at(_ text: String, zone: TimeZone? = nil) throws -> String {
        let spec = try #require(LocalTimeSpec.parse(text), "\(text) is not read")
        return InstantText.format(try spec.resolve(now: now, zone: zone ?? seoul, option: "--at", command: "add"), offset: 9 * 3600)
    }

    @Test(arguments: [
        ("18:00", "2026-12-02T18:00:00+09:00"),
        ("18:00:30", "2026-12-02T18:00:30+09:00"),
        ("7pm", "2026-12-02T19:00:00+09:00"),
        ("7:30 PM", "2026-12-02T19:30:00+09:00"),
        ("9am", "2026-12-03T09:00:00+09:00"),  // passed today: tomorrow, as at(1) reads it
        ("12am", "2026-12-03T00:00:00+09:00"),
        ("noon", "2026-12-02T12:00:00+09:00"),
        ("midnight", "2026-12-03T00:00:00+09:00"),
        ("tomorrow 9:00", "2026-12-03T09:00:00+09:00"),
        ("today 18:00", "2026-12-02T18:00:00+09:00"),
        ("2026-12-24 18:00", "2026-12-24T18:00:00+09:00"),
        ("2026-12-24T18:00", "2026-12-24T18:00:00+09:00"),
    ])
    func localTimesResolveInTheUsersZone(text: String, expected: String) throws {
        #expect(try at(text) == expected)
    }

    @Test func whatIsNotATimeIsNotRead() {
        for text in ["tomorrow", "18", "25:00", "13pm", "7:61pm", "soon", "2026-12-24", "18:00 tomorrow please"] {
            #expect(LocalTimeSpec.parse(text) == nil, "\(text)")
        }
    }

    @Test func aTimeThatHasPassedOrADateThatDoesNotExistIsRefused() throws {
        #expect(throws: UsageError.self) { try at("today 9:00") }
        #expect(throws: UsageError.self) { try at("2026-01-01 9:00") }
        do {
            _ = try at("2030-02-30 9:00")
            Issue.record("a date that does not exist was read")
        } catch let error as UsageError {
            #expect(error.message.contains("February 30, 2030 does not exist"), "\(error.message)")
        }
    }

    /// 02:30 on the day New York springs forward does not exist: the first instant after the gap, 03:00.
    @Test func aTimeInADSTGapIsTheFirstInstantAfterIt() throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        let spec = try #require(LocalTimeSpec.parse("2027-03-14 02:30"))
        #expect(InstantText.utc(try spec.resolve(now: now, zone: newYork, option: "--at", command: "add")) == "2027-03-14T07:00:00Z")
    }

    @Test(arguments: [
        ("5 minutes", 300.0), ("5min", 300), ("5 mins", 300), ("2 hours 30 minutes", 9000), ("1h30m", 5400), ("1.5h", 5400),
        ("90", 90), ("90s", 90), ("1 week", 604_800), ("2d", 172_800), ("1 hr, 15 min", 4500),
    ])
    func durationsAsPeopleWriteThem(text: String, seconds: Double) throws {
        #expect(try DurationSpec.parse(text, option: "--in", command: "add") == seconds)
    }

    @Test func durationsThatAreNotAreRefusedWithExamples() {
        for text in ["5 parsecs", "minutes", "", "5 5", "h"] {
            do {
                _ = try DurationSpec.parse(text, option: "--in", command: "add")
                Issue.record("\(text) was read")
            } catch {
                #expect(error.message.contains("such as 90s, 10m, 1h30m, 5min"), "\(error.message)")
            }
        }
    }
}
