import ChimeCLI
import Foundation
import Testing

@Suite("chime next")
struct NextCommandTests {
    let now = Date(timeIntervalSince1970: 1_796_202_000)  // 2026-12-02T09:00:00Z
    let utc = TimeZone(identifier: "UTC")!

    func run(_ arguments: [String]) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: now, currentTimeZone: utc)
    }

    @Test func listsDailyFiresInTheGivenZone() async {
        let result = await run(["next", "--calendar", "hour=8 minute=30", "--repeats", "--count", "3", "--time-zone", "Asia/Seoul"])
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == """
            Next 3 fires of the calendar trigger hour=8 minute=30 (repeating) in Asia/Seoul:
            1. Thu 2026-12-03T08:30:00+09:00
            2. Fri 2026-12-04T08:30:00+09:00
            3. Sat 2026-12-05T08:30:00+09:00

            """)
        #expect(result.standardError.isEmpty)
    }

    @Test func showsTheEndOfADSTGapAndPadsTheNumbers() async {
        let result = await run([
            "next", "--calendar", "hour=2 minute=30", "--repeats", "--count", "10", "--time-zone", "America/New_York",
            "--after", "2027-03-10T12:00:00Z",
        ])
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 11)
        #expect(lines[4] == " 4. Sun 2027-03-14T03:00:00-04:00")  // 02:30 is skipped that day
        #expect(lines[10] == "10. Sat 2027-03-20T02:30:00-04:00")
    }

    /// A location trigger has no fire date, and says when it fires instead.
    @Test func aRegionHasNoFireDate() async throws {
        let result = await run(["next", "--region", "37.5665,126.978,150", "--repeats"])
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == """
            The location trigger on 37.5665,126.978 (150 m) (repeating) has no fire date: it fires when the device enters or leaves the region, each time, whatever the clock says.

            """)
        let json = await run(["next", "--region", "37.5665,126.978,150", "--json"])
        let output = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((output?["fireDates"] as? [Any])?.isEmpty == true)
        let region = (output?["trigger"] as? [String: Any])?["region"] as? [String: Any]
        #expect(region?["radius"] as? Double == 150 && region?["latitude"] as? Double == 37.5665)
    }

    @Test func printsJSONForScripts() async throws {
        let result = await run(["next", "--interval", "90m", "--repeats", "--count", "2", "--json"])
        struct Output: Decodable, Equatable {
            struct Trigger: Decodable, Equatable {
                var interval: Double?
                var calendar: String?
                var repeats: Bool
            }
            var trigger: Trigger
            var timeZone: String
            var after: String
            var afterLocal: String
            var fireDates: [String]
            var localFireDates: [String]
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8))
        #expect(output == Output(
            trigger: .init(interval: 5400, calendar: nil, repeats: true), timeZone: "GMT",
            after: "2026-12-02T09:00:00Z", afterLocal: "2026-12-02T09:00:00+00:00",
            fireDates: ["2026-12-02T10:30:00Z", "2026-12-02T12:00:00Z"], localFireDates: ["2026-12-02T10:30:00+00:00", "2026-12-02T12:00:00+00:00"]))
    }

    /// Monrovia kept −0:44:30 until 1972: the fire at 08:00 local is 08:44:30 UTC, and both forms say so
    /// to the second (cut to minutes, the text would name an instant 30 s off).
    @Test func offsetsWithSecondsArePrintedExactly() async throws {
        let result = await run(["next", "--calendar", "hour=8", "--time-zone", "Africa/Monrovia", "--after", "1971-01-01T00:00:00Z", "--json"])
        let output = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(output["fireDates"] as? [String] == ["1971-01-01T08:44:30Z"])
        #expect(output["localFireDates"] as? [String] == ["1971-01-01T08:00:00-00:44:30"])
        #expect(output["afterLocal"] as? String == "1970-12-31T23:15:30-00:44:30")
        let text = await run(["next", "--calendar", "hour=8", "--time-zone", "Africa/Monrovia", "--after", "1971-01-01T00:00:00Z"])
        #expect(text.standardOutput.hasSuffix("1. Fri 1971-01-01T08:00:00-00:44:30\n"))
    }

    /// Apple accepts any positive interval; one too short to measure fires at once, never "never".
    @Test func aTinyIntervalFiresAtOnce() async throws {
        let result = await run(["next", "--interval", "1e-9", "--after", "2026-01-01T00:00:00Z", "--json"])
        let output = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(output["fireDates"] as? [String] == ["2026-01-01T00:00:00Z"])
    }

    @Test func aOneShotTriggerListsOneFire() async {
        let result = await run(["next", "--interval", "10m", "--count", "5", "--time-zone", "UTC"])
        #expect(result.standardOutput == """
            Next fire of the interval trigger every 10m (once) in UTC:
            1. Wed 2026-12-02T09:10:00+00:00

            """)
    }

    @Test func saysSoWhenNothingFires() async {
        let result = await run(["next", "--calendar", "year=2020 month=1 day=1", "--time-zone", "UTC"])
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == "The calendar trigger year=2020 month=1 day=1 (once) does not fire after 2026-12-02T09:00:00+00:00 in UTC.\n")
    }

    @Test(arguments: [
        (["next", "--calendar", "hour=24"], "chime: error: invalid trigger: hour must lie in 0...23\nSee 'chime next --help'.\n"),
        (["next", "--calendar", "month=2 day=30"], "chime: error: invalid trigger: this month never has that day\nSee 'chime next --help'.\n"),
        (
            ["next", "--calendar", "year=2025 month=2 day=29"],
            "chime: error: invalid trigger: February 29, 2025 does not exist (that month has 28 days)\nSee 'chime next --help'.\n"
        ),
        (
            ["next", "--calendar", "year=2026 month=4 day=31"],
            "chime: error: invalid trigger: April 31, 2026 does not exist (that month has 30 days)\nSee 'chime next --help'.\n"
        ),
        (["next", "--interval", "30s", "--repeats"], "chime: error: invalid trigger: a repeating time interval must be at least 60 seconds\nSee 'chime next --help'.\n"),
        (["next", "--interval", "0"], "chime: error: invalid trigger: the time interval must be greater than 0\nSee 'chime next --help'.\n"),
        (
            ["next", "--interval", "1e18"],
            "chime: error: invalid trigger: the time interval is longer than the calendar Chime keeps (years 1–9999)\nSee 'chime next --help'.\n"
        ),
        (
            ["next", "--interval", "3e11", "--after", "2026-01-01T00:00:00Z"],
            "chime: error: invalid trigger: the time interval ends after the year 9999\nSee 'chime next --help'.\n"
        ),
        (
            ["next", "--interval", "10m", "--after", "2030-02-30T00:00:00Z"],
            "chime: error: --after: February 30, 2030 does not exist (that month has 28 days)\nSee 'chime next --help'.\n"
        ),
        (
            ["next", "--interval", "10m", "--after", "2030-02-28T00:00:00"],
            "chime: error: --after: '2030-02-28T00:00:00' is not an instant such as 2026-12-24T18:00:00+09:00: it has no offset (add Z for UTC, or ±HH:MM)\nSee 'chime next --help'.\n"
        ),
        (
            ["add", "--at", "2030-02-30T00:00:00Z", "--title", "t"],
            "chime: error: --at: February 30, 2030 does not exist (that month has 28 days)\nSee 'chime add --help'.\n"
        ),
        (["launch"], "chime: error: unknown subcommand 'launch'\nSee 'chime --help'.\n"),
    ])
    func invalidTriggersExitWithUsageStatus(arguments: [String], message: String) async {
        let result = await run(arguments)
        #expect(result.exitCode == .usage)
        #expect(result.standardError == message)
        #expect(result.standardOutput.isEmpty)
    }
}
