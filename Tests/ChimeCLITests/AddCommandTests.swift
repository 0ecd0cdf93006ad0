import ChimeCore
import Foundation
import Testing

@testable import ChimeCLI

@Suite("chime add: parsing and the request it makes")
struct AddCommandTests {
    @Test func theReadmeExampleIsATitleInFiveSeconds() throws {
        let command = try AddCommand.parse(["--in", "5s", "--title", "Hello"])
        #expect(command.appIdentifier == "chime")
        #expect(command.when == .after(5, repeats: false))
        let request = try command.request(identifier: "generated")
        #expect(request.identifier == "generated")
        #expect(request.content.title == .literal("Hello"))
        #expect(request.trigger == .timeInterval(try TimeIntervalTrigger(timeInterval: 5, repeats: false)))
    }

    /// As notify-send takes them: `chime add "Title" "Body"`; options may come before or after; `--`
    /// lets a text start with a dash; a third text is refused, as is a text given twice.
    @Test func titleAndBodyMayBeGivenAsArguments() throws {
        let both = try AddCommand.parse(["Tea", "The kettle boiled", "--in", "5m"])
        #expect(both.title == "Tea" && both.body == "The kettle boiled" && both.when == .after(300, repeats: false))
        let titleOption = try AddCommand.parse(["--title", "Tea", "The kettle boiled"])
        #expect(titleOption.title == "Tea" && titleOption.body == "The kettle boiled", "the argument is the body when --title is given")
        let dashed = try AddCommand.parse(["--in", "1h", "--", "-5 degrees outside", "--wear a coat"])
        #expect(dashed.title == "-5 degrees outside" && dashed.body == "--wear a coat")
        #expect(try AddCommand.parse(["Tea", "--body", "-"]).body == "-", "--body - reads standard input when it runs")
        #expect(throws: UsageError.self) { try AddCommand.parse(["Tea", "Body", "Third"]) }
        #expect(throws: UsageError.self) { try AddCommand.parse(["--title", "Tea", "--body", "B", "Third"]) }
        #expect(throws: UsageError.self) { try AddCommand.parse(["--in", "5m"]) }
        #expect(throws: UsageError.self) { try AddCommand.parse(["--unknown", "x"]) }
    }

    /// The short options notify-send (`-a`, `-c`, `-w`) and ntfy (`-t`) users type mean what the long ones do.
    @Test func shortOptionsAreTheLongOnes() throws {
        let short = try AddCommand.parse(["-a", "com.example.meetings", "-t", "Lunch?", "-c", "invite", "-w", "Friday at noon"])
        let long = try AddCommand.parse(["--app", "com.example.meetings", "--title", "Lunch?", "--category", "invite", "--wait", "Friday at noon"])
        #expect(short == long)
        #expect(short.appIdentifier == "com.example.meetings" && short.title == "Lunch?" && short.categoryIdentifier == "invite")
        #expect(short.waits && short.body == "Friday at noon")
        do {
            _ = try AddCommand.parse(["-x", "Tea"])
            Issue.record("an unknown short option was taken")
        } catch {
            #expect(error.message.contains("'-x'"), "\(error.message)")
        }
        #expect(throws: UsageError.self) { try AddCommand.parse(["Tea", "-t"]) }
        #expect(AddCommand.helpText.contains("-a, --app <id>") && AddCommand.helpText.contains("-w, --wait"))
    }

    @Test func waitTakesATimeoutAndNoRepeats() throws {
        let waiting = try AddCommand.parse(["Deploy?", "--wait", "--timeout", "2m"])
        #expect(waiting.waits && waiting.waitTimeout == 120)
        #expect(try AddCommand.parse(["Deploy?", "--wait"]).waitTimeout == nil)
        #expect(throws: UsageError("--timeout applies to --wait only", command: "add")) { try AddCommand.parse(["Deploy?", "--timeout", "2m"]) }
        #expect(throws: UsageError("--wait waits for one notification; it cannot repeat", command: "add")) {
            try AddCommand.parse(["Deploy?", "--wait", "--in", "1h", "--repeats"])
        }
    }

    @Test func everyContentOptionReachesTheRequest() throws {
        let command = try AddCommand.parse([
            "--app", "com.example.team", "--id", "standup", "--title", "Stand-up", "--subtitle", "Daily", "--body", "Room 4",
            "--sound", "chime.aiff", "--badge", "3", "--thread", "team", "--category", "MEETING", "--level", "time-sensitive",
            "--calendar", "weekday=mon hour=9 minute=30", "--repeats", "--time-zone", "Asia/Seoul",
        ])
        let request = try command.request(identifier: "unused")
        #expect(command.appIdentifier == "com.example.team")
        #expect(request.identifier == "standup")
        #expect(request.content.subtitle == .literal("Daily") && request.content.body == .literal("Room 4"))
        #expect(request.content.sound == (try NotificationSound(named: "chime.aiff")))
        #expect(request.content.badge == 3)
        #expect(request.content.threadIdentifier == "team" && request.content.categoryIdentifier == "MEETING")
        #expect(request.content.interruptionLevel == .timeSensitive)
        guard case .calendar(let trigger)? = request.trigger else { Issue.record("not a calendar trigger"); return }
        #expect(trigger.repeats)
        #expect(trigger.pinnedTimeZone == TimeZone(identifier: "Asia/Seoul"))
        #expect(trigger.dateComponents.weekday == 2 && trigger.dateComponents.hour == 9 && trigger.dateComponents.minute == 30)
    }

    @Test func atIsThatInstantOnce() throws {
        let command = try AddCommand.parse(["--at", "2026-12-24T18:00:00+09:00", "--body", "Party"])
        let request = try command.request(identifier: "party")
        guard case .calendar(let trigger)? = request.trigger else { Issue.record("not a calendar trigger"); return }
        #expect(!trigger.repeats)
        let instant = Date(timeIntervalSince1970: 1_798_102_800)  // 2026-12-24T09:00:00Z
        #expect(trigger.nextTriggerDate(after: instant.addingTimeInterval(-3600), floatingTimeZone: TimeZone(identifier: "America/New_York")!) == instant)
        #expect(trigger.nextTriggerDate(after: instant, floatingTimeZone: .current) == nil)
    }

    @Test func aCriticalAlertHasTheCriticalSoundAndLevel() throws {
        let request = try AddCommand.parse(["--title", "Low glucose", "--critical", "--sound", "warning-sound", "--volume", "0.8"])
            .request(identifier: "glucose")
        #expect(request.content.sound == (try NotificationSound(.criticalNamed("warning-sound", volume: 0.8))))
        #expect(request.content.interruptionLevel == .critical)
    }

    @Test func aPayloadGivesTheContent() throws {
        let payload = Data(#"{"aps":{"alert":{"title":"Meeting","body":"At 2pm"},"category":"meetingCategory","sound":"default"}}"#.utf8)
        let command = try AddCommand.parse(["--payload", "invite.json", "--in", "1m"])
        let request = try command.request(identifier: "invite") { url in
            #expect(url.lastPathComponent == "invite.json")
            return payload
        }
        #expect(request.content.title == .literal("Meeting"))
        #expect(request.content.categoryIdentifier == "meetingCategory")
    }

    /// `--region` with its flags: both crossings unless one is named; the region named by its own text.
    @Test func aRegionTriggerTakesItsCircleAndFlags() throws {
        let both = try AddCommand.parse(["--title", "Office", "--region", "37.5665, 126.978, 1.5km", "--repeats"])
        let request = try both.request(identifier: "office")
        guard case .location(let trigger) = request.trigger else {
            Issue.record("\(String(describing: request.trigger))")
            return
        }
        #expect(trigger.repeats)
        #expect(trigger.region == (try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 1500, identifier: "37.5665,126.978,1500")))
        let entry = try AddCommand.parse(["--title", "Office", "--region", "37.5665,126.978,150m", "--on-entry"])
        guard case .region(let region, repeats: false) = entry.when else {
            Issue.record("\(entry.when)")
            return
        }
        #expect(region.notifyOnEntry && !region.notifyOnExit && region.radius == 150)
        let exit = try AddCommand.parse(["--title", "Left", "--region", "0,0,100", "--on-exit"])
        if case .region(let region, _) = exit.when { #expect(!region.notifyOnEntry && region.notifyOnExit) } else { Issue.record("\(exit.when)") }
    }

    @Test func badContentIsRefusedWithTheField() throws {
        let malformed = try AddCommand.parse(["--payload", "bad.json"])
        #expect { try malformed.request(identifier: "x") { _ in Data("{\"aps\":".utf8) } } throws: { ($0 as? ChimeError)?.code == .invalidPayload }
        let missing = try AddCommand.parse(["--title", "Photo", "--attach", "/nonexistent/photo.png"])
        #expect { try missing.request(identifier: "x") } throws: { $0 is ChimeError }
        let tooShort = try AddCommand.parse(["--title", "Spam", "--in", "10s", "--repeats"])
        #expect { try tooShort.request(identifier: "x") } throws: { ($0 as? ChimeError)?.code == .invalidTimeInterval }
    }

    @Test(arguments: [
        (["--in", "5s"], "give some text (--title, --subtitle or --body) or a --payload"),
        (["--title", "a", "--in", "5s", "--at", "2026-12-24T18:00:00Z"], "give one trigger: --in, --at, --calendar or --region"),
        (["--title", "a", "--repeats"], "--repeats needs --in, --calendar or --region"),
        (["--title", "a", "--region", "37.5,127,100", "--in", "5m"], "give one trigger: --in, --at, --calendar or --region"),
        (["--title", "a", "--on-entry"], "--on-entry and --on-exit apply to --region only"),
        (["--title", "a", "--region", "37.5;127;100"], "--region '37.5;127;100' is not a region such as 37.5665,126.978,150 (latitude,longitude,radius in metres)"),
        (["--title", "a", "--region", "37.5,200,100"], "--region '37.5,200,100': longitude must lie in -180...180 degrees"),
        (["--title", "a", "--at", "tomorrow"], "--at 'tomorrow' is not a time such as 18:00, 7pm, tomorrow 9:00, 2026-12-24 18:00, or 2026-12-24T18:00:00+09:00"),
        (["--title", "a", "--volume", "0.5"], "--volume applies to a --critical sound only"),
        (["--title", "a", "--payload", "p.json"], "--payload gives the content; leave out the content options"),
        (["--title", "a", "--level", "loud"], "--level 'loud' must be passive, active, time-sensitive or critical"),
        (["--title", "a", "--badge", "-1"], "--badge '-1' must be a whole number, 0 or more"),
        (["--title", "a", "--time-zone", "Asia/Seoul"], "--time-zone applies to --calendar only"),
        (["--title", "a", "--app", ""], "--app must not be empty"),
    ])
    func usageErrorsSayWhatToFix(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: "add")) { try AddCommand.parse(arguments) }
    }
}

@Suite("chime respond: parsing")
struct RespondCommandTests {
    @Test func aTypedReplyNamesItsAction() throws {
        let command = try RespondCommand.parse(["--app", "com.example.meetings", "--id", "design-review", "--action", "decline", "--text", "Dentist"])
        #expect(command == RespondCommand(appIdentifier: "com.example.meetings", notificationIdentifier: "design-review", choice: .reply(action: "decline", text: "Dentist")))
        #expect(try RespondCommand.parse(["--id", "n", "--open"]).choice == .open)
        #expect(try RespondCommand.parse(["--id", "n", "--dismiss"]).appIdentifier == AddCommand.defaultApp)
    }

    @Test(arguments: [
        (["--open"], "give the notification: --id <identifier>"),
        (["--id", "n"], "give one of --open, --dismiss or --action"),
        (["--id", "n", "--open", "--dismiss"], "give one of --open, --dismiss or --action"),
        (["--id", "n", "--text", "hi"], "--text goes with the --action that takes it"),
        (["--id", "n", "--open", "--text", "hi"], "--text goes with the --action that takes it"),
    ])
    func usageErrorsSayWhatToFix(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: "respond")) { try RespondCommand.parse(arguments) }
    }
}
