import ExampleSupport
import Foundation

/// What the user asked the alarm app to do.
enum AlarmCommand: Equatable {
    /// Set the alarm and wait for it.
    case set(AlarmTime)
    /// Wait for the alarm that is set.
    case run
    case status(json: Bool)
    case remove

    static let usage = CommandLineUsage(
        name: "alarm",
        text: """
            alarm — the alarm clock of the iOS lesson, in a terminal

            Usage:
              alarm set HH:MM          set the alarm for the next HH:MM (local time), then wait for it
              alarm set --in DELAY     set the alarm DELAY from now (30s, 10m, 1h), then wait for it
              alarm run                wait for the alarm that is set
              alarm status [--json]    say which alarm is set
              alarm remove             cancel the alarm

            While alarm waits, the alarm rings in this terminal: type 1 to snooze it for nine minutes, o to
            stop it. Ctrl-D quits; the alarm stays set and rings the next time alarm waits (late, if its time
            has passed meanwhile). Setting an alarm replaces the one that is set.

            Files: $XDG_DATA_HOME/com.example.alarm/ScheduledAlarm.json (the alarm) and
            $XDG_DATA_HOME/chime/apps/com.example.alarm.sqlite (its notification); XDG_DATA_HOME defaults to
            ~/.local/share.

            """)

    /// Parses the arguments after the program name; exits with the usage on `--help` or an error.
    static func parse(_ arguments: [String]) -> AlarmCommand {
        usage.handleHelp(arguments)
        var arguments = arguments
        guard !arguments.isEmpty else { usage.fail("missing command: set, run, status or remove") }
        let command = arguments.removeFirst()
        switch command {
        case "set":
            if let delay = usage.value(of: "--in", in: &arguments) {
                guard arguments.isEmpty else { usage.fail("unexpected \(arguments[0])") }
                return .set(.delay(usage.seconds(delay, option: "--in")))
            }
            guard arguments.count == 1 else { usage.fail("alarm set takes a time (07:30) or --in DELAY") }
            guard let (hour, minute) = clockTime(arguments[0]) else {
                usage.fail("'\(arguments[0])' is not a time of day such as 07:30")
            }
            return .set(.clock(hour: hour, minute: minute))
        case "run", "remove":
            guard arguments.isEmpty else { usage.fail("unexpected \(arguments[0])") }
            return command == "run" ? .run : .remove
        case "status":
            let json = arguments.contains("--json")
            arguments.removeAll { $0 == "--json" }
            guard arguments.isEmpty else { usage.fail("unexpected \(arguments[0])") }
            return .status(json: json)
        default:
            usage.fail("unknown command '\(command)': set, run, status or remove")
        }
    }

    /// `07:30` → (7, 30); `nil` unless it is HH:MM (or H:MM) with an hour of 0–23 and a minute of 0–59.
    static func clockTime(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }
}

/// When the user wants the alarm, read when it is set (after the permission question, which may take a
/// while: an alarm `--in 30s` is 30 seconds after it is set, not after the command started).
enum AlarmTime: Equatable {
    /// The next time the clock shows hour:minute, local time.
    case clock(hour: Int, minute: Int)
    /// This long from now.
    case delay(TimeInterval)

    func date(after now: Date, calendar: Calendar = .current) -> Date {
        switch self {
        case .delay(let seconds):
            now.addingTimeInterval(seconds)
        case .clock(let hour, let minute):
            calendar.nextDate(after: now, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)
                ?? now.addingTimeInterval(86_400)
        }
    }
}
