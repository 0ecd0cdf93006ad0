@testable import ChimeCLI
import Foundation
import Testing

@Suite("chime command line parsing")
struct ChimeCommandParsingTests {
    @Test func parsesTheQuickStartExample() throws {
        let command = try ChimeCommand.parse([
            "next", "--calendar", "hour=8 minute=30", "--repeats", "--count", "5", "--time-zone", "Asia/Seoul",
        ])
        var expected = NextCommand(trigger: .calendar(DateComponents(hour: 8, minute: 30)))
        expected.repeats = true
        expected.count = 5
        expected.timeZoneIdentifier = "Asia/Seoul"
        #expect(command == .next(expected))
    }

    @Test func acceptsInlineValuesNamesAndIntervals() throws {
        let calendar = try ChimeCommand.parse(["next", "--calendar=weekday=mon,month=Jun,hour=9", "--count=2", "--json"])
        var expected = NextCommand(trigger: .calendar(DateComponents(month: 6, hour: 9, weekday: 2)))
        expected.count = 2
        expected.json = true
        #expect(calendar == .next(expected))

        let interval = try ChimeCommand.parse(["next", "--interval", "1h30m", "--after", "2026-12-02T09:00:00Z"])
        var expectedInterval = NextCommand(trigger: .interval(5400))
        expectedInterval.after = Date(timeIntervalSince1970: 1_796_202_000)
        #expect(interval == .next(expectedInterval))
    }

    @Test func helpIsAvailableEverywhere() throws {
        #expect(try ChimeCommand.parse([]) == .help(subcommand: nil))
        #expect(try ChimeCommand.parse(["--help"]) == .help(subcommand: nil))
        #expect(try ChimeCommand.parse(["help", "next"]) == .help(subcommand: "next"))
        #expect(try ChimeCommand.parse(["next", "-h"]) == .help(subcommand: "next"))
        #expect(try ChimeCommand.parse(["next", "--calendar", "hour=8", "--help"]) == .help(subcommand: "next"))
        #expect(try ChimeCommand.parse(["--version"]) == .version)
        #expect(try ChimeCommand.parse(["watch", "--version"]) == .version)
    }

    @Test func completionsAreGeneratedFromTheCommandsOptions() throws {
        #expect(try ChimeCommand.parse(["completions", "fish"]) == .completions(.fish))
        #expect(throws: UsageError.self) { try ChimeCommand.parse(["completions", "tcsh"]) }
        let fish = CompletionsCommand.fish.script
        #expect(fish.contains("complete -c chime -n '__fish_seen_subcommand_from add' -l wait"))
        #expect(fish.contains("complete -c chime -n __fish_use_subcommand -a watch"))
        #expect(CompletionsCommand.zsh.script.hasPrefix("#compdef chime\n"))
        // Every option a help text lists is offered, for every subcommand.
        for (subcommand, options) in CompletionsCommand.definitions {
            #expect(!options.isEmpty || subcommand == "doctor" || subcommand == "completions", "\(subcommand) lists options")
            for option in options { #expect(CompletionsCommand.bash.script.contains(option), "\(option)") }
        }
    }

    @Test func nextHelpTextIsExact() {
        #expect(ChimeCommand.helpText(for: "next") == """
            OVERVIEW: List the upcoming fire dates of a trigger.

            Calendar components without a time zone float with the user's zone; --time-zone says which zone
            that is (default: the current one). An interval trigger counts from --after (default: now). A
            location trigger (--region) has no fire date: it fires when the device crosses the region's edge.

            USAGE: chime next (--calendar <components> | --interval <duration> | --region <circle>) [options]

            OPTIONS:
              --calendar <components>  Date components to match, as key=value pairs: year, month (1-12 or jan-dec),
                                       day, weekday (1-7 from Sunday, or sun-sat), hour, minute, second.
                                       Example: --calendar "weekday=mon hour=9 minute=30"
              --interval <duration>    Seconds between the anchor and each fire: 90, 90s, 10m, 1h30m, 2d.
              --region <circle>        Latitude,longitude,radius in degrees and metres, such as 37.5665,126.978,150.
              --repeats                The trigger repeats (a repeating interval must be at least 60s).
              --count <n>              How many fire dates to list, 1-1000 (default: 5).
              --time-zone <id>         IANA time zone to evaluate in, such as Asia/Seoul (default: current).
              --after <date>           ISO 8601 instant to start after, such as 2026-12-02T09:00:00Z (default: now).
              --json                   Print JSON for scripts.
              -h, --help               Show this help.

            """)
    }

    static let badCommandLines: [([String], String)] = [
        (["frobnicate"], "unknown subcommand 'frobnicate'"),
        (["next"], "give a trigger: --calendar, --interval or --region"),
        (["next", "--calendar", "hour=8", "--interval", "10m"], "give one trigger: --calendar, --interval or --region, not two"),
        (["next", "--region", "37.5,127"], "--region '37.5,127' is not a region such as 37.5665,126.978,150 (latitude,longitude,radius in metres)"),
        (["next", "--region", "95,127,100"], "--region '95,127,100': latitude must lie in -90...90 degrees"),
        (["next", "--region", "37.5,127,0"], "--region '37.5,127,0': the radius must be a positive number of metres"),
        (["next", "--region", "37.5,127,100", "--interval", "10m"], "give one trigger: --calendar, --interval or --region, not two"),
        (["next", "--calendar"], "missing value for '--calendar'"),
        (["next", "--calendar", ""], "--calendar needs at least one key=value pair, such as \"hour=8 minute=30\""),
        (["next", "--calendar", "hour"], "'hour' in --calendar is not key=value"),
        (["next", "--calendar", "hours=8"], "unknown --calendar key 'hours' (expected one of year, month, day, weekday, hour, minute, second)"),
        (["next", "--calendar", "hour=8 hour=9"], "--calendar gives 'hour' twice"),
        (["next", "--calendar", "hour=eight"], "--calendar hour 'eight' is not a number"),
        (["next", "--calendar", "weekday=funday"], "--calendar weekday 'funday' is not a number or a name"),
        (["next", "--interval", "10 parsecs"], #"--interval '10 parsecs' is not a duration such as 90s, 10m, 1h30m, 5min, "2 hours 30 minutes" or 2d"#),
        (["next", "--interval", "5x"], #"--interval '5x' is not a duration such as 90s, 10m, 1h30m, 5min, "2 hours 30 minutes" or 2d"#),
        (["next", "--calendar", "hour=8", "--count", "0"], "--count '0' must be a whole number from 1 to 1000"),
        (["next", "--calendar", "hour=8", "--count", "many"], "--count 'many' must be a whole number from 1 to 1000"),
        (["next", "--calendar", "hour=8", "--time-zone", "Mars/Olympus"], "unknown time zone 'Mars/Olympus' (use an IANA name such as Asia/Seoul)"),
        (["next", "--calendar", "hour=8", "--after", "tomorrow"], "--after: 'tomorrow' is not an instant such as 2026-12-24T18:00:00+09:00: expected YYYY-MM-DDTHH:MM:SS"),
        (["next", "--calendar", "hour=8", "--verbose"], "unknown option '--verbose'"),
        (["next", "--calendar", "hour=8", "stray"], "unexpected argument 'stray'"),
    ]

    @Test(arguments: badCommandLines)
    func rejectsBadCommandLinesWithAClearMessage(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try ChimeCommand.parse(arguments) }
        do {
            _ = try ChimeCommand.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }
}
