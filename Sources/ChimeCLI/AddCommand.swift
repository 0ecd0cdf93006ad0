public import ChimeCore
public import Foundation

/// `chime add`: a notification for an app, scheduled through the notification center.
///
/// ```
/// chime add --in 5s --title Hello
/// chime add --calendar "hour=8 minute=30" --repeats --title "Stand-up" --app com.example.team
/// chime add --payload apns.json --at 2026-12-24T18:00:00+09:00
/// ```
///
/// Parsing checks the command line only; `request(identifier:)` builds the request, which reads the
/// payload and attachment files and validates everything as the engine would.
public struct AddCommand: Equatable {
    public static let name = "add"
    public static let abstract = "Schedule a notification."
    /// The app a notification belongs to when `--app` is not given: the command line itself.
    public static let defaultApp = "chime"

    /// When the notification fires.
    public enum When: Equatable {
        /// At once.
        case now
        /// `--in 10m`, repeating with `--repeats`.
        case after(TimeInterval, repeats: Bool)
        /// `--at <ISO 8601>`: that instant, once.
        case at(Date)
        /// `--at 18:00`, `--at "tomorrow 9am"`: a wall-clock time in the user's zone, resolved when the
        /// command runs (`resolvingTimes(now:zone:)`).
        case atLocal(LocalTimeSpec)
        /// `--calendar "hour=8 minute=30"`, in `--time-zone` or floating with the user's zone.
        case calendar(DateComponents, repeats: Bool)
        /// `--region "37.5665,126.978,150"` with `--on-entry`, `--on-exit` (both when neither is given).
        case region(CircularRegion, repeats: Bool)
    }

    /// The sound to play.
    public enum Sound: Equatable {
        case `default`
        case named(String)
        /// `--critical [--volume v]`: a critical alert's sound (the app needs the critical-alert
        /// permission, else it plays as an ordinary sound).
        case critical(named: String?, volume: Float)
    }

    public var appIdentifier = AddCommand.defaultApp
    /// `--id`; `nil` gives a new unique identifier.
    public var identifier: String?
    public var title = ""
    public var subtitle = ""
    public var body = ""
    public var sound: Sound?
    public var badge: Int?
    public var threadIdentifier = ""
    public var categoryIdentifier = ""
    /// `--attach`, in order.
    public var attachmentPaths: [String] = []
    /// `--move`: hand the attached files themselves to the notification center (as iOS moves an app's
    /// files) instead of copies, which is the default: the command line is the user's tool, and their
    /// files stay where they are.
    public var movesAttachments = false
    public var interruptionLevel: InterruptionLevel?
    public var when = When.now
    /// `--payload apns.json`: the content comes from an APNs payload file.
    public var payloadPath: String?
    public var json = false
    /// `--wait`: stay until the user responds, print the response and exit by its outcome; `timeout` bounds
    /// the wait (`--timeout`), `nil` for none.
    public var waits = false
    public var waitTimeout: TimeInterval?

    public init() {}

    public static let helpText = """
        OVERVIEW: \(abstract)

        The notification is delivered by chimed (the notification center daemon) as the app it names, at once
        or when its trigger fires, whether or not that app runs.

        USAGE: chime add [<title> [<body>]] [content] [trigger] [options]

        CONTENT:
          <title> [<body>]          The title and the body, as notify-send takes them.
          -t, --title <text>        The title.
          --subtitle <text>         The subtitle.
          --body <text>             The body; - reads it from standard input.
          --sound <name>            `default`, or a sound file of the app.
          --critical                A critical alert, with the critical sound (or --sound's file).
          --volume <0-1>            The critical sound's volume (default: 1).
          --badge <n>               Set the app's badge to n (0 clears it).
          --thread <id>             Group with notifications of the same thread.
          -c, --category <id>       The app's category, which gives the buttons.
          --attach <file>           Attach an image, sound or movie (repeatable). A copy goes to the
                                    notification center; the file stays where it is.
          --move                    Move the attached files into the notification center instead of
                                    copying them (as iOS does with an app's files).
          --level <level>           passive, active, time-sensitive or critical.
          --payload <file>          Take the content from an APNs payload (JSON with an "aps" dictionary);
                                    the content options above are then not allowed.

        TRIGGER (default: at once):
          --in <duration>           After a delay: 90s, 10m, 1h30m.
          --at <time>               At a time: 18:00, 7pm, "tomorrow 9:00", "2026-12-24 18:00" (your zone; the
                                    next one, as at(1) reads it), or an instant 2026-12-24T18:00:00+09:00.
                                    A time that has passed is refused.
          --calendar <components>   When the clock matches, such as "weekday=mon hour=9 minute=30".
          --region <lat,lon,radius> When the device enters or leaves a circle: degrees, and the radius in
                                    metres (150, 150m, 1.5km), such as 37.5665,126.978,150.
          --on-entry, --on-exit     With --region: fire on entering, on leaving (default: both).
          --repeats                 Repeat (--in at least 60s, --calendar, or --region: every crossing).
          --time-zone <id>          Pin --calendar to an IANA zone (default: follow the user's zone).

        OPTIONS:
          -a, --app <id>            The app the notification belongs to (default: \(defaultApp)).
          --id <id>                 The request identifier; the same one replaces a pending request
                                    (default: a new one).
          --json                    Print JSON for scripts.
          -w, --wait                Stay until the user responds, then print the response: the action's
                                    identifier (open, dismiss, or the button's), and a typed reply on the
                                    next line. Exit 0 for an action or open, 2 dismissed, 3 removed
                                    without a response, 5 no response within --timeout.
          --timeout <duration>      How long --wait waits (default: as long as it takes).
          -h, --help                Show this help.

        """

    /// The short options, as notify-send (`-a`, `-c`, `-w`) and ntfy (`-t`) users type them.
    static let shortOptions = ["-a": "--app", "-t": "--title", "-c": "--category", "-w": "--wait"]

    static func parse(_ arguments: [String]) throws(UsageError) -> AddCommand {
        var reader = ArgumentReader(arguments, command: name, shortOptions: shortOptions)
        var command = AddCommand()
        var delay: TimeInterval?
        /// `--at`: an instant (`.at`) or a wall-clock time in the user's zone (`.atLocal`).
        var at: When?
        var calendar: DateComponents?
        var regionText: String?
        var onEntry = false, onExit = false
        var repeats = false
        var critical = false
        var volume: Float?
        var soundName: String?
        var timeZone: TimeZone?
        var positionals: [String] = []
        var titleGiven = false
        var bodyGiven = false
        while let next = try reader.nextArgument() {
            guard let (option, inline) = next.option else {
                positionals.append(next.positional ?? "")
                continue
            }
            switch option {
            case "--app": command.appIdentifier = try reader.nonEmptyValue(for: option, inline: inline)
            case "--id": command.identifier = try reader.nonEmptyValue(for: option, inline: inline)
            case "--title":
                command.title = try reader.value(for: option, inline: inline)
                titleGiven = true
            case "--subtitle": command.subtitle = try reader.value(for: option, inline: inline)
            case "--body":
                command.body = try reader.value(for: option, inline: inline)
                bodyGiven = true
            case "--sound": soundName = try reader.nonEmptyValue(for: option, inline: inline)
            case "--critical": critical = true
            case "--volume":
                let text = try reader.value(for: option, inline: inline)
                guard let value = Float(text), (0...1).contains(value) else {
                    throw UsageError("--volume '\(text)' must be a number from 0 to 1", command: name)
                }
                volume = value
            case "--badge":
                let text = try reader.value(for: option, inline: inline)
                guard let badge = Int(text), badge >= 0 else {
                    throw UsageError("--badge '\(text)' must be a whole number, 0 or more", command: name)
                }
                command.badge = badge
            case "--thread": command.threadIdentifier = try reader.value(for: option, inline: inline)
            case "--category": command.categoryIdentifier = try reader.value(for: option, inline: inline)
            case "--attach": command.attachmentPaths.append(try reader.nonEmptyValue(for: option, inline: inline))
            case "--level": command.interruptionLevel = try level(try reader.value(for: option, inline: inline))
            case "--payload": command.payloadPath = try reader.nonEmptyValue(for: option, inline: inline)
            case "--in": delay = try DurationSpec.parse(try reader.value(for: option, inline: inline), option: option, command: name)
            case "--at":
                let text = try reader.value(for: option, inline: inline)
                // A text with an offset or Z is never a local time: the local forms take no offset.
                if let local = LocalTimeSpec.parse(text) {
                    at = .atLocal(local)
                } else {
                    do {
                        at = .at(try InstantText.parse(text))
                    } catch where error.message.contains("does not exist") || error.message.contains("outside the years") {
                        throw UsageError("--at: \(error.message)", command: name)
                    } catch {
                        throw UsageError("--at '\(text)' is not a time such as \(LocalTimeSpec.examples)", command: name)
                    }
                }
            case "--calendar": calendar = try CalendarSpec.parse(try reader.value(for: option, inline: inline), command: name)
            case "--repeats": repeats = true
            case "--region": regionText = try reader.value(for: option, inline: inline)
            case "--on-entry": onEntry = true
            case "--on-exit": onExit = true
            case "--time-zone":
                let identifier = try reader.value(for: option, inline: inline)
                guard let zone = TimeZone(identifier: identifier) else {
                    throw UsageError("unknown time zone '\(identifier)' (use an IANA name such as Asia/Seoul)", command: name)
                }
                timeZone = zone
            case "--json": command.json = true
            case "--move": command.movesAttachments = true
            case "--wait": command.waits = true
            case "--timeout": command.waitTimeout = try DurationSpec.parse(try reader.value(for: option, inline: inline), option: option, command: name)
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }

        // `chime add "Title" "Body"`, as notify-send takes them.
        var texts = positionals[...]
        if !titleGiven, let title = texts.popFirst() { command.title = title }
        if !bodyGiven, let body = texts.popFirst() { command.body = body }
        if let extra = texts.first {
            throw UsageError("unexpected argument '\(extra)': give the title and the body once (quote text with spaces)", command: name)
        }

        if regionText == nil, onEntry || onExit { throw UsageError("--on-entry and --on-exit apply to --region only", command: name) }
        if let regionText {
            guard delay == nil, at == nil, calendar == nil else { throw UsageError("give one trigger: --in, --at, --calendar or --region", command: name) }
            let region = try RegionSpec.parse(regionText, onEntry: onEntry || !onExit, onExit: onExit || !onEntry, command: name)
            command.when = .region(region, repeats: repeats)
        } else {
            command.when = try when(delay: delay, at: at, calendar: calendar, timeZone: timeZone, repeats: repeats)
        }
        if timeZone != nil, calendar == nil { throw UsageError("--time-zone applies to --calendar only", command: name) }
        if command.waitTimeout != nil, !command.waits { throw UsageError("--timeout applies to --wait only", command: name) }
        if command.waits, repeats { throw UsageError("--wait waits for one notification; it cannot repeat", command: name) }

        if critical {
            command.sound = .critical(named: soundName == "default" ? nil : soundName, volume: volume ?? 1)
        } else if let soundName {
            guard volume == nil else { throw UsageError("--volume applies to a --critical sound only", command: name) }
            command.sound = soundName == "default" ? .default : .named(soundName)
        } else if volume != nil {
            throw UsageError("--volume applies to a --critical sound only", command: name)
        }

        if command.payloadPath != nil, command.hasContentOptions {
            throw UsageError("--payload gives the content; leave out the content options", command: name)
        }
        if command.payloadPath == nil, command.title.isEmpty, command.subtitle.isEmpty, command.body.isEmpty {
            throw UsageError("give some text (--title, --subtitle or --body) or a --payload", command: name)
        }
        return command
    }

    /// The time trigger of `--in`, `--at` or `--calendar`, of which at most one is given.
    private static func when(delay: TimeInterval?, at: When?, calendar: DateComponents?, timeZone: TimeZone?, repeats: Bool) throws(UsageError) -> When {
        switch (delay, at, calendar) {
        case (nil, nil, nil):
            guard !repeats else { throw UsageError("--repeats needs --in, --calendar or --region", command: name) }
            return .now
        case (let seconds?, nil, nil): return .after(seconds, repeats: repeats)
        case (nil, let at?, nil):
            guard !repeats else { throw UsageError("--at fires once; repeat with --calendar or --in", command: name) }
            return at
        case (nil, nil, var components?):
            components.timeZone = timeZone
            return .calendar(components, repeats: repeats)
        default: throw UsageError("give one trigger: --in, --at, --calendar or --region", command: name)
        }
    }

    private var hasContentOptions: Bool {
        !title.isEmpty || !subtitle.isEmpty || !body.isEmpty || sound != nil || badge != nil || !threadIdentifier.isEmpty
            || !categoryIdentifier.isEmpty || !attachmentPaths.isEmpty || interruptionLevel != nil
    }

    private static func level(_ text: String) throws(UsageError) -> InterruptionLevel {
        switch text {
        case "passive": .passive
        case "active": .active
        case "time-sensitive": .timeSensitive
        case "critical": .critical
        default: throw UsageError("--level '\(text)' must be passive, active, time-sensitive or critical", command: name)
        }
    }
}
