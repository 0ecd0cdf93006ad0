import ChimeCore
import Foundation
import Testing

@testable import ChimeCLI

/// The commands that talk to chimed, parsed (running them is tested against a real daemon).
@Suite("chime: parsing the notification center's commands")
struct DaemonCommandParsingTests {
    @Test func listsTakeAnAppAndJSON() throws {
        #expect(try ListCommand.parse(.pending, []) == ListCommand(kind: .pending))
        #expect(try ListCommand.parse(.delivered, ["--app", "com.example.alarm", "--json"]) == ListCommand(kind: .delivered, appIdentifier: "com.example.alarm", json: true))
        #expect(throws: UsageError("unknown option '--all'", command: "pending")) { try ListCommand.parse(.pending, ["--all"]) }
    }

    @Test func removeTakesIdentifiersOrAll() throws {
        #expect(try RemoveCommand.parse(["a", "b"]).identifiers == ["a", "b"])
        let all = try RemoveCommand.parse(["--app", "com.example.alarm", "--delivered", "--all"])
        #expect(all.identifiers == nil && all.delivered && all.appIdentifier == "com.example.alarm")
        #expect(throws: UsageError("give the identifiers to remove, or --all", command: "remove")) { try RemoveCommand.parse([]) }
        #expect(throws: UsageError("give identifiers or --all, not both", command: "remove")) { try RemoveCommand.parse(["a", "--all"]) }
    }

    @Test func focusIsOnOffOrStatus() throws {
        #expect(try FocusCommand.parse(["on"]) == .on)
        #expect(throws: UsageError("unexpected '--now'", command: "focus")) { try FocusCommand.parse(["on", "--now"]) }
        #expect(try FocusCommand.parse(["off"]) == .off)
        #expect(try FocusCommand.parse(["status", "--json"]) == .status(json: true))
        #expect(throws: UsageError("unknown focus command 'maybe': on, off or status", command: "focus")) { try FocusCommand.parse(["maybe"]) }
    }

    /// A change to what the app never asked for is refused, saying so, except critical alerts, which the
    /// user may grant to any app.
    @Test func appsSettingsChangesAreTypedAndApplyOnlyToWhatTheAppUses() throws {
        let command = try AppsCommand.parse(["settings", "com.example.photos", "--previews", "never", "--sound", "off", "--style", "alert", "--critical", "on"])
        #expect(command == .settings("com.example.photos", changes: [.showPreviews(.never), .sound(false), .alertStyle(.alert), .critical(true)], json: false))
        var settings = NotificationSettings.granted([.alert, .sound])
        if case .settings(_, let changes, _) = command { try changes.forEach { try $0.apply(to: &settings, app: "com.example.photos") } }
        #expect(settings.showPreviewsSetting == .never)
        #expect(settings.soundSetting == .disabled)
        #expect(settings.alertStyle == .alert)
        #expect(settings.criticalAlertSetting == .enabled, "granted by the user though the app never asked")
        #expect(throws: ChimeError.self) { try AppsCommand.SettingChange.badge(true).apply(to: &settings, app: "com.example.photos") }
        #expect(settings.badgeSetting == .notSupported)  // the app never asked for badges
        #expect(throws: UsageError("--sound takes on or off, not 'loud'", command: "apps")) {
            try AppsCommand.parse(["settings", "com.example.photos", "--sound", "loud"])
        }
    }

    @Test func appsRegisterTakesTheRestAsTheLaunchCommand() throws {
        #expect(
            try AppsCommand.parse(["register", "com.example.alarm", "--name", "Alarm", "--launch", "/usr/bin/alarm", "run", "--quiet"])
                == .register("com.example.alarm", displayName: "Alarm", iconPath: nil, launchCommand: ["/usr/bin/alarm", "run", "--quiet"]))
        #expect(try AppsCommand.parse(["allow", "com.example.alarm"]) == .allow("com.example.alarm"))
        #expect(try AppsCommand.parse(["list", "--json"]) == .list(json: true))
        #expect(throws: UsageError("apps deny takes one app identifier", command: "apps")) { try AppsCommand.parse(["deny"]) }
    }

    @Test func categoriesSetTakesOneFile() throws {
        #expect(try CategoriesCommand.parse(["set", "meeting.json", "--app", "com.example.meetings"]) == .set(appIdentifier: "com.example.meetings", file: "meeting.json"))
        #expect(try CategoriesCommand.parse(["list", "--json"]) == .list(appIdentifier: AddCommand.defaultApp, json: true))
        #expect(throws: UsageError("categories set takes one JSON file", command: "categories")) { try CategoriesCommand.parse(["set"]) }
    }

    /// The example in the help text is a file `categories set` reads.
    @Test func theHelpTextsCategoryFileDecodes() throws {
        let json = #"[{"identifier": "meetingCategory", "actions": [{"identifier": "accept", "title": "Accept"}, {"identifier": "decline", "title": "Decline", "options": ["destructive"]}], "options": ["customDismissAction"]}]"#
        let categories = try JSONDecoder().decode([NotificationCategory].self, from: Data(json.utf8))
        #expect(categories.first?.actions.map(\.identifier) == ["accept", "decline"])
        #expect(categories.first?.actions.last?.options == [.destructive])
        #expect(categories.first?.options == [.customDismissAction])
    }
}
