import ChimeCore
import ChimeEngine
import ChimeTestSupport
import Foundation
import Testing

@testable import ChimeDesktop

/// How a presentation becomes a `Notify` call, checked without a bus.
@Suite("Notification mapping: Presentation to Notify")
struct NotificationMappingTests {
    static let all = ServerCapabilities(["actions", "body", "body-markup", "inline-reply"])

    func presentation(
        destinations: PresentationDestinations = [.banner, .list], level: InterruptionLevel = .active, actions: [PresentationAction] = []
    ) -> Presentation {
        Presentation(
            appIdentifier: "com.example.photos", notificationIdentifier: "n", date: Date(timeIntervalSince1970: 0), destinations: destinations,
            title: "T", subtitle: "S", body: "B", actions: actions, interruptionLevel: level,
            group: PresentationGroup(threadIdentifier: "", count: 1, summary: ""))
    }

    func mapping(_ capabilities: ServerCapabilities = all, app: DesktopAppInfo = DesktopAppInfo()) -> NotificationMapping {
        NotificationMapping(capabilities: capabilities, app: app, soundFile: { _, _ in nil })
    }

    @Test(arguments: [
        (InterruptionLevel.passive, UInt8(0)), (.active, 1), (.timeSensitive, 1), (.critical, 2),
    ])
    func urgencyFollowsTheLevel(level: InterruptionLevel, urgency: UInt8) {
        let request = mapping().request(for: presentation(level: level), replacing: 0)
        #expect(request.hints["urgency"] == .byte(urgency))
    }

    @Test func withoutABannerTheUrgencyIsLow() {
        let request = mapping().request(for: presentation(destinations: [.list], level: .critical), replacing: 0)
        #expect(request.hints["urgency"] == .byte(0))
    }

    @Test func actionKeysNeverTakeTheProtocolsOwn() throws {
        let actions = [
            PresentationAction(identifier: "default", title: "Default?"),
            PresentationAction(identifier: "inline-reply", title: "Reply?"),
            PresentationAction(identifier: "chime-allow", title: "Allow?"),
            PresentationAction(identifier: "ok", title: "OK"),
        ]
        let request = mapping(ServerCapabilities(["actions", "body"])).request(for: presentation(actions: actions), replacing: 0)
        #expect(request.actions.map(\.key) == ["default", "chime-action-0", "chime-action-1", "chime-action-2", "ok"])
        #expect(request.meanings["default"] == .open)
        #expect(request.meanings["chime-action-0"] == .action("default"))
        #expect(request.meanings["chime-action-1"] == .action("inline-reply"))
        #expect(request.meanings["chime-action-2"] == .action("chime-allow"))
    }

    @Test func theAppsDisplayNameIconAndDesktopEntryAreUsed() {
        let app = DesktopAppInfo(displayName: "Photos", iconName: "org.example.Photos", desktopEntry: "org.example.Photos")
        let request = mapping(app: app).request(for: presentation(), replacing: 42)
        #expect(request.appName == "Photos")
        #expect(request.appIcon == "org.example.Photos")
        #expect(request.replacesID == 42)
        #expect(request.hints["desktop-entry"] == .string("org.example.Photos"))
        #expect(request.summary == "T — S")
    }

    @Test(arguments: [
        (PresentationSound.named("chime.oga"), "sound-file", true), (.ringtone("chime.oga"), "sound-file", true),
        (.critical(named: "chime.oga", volume: 1), "sound-file", true), (.named("missing.oga"), "sound-name", false),
        (.default, "sound-name", false), (.defaultRingtone, "sound-name", false),
    ])
    func anAppsSoundFileIsSentWhenItExists(sound: PresentationSound, hint: String, isFile: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("chime.oga"))
        let mapping = NotificationMapping(capabilities: Self.all, app: DesktopAppInfo()) { app, name in
            app == "com.example.photos" ? directory.appendingPathComponent(name) : nil
        }
        var shown = presentation()
        shown.sound = sound
        let hints = mapping.request(for: shown, replacing: 0).hints
        #expect(hints[hint] != nil)
        #expect(hints["suppress-sound"] == nil)
        if isFile { #expect(hints[hint] == .string(directory.appendingPathComponent("chime.oga").path)) }
    }

    @Test func nulCharactersAreDroppedNotSentShort() {
        var shown = presentation()
        shown.body = "before\0after"
        #expect(mapping().request(for: shown, replacing: 0).body == "beforeafter")
    }

    @Test func theBadgeSignalNamesTheDesktopEntry() {
        let (path, arguments) = LauncherEntry.update(desktopEntry: "org.example.Photos-2", count: 5)
        #expect(path == "/com/canonical/unity/launcherentry/org_2eexample_2ePhotos_2d2")
        #expect(arguments[0] == .string("application://org.example.Photos-2.desktop"))
        #expect(arguments[1].dictionary?["count"] == .int64(5))
        #expect(arguments[1].dictionary?["count-visible"] == .boolean(true))
    }

    @Test func markupEscapingCoversTheThreeSpecialCharacters() {
        #expect(Markup.escape("a < b && c > d") == "a &lt; b &amp;&amp; c &gt; d")
        #expect(Markup.escape("it's \"fine\"") == "it's \"fine\"")
    }

    // MARK: the prompt's language

    @Test func thePromptIsAskedInTheSessionsLanguage() {
        let app = DesktopAppInfo(displayName: "사진")
        let korean = mapping(app: app).prompt(
            appIdentifier: "com.example.photos", options: [.alert, .sound, .badge], text: DesktopText.catalog(languages: ["ko-KR"]))
        #expect(korean.summary == "“사진”에서 알림을 보내고자 합니다")
        #expect(korean.body == "“사진”에서 보낼 수 있는 것: 경고, 사운드 및 배지.")
        #expect(korean.actions.map(\.1) == ["허용", "허용 안 함"])
        let english = mapping(app: app).prompt(appIdentifier: "com.example.photos", options: [.alert, .sound], text: DesktopText.catalog(languages: ["de-DE"]))
        #expect(english.summary == "Allow “사진” to send notifications?")
        #expect(english.body == "“사진” would like to send alerts and sounds.")
        #expect(english.actions.map(\.1) == ["Allow", "Don't Allow"])
    }

    @Test(arguments: [
        (AuthorizationOptions.alert, "alerts"), ([.alert, .badge], "alerts and badges"),
        ([.alert, .sound, .badge, .criticalAlert], "alerts, sounds, badges and critical alerts"),
    ] as [(AuthorizationOptions, String)])
    func kindsAreListedAsASentence(options: AuthorizationOptions, sentence: String) {
        #expect(NotificationMapping.describe(options, text: DesktopText.catalog(languages: [])) == sentence)
    }

    @Test func theKoreanDesktopTableHasEveryKeyWithTheSameArguments() throws {
        let english = try #require(DesktopText.tables["en"]), korean = try #require(DesktopText.tables["ko"])
        #expect(MessageTables.problems(korean, against: english) == [])
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        var used = try MessageTables.keysUsed(by: "text", under: sources.appendingPathComponent("ChimeDesktop/Notifications"))
        used.formUnion(try MessageTables.keysUsed(by: "DesktopText.text", under: sources.appendingPathComponent("ChimeDaemon")))
        #expect(used.count >= 12, "the scan found the calls: \(used.count)")
        let missing = used.subtracting(MessageTables.keys(of: english))
        #expect(missing.isEmpty, "\(missing.sorted())")
    }
}
