public import Foundation
public import ChimeCore

/// `chime next`: lists when a trigger will fire, so users can check a schedule before they rely on it.
///
/// ```
/// chime next --calendar "hour=8 minute=30" --repeats --count 5 --time-zone Asia/Seoul
/// ```
public struct NextCommand: Equatable {
    public static let name = "next"
    public static let abstract = "List the upcoming fire dates of a trigger."

    /// The trigger to evaluate, before validation.
    public enum TriggerSpec: Equatable {
        /// `--calendar "hour=8 minute=30"`
        case calendar(DateComponents)
        /// `--interval 10m`, anchored at `--after`
        case interval(TimeInterval)
        /// `--region "37.5665,126.978,150"`: a location trigger, which has no fire date.
        case region(CircularRegion)
    }

    public var trigger: TriggerSpec
    public var repeats = false
    public var count = 5
    /// `--time-zone`, as the user spelled it (Foundation reports "UTC" as "GMT"); `nil` means the
    /// user's current zone.
    public var timeZoneIdentifier: String?
    /// `--after`; `nil` means now.
    public var after: Date?
    public var json = false

    public init(trigger: TriggerSpec) {
        self.trigger = trigger
    }

    public static let helpText = """
        OVERVIEW: \(abstract)

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

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> NextCommand {
        var reader = ArgumentReader(arguments, command: name)
        var calendar: DateComponents?
        var interval: TimeInterval?
        var region: CircularRegion?
        var command = NextCommand(trigger: .interval(0))
        while let (option, inline) = try reader.nextOption() {
            switch option {
            case "--calendar":
                calendar = try CalendarSpec.parse(try reader.value(for: option, inline: inline), command: name)
            case "--interval":
                interval = try DurationSpec.parse(try reader.value(for: option, inline: inline), option: option, command: name)
            case "--region":
                region = try RegionSpec.parse(try reader.value(for: option, inline: inline), onEntry: true, onExit: true, command: name)
            case "--repeats":
                command.repeats = true
            case "--count":
                let text = try reader.value(for: option, inline: inline)
                guard let count = Int(text), (1...1000).contains(count) else {
                    throw UsageError("--count '\(text)' must be a whole number from 1 to 1000", command: name)
                }
                command.count = count
            case "--time-zone":
                let identifier = try reader.value(for: option, inline: inline)
                guard TimeZone(identifier: identifier) != nil else {
                    throw UsageError("unknown time zone '\(identifier)' (use an IANA name such as Asia/Seoul)", command: name)
                }
                command.timeZoneIdentifier = identifier
            case "--after":
                command.after = try InstantFormat.parse(try reader.value(for: option, inline: inline), option: option, command: name)
            case "--json":
                command.json = true
            default:
                throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        switch (calendar, interval, region) {
        case (let components?, nil, nil): command.trigger = .calendar(components)
        case (nil, let seconds?, nil): command.trigger = .interval(seconds)
        case (nil, nil, let region?): command.trigger = .region(region)
        case (nil, nil, nil): throw UsageError("give a trigger: --calendar, --interval or --region", command: name)
        default: throw UsageError("give one trigger: --calendar, --interval or --region, not two", command: name)
        }
        return command
    }

    struct Output: Encodable {
        struct Trigger: Encodable {
            var calendar: String?
            var interval: TimeInterval?
            var region: CircularRegion?
            var repeats: Bool
        }
        var trigger: Trigger
        var timeZone: String
        /// Instants in UTC, exact; the `local` forms are the same instants in `timeZone`.
        var after: String
        var afterLocal: String
        var fireDates: [String]
        var localFireDates: [String]
    }

    /// Evaluates the trigger and renders the result.
    ///
    /// - Throws: `UsageError` when the trigger is invalid (out-of-range components, a too-short repeat).
    public func run(now: Date, currentTimeZone: TimeZone) throws(UsageError) -> String {
        let zone = timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? currentTimeZone
        let zoneName = timeZoneIdentifier ?? zone.identifier
        let start = after ?? now
        let dates: [Date]
        let description: String
        do {
            switch trigger {
            case .calendar(let components):
                let calendarTrigger = try CalendarTrigger(dateMatching: components, repeats: repeats)
                dates = calendarTrigger.nextFireDates(after: start, count: count, floatingTimeZone: zone)
                description = "calendar trigger \(CalendarSpec.format(components))"
            case .interval(let seconds):
                let intervalTrigger = try TimeIntervalTrigger(timeInterval: seconds, repeats: repeats)
                try intervalTrigger.validate(anchor: start)
                dates = intervalTrigger.nextFireDates(after: start, anchor: start, count: count)
                description = "interval trigger every \(DurationSpec.format(seconds))"
            case .region(let region):
                dates = []
                description = "location trigger on \(RegionSpec.format(region))"
            }
        } catch {
            throw UsageError("invalid trigger: \(error.message)", command: Self.name)
        }

        if json {
            let output = Output(
                trigger: .init(calendar: calendarText, interval: intervalSeconds, region: region, repeats: repeats),
                timeZone: zoneName, after: InstantText.utc(start), afterLocal: InstantFormat.iso8601(start, in: zone),
                fireDates: dates.map(InstantText.utc), localFireDates: dates.map { InstantFormat.iso8601($0, in: zone) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(output)) ?? Data(), as: UTF8.self) + "\n"
        }
        let repeating = repeats ? "repeating" : "once"
        if region != nil {
            return "The \(description) (\(repeating)) has no fire date: it fires when the device enters or leaves the region, "
                + "\(repeats ? "each time" : "the first time"), whatever the clock says.\n"
        }
        guard !dates.isEmpty else {
            return "The \(description) (\(repeating)) does not fire after \(InstantFormat.iso8601(start, in: zone)) in \(zoneName).\n"
        }
        var text = "Next \(dates.count == 1 ? "fire" : "\(dates.count) fires") of the \(description) (\(repeating)) in \(zoneName):\n"
        for (index, date) in dates.enumerated() {
            text += "\(String(repeating: " ", count: String(dates.count).count - String(index + 1).count))\(index + 1). \(InstantFormat.weekday(date, in: zone)) \(InstantFormat.iso8601(date, in: zone))\n"
        }
        return text
    }

    private var calendarText: String? {
        if case .calendar(let components) = trigger { return CalendarSpec.format(components) }
        return nil
    }

    private var region: CircularRegion? {
        if case .region(let region) = trigger { return region }
        return nil
    }

    private var intervalSeconds: TimeInterval? {
        if case .interval(let seconds) = trigger { return seconds }
        return nil
    }
}
