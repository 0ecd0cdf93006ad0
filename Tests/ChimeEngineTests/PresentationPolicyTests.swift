import ChimeCore
import ChimeEngine
import Foundation
import Testing

/// One situation and what the policy must decide in it: destinations, sound and badge always; the level
/// in effect and whether it broke through a focus where given.
struct PresentationCase: Sendable, CustomTestStringConvertible {
    var label: String
    var settings = PresentationFixtures.allowed
    var content = PresentationFixtures.content()
    var environment = UserEnvironment()
    var foreground: PresentationOptions?
    var destinations: PresentationDestinations
    var sound: PresentationSound?
    var badge: Int?
    var level: InterruptionLevel?
    var brokeThroughFocus: Bool?

    var testDescription: String { label }

    func check() throws {
        let presentation = try PresentationFixtures.present(
            content, settings: settings, environment: environment, foreground: foreground)
        #expect(presentation.destinations == destinations)
        #expect(presentation.sound == sound)
        #expect(presentation.badge == badge)
        if let level { #expect(presentation.interruptionLevel == level) }
        if let brokeThroughFocus { #expect(presentation.brokeThroughFocus == brokeThroughFocus) }
    }
}

@Suite("Presentation policy: who may interrupt, where, with what sound and badge")
struct PresentationPolicyTests {
    typealias F = PresentationFixtures
    static let everywhere: PresentationDestinations = [.banner, .list, .lockScreen]
    static let focus = UserEnvironment(focus: .on(allowsTimeSensitive: true))
    static let strictFocus = UserEnvironment(focus: .on(allowsTimeSensitive: false))

    static let authorizationCases: [PresentationCase] = [
        PresentationCase(label: "authorized: as the settings say", destinations: everywhere, sound: .default, badge: 5),
        PresentationCase(
            label: "ephemeral: like authorized", settings: F.allowed { $0.authorizationStatus = .ephemeral },
            destinations: everywhere, sound: .default, badge: 5),
        PresentationCase(
            label: "not determined: nothing, whatever the settings", settings: F.allowed { $0.authorizationStatus = .notDetermined },
            destinations: [], sound: nil, badge: nil, brokeThroughFocus: false),
        PresentationCase(label: "never asked: nothing", settings: .notDetermined, destinations: [], sound: nil, badge: nil),
        PresentationCase(
            label: "denied: nothing", settings: .denied([.alert, .sound, .badge]),
            destinations: [], sound: nil, badge: nil),
        PresentationCase(
            label: "revoked while pending: nothing", settings: F.allowed { $0.authorizationStatus = .denied },
            content: F.content(level: .critical), environment: strictFocus,
            destinations: [], sound: nil, badge: nil, brokeThroughFocus: false),
        PresentationCase(
            label: "provisional: quietly to the list, no badge", settings: .granted([.alert, .sound, .badge, .provisional]),
            destinations: [.list], sound: nil, badge: nil),
        PresentationCase(
            label: "provisional: quiet even with every setting enabled", settings: F.allowed { $0.authorizationStatus = .provisional },
            destinations: [.list], sound: nil, badge: nil),
        PresentationCase(
            label: "provisional: quiet even for a critical alert in a focus",
            settings: F.allowed { $0.authorizationStatus = .provisional }, content: F.content(level: .critical),
            environment: strictFocus, destinations: [.list], sound: nil, badge: nil, brokeThroughFocus: false),
        PresentationCase(
            label: "provisional with the list turned off: nowhere",
            settings: .granted([.alert, .sound, .badge, .provisional]).with { $0.notificationCenterSetting = .disabled },
            destinations: [], sound: nil, badge: nil),
    ]

    @Test(arguments: authorizationCases)
    func authorizationDecidesWhetherAnythingIsPresented(_ situation: PresentationCase) throws {
        try situation.check()
    }

    static let settingCases: [PresentationCase] = [
        PresentationCase(
            label: "alerts off: no visual destination, sound and badge still",
            settings: F.allowed { $0.alertSetting = .disabled }, destinations: [], sound: .default, badge: 5),
        PresentationCase(
            label: "asked only for sound and badge: heard, never seen", settings: .granted([.sound, .badge]),
            destinations: [], sound: .default, badge: 5),
        PresentationCase(
            label: "alert style none: no banner", settings: F.allowed { $0.alertStyle = .none },
            destinations: [.list, .lockScreen], sound: .default, badge: 5),
        PresentationCase(
            label: "list off", settings: F.allowed { $0.notificationCenterSetting = .disabled },
            destinations: [.banner, .lockScreen], sound: .default, badge: 5),
        PresentationCase(
            label: "lock screen off", settings: F.allowed { $0.lockScreenSetting = .disabled },
            destinations: [.banner, .list], sound: .default, badge: 5),
        PresentationCase(
            label: "sound off: silent", settings: F.allowed { $0.soundSetting = .disabled },
            destinations: everywhere, sound: nil, badge: 5),
        PresentationCase(
            label: "badge off: badge unchanged", settings: F.allowed { $0.badgeSetting = .disabled },
            destinations: everywhere, sound: .default, badge: nil),
        PresentationCase(
            label: "no badge in the content: unchanged", content: F.content(badge: nil),
            destinations: everywhere, sound: .default, badge: nil),
        PresentationCase(
            label: "badge 0 in the content: removes it", content: F.content(badge: 0),
            destinations: everywhere, sound: .default, badge: 0),
        PresentationCase(
            label: "no sound in the content: silent", content: F.content(sound: nil),
            destinations: everywhere, sound: nil, badge: 5),
        PresentationCase(
            label: "locked: the same destinations (lock state only hides previews)",
            environment: UserEnvironment(isLocked: true), destinations: everywhere, sound: .default, badge: 5),
    ]

    @Test(arguments: settingCases)
    func eachSettingControlsItsOwnPart(_ situation: PresentationCase) throws {
        try situation.check()
    }

    static let levelCases: [PresentationCase] = [
        PresentationCase(
            label: "passive: list only, silent", content: F.content(level: .passive),
            destinations: [.list], sound: nil, badge: 5, level: .passive, brokeThroughFocus: false),
        PresentationCase(
            label: "passive in a focus: list only, silent", content: F.content(level: .passive), environment: focus,
            destinations: [.list], sound: nil, badge: 5, level: .passive, brokeThroughFocus: false),
        PresentationCase(
            label: "active: everywhere with sound",
            destinations: everywhere, sound: .default, badge: 5, level: .active, brokeThroughFocus: false),
        PresentationCase(
            label: "active in a focus: silenced into the list", environment: focus,
            destinations: [.list], sound: nil, badge: 5, level: .active, brokeThroughFocus: false),
        PresentationCase(
            label: "active, locked, in a focus: silenced into the list",
            environment: UserEnvironment(focus: .on(allowsTimeSensitive: false), isLocked: true),
            destinations: [.list], sound: nil, badge: 5, level: .active, brokeThroughFocus: false),
        PresentationCase(
            label: "time-sensitive without a focus: like active", content: F.content(level: .timeSensitive),
            destinations: everywhere, sound: .default, badge: 5, level: .timeSensitive, brokeThroughFocus: false),
        PresentationCase(
            label: "time-sensitive in a focus that allows it: breaks through", content: F.content(level: .timeSensitive),
            environment: focus, destinations: everywhere, sound: .default, badge: 5, level: .timeSensitive, brokeThroughFocus: true),
        PresentationCase(
            label: "time-sensitive in a focus that does not allow it: held back", content: F.content(level: .timeSensitive),
            environment: strictFocus, destinations: [.list], sound: nil, badge: 5, level: .timeSensitive, brokeThroughFocus: false),
        PresentationCase(
            label: "time-sensitive turned off by the user: active, held back",
            settings: F.allowed { $0.timeSensitiveSetting = .disabled }, content: F.content(level: .timeSensitive),
            environment: focus, destinations: [.list], sound: nil, badge: 5, level: .active, brokeThroughFocus: false),
        PresentationCase(
            label: "critical: everywhere with the critical sound", content: F.content(level: .critical),
            destinations: everywhere, sound: .critical(named: nil, volume: 1), badge: 5, level: .critical, brokeThroughFocus: false),
        PresentationCase(
            label: "critical in any focus: breaks through", content: F.content(level: .critical), environment: strictFocus,
            destinations: everywhere, sound: .critical(named: nil, volume: 1), badge: 5, level: .critical, brokeThroughFocus: true),
        PresentationCase(
            label: "critical with the app's sound off: plays anyway",
            settings: F.allowed { $0.soundSetting = .disabled }, content: F.content(level: .critical), environment: strictFocus,
            destinations: everywhere, sound: .critical(named: nil, volume: 1), badge: 5, level: .critical, brokeThroughFocus: true),
        PresentationCase(
            label: "critical without permission, focus allows time-sensitive: breaks through with an ordinary sound",
            settings: F.allowed { $0.criticalAlertSetting = .disabled }, content: F.content(level: .critical, sound: .defaultCritical),
            environment: focus, destinations: everywhere, sound: .default, badge: 5, level: .timeSensitive, brokeThroughFocus: true),
        PresentationCase(
            label: "critical without permission, strict focus: held back",
            settings: F.allowed { $0.criticalAlertSetting = .disabled }, content: F.content(level: .critical),
            environment: strictFocus, destinations: [.list], sound: nil, badge: 5, level: .timeSensitive, brokeThroughFocus: false),
        PresentationCase(
            label: "critical without permission and with its sound off: silent",
            settings: F.allowed { $0.criticalAlertSetting = .disabled; $0.soundSetting = .disabled },
            content: F.content(level: .critical), destinations: everywhere, sound: nil, badge: 5, level: .timeSensitive),
        PresentationCase(
            label: "critical without either permission: active",
            settings: F.allowed { $0.criticalAlertSetting = .notSupported; $0.timeSensitiveSetting = .disabled },
            content: F.content(level: .critical), environment: focus,
            destinations: [.list], sound: nil, badge: 5, level: .active, brokeThroughFocus: false),
        PresentationCase(
            label: "a critical sound on an active notification asks for a critical alert",
            content: F.content(level: .active, sound: .defaultCritical), environment: strictFocus,
            destinations: everywhere, sound: .critical(named: nil, volume: 1), badge: 5, level: .critical, brokeThroughFocus: true),
    ]

    @Test(arguments: levelCases)
    func interruptionLevelsMeetFocusAndPermissions(_ situation: PresentationCase) throws {
        try situation.check()
    }

    static let foregroundCases: [PresentationCase] = [
        PresentationCase(
            label: "[.banner]: a banner only", foreground: [.banner], destinations: [.banner], sound: nil, badge: nil),
        PresentationCase(
            label: "[.alert]: banner and list", foreground: [.alert], destinations: [.banner, .list], sound: nil, badge: nil),
        PresentationCase(label: "[.list]: the list only", foreground: [.list], destinations: [.list], sound: nil, badge: nil),
        PresentationCase(label: "[.sound]: heard, not shown", foreground: [.sound], destinations: [], sound: .default, badge: nil),
        PresentationCase(label: "[.badge]: the badge only", foreground: [.badge], destinations: [], sound: nil, badge: 5),
        PresentationCase(
            label: "everything: all but the lock screen", foreground: [.banner, .list, .sound, .badge],
            destinations: [.banner, .list], sound: .default, badge: 5),
        PresentationCase(label: "[] (or no willPresent): nothing", foreground: [], destinations: [], sound: nil, badge: nil),
        PresentationCase(
            label: "a banner the user's alert style forbids stays off",
            settings: F.allowed { $0.alertStyle = .none }, foreground: [.banner, .sound], destinations: [], sound: .default, badge: nil),
        PresentationCase(
            label: "a sound the user turned off stays off",
            settings: F.allowed { $0.soundSetting = .disabled }, foreground: [.banner, .sound], destinations: [.banner], sound: nil, badge: nil),
        PresentationCase(
            label: "a focus still holds an active notification back", environment: focus,
            foreground: [.banner, .list, .sound, .badge], destinations: [.list], sound: nil, badge: 5),
        PresentationCase(
            label: "a critical alert still needs .sound to play", content: F.content(level: .critical), environment: strictFocus,
            foreground: [.banner], destinations: [.banner], sound: nil, badge: nil, level: .critical, brokeThroughFocus: true),
        PresentationCase(
            label: "a critical alert with .sound breaks through", content: F.content(level: .critical), environment: strictFocus,
            foreground: [.banner, .sound], destinations: [.banner], sound: .critical(named: nil, volume: 1), badge: nil),
        PresentationCase(
            label: "provisional stays quiet", settings: .granted([.alert, .sound, .badge, .provisional]),
            foreground: [.banner, .list, .sound, .badge], destinations: [.list], sound: nil, badge: nil),
    ]

    @Test(arguments: foregroundCases)
    func aForegroundAppChoosesAmongWhatTheRulesAllow(_ situation: PresentationCase) throws {
        try situation.check()
    }

    struct SoundCase: Sendable, CustomTestStringConvertible {
        var label: String
        var level: InterruptionLevel = .active
        var sound: NotificationSound.Kind?
        var permitted = true
        var expected: PresentationSound?

        var testDescription: String { label }
    }

    static let soundCases: [SoundCase] = [
        SoundCase(label: "the system sound", sound: .default, expected: .default),
        SoundCase(label: "the system ringtone", sound: .defaultRingtone, expected: .defaultRingtone),
        SoundCase(label: "an app sound", sound: .named("chime.aiff"), expected: .named("chime.aiff")),
        SoundCase(label: "an app ringtone", sound: .ringtone("ring.aiff"), expected: .ringtone("ring.aiff")),
        SoundCase(
            label: "the critical sound, permitted, at its volume", sound: .defaultCritical(volume: 0.5),
            expected: .critical(named: nil, volume: 0.5)),
        SoundCase(
            label: "the critical sound, not permitted: the system sound", sound: .defaultCritical(volume: 0.5), permitted: false,
            expected: .default),
        SoundCase(
            label: "a critical app sound, permitted, at its volume", sound: .criticalNamed("warning-sound", volume: 0.8),
            expected: .critical(named: "warning-sound", volume: 0.8)),
        SoundCase(
            label: "a critical app sound, not permitted: the same file, ordinary", sound: .criticalNamed("warning-sound", volume: 0.8),
            permitted: false, expected: .named("warning-sound")),
        SoundCase(label: "a critical level without a sound: the critical sound", level: .critical, expected: .critical(named: nil, volume: 1)),
        SoundCase(
            label: "a critical level with the system sound: the critical sound", level: .critical, sound: .default,
            expected: .critical(named: nil, volume: 1)),
        SoundCase(
            label: "a critical level with an app sound: that file, critical", level: .critical, sound: .named("chime.aiff"),
            expected: .critical(named: "chime.aiff", volume: 1)),
        SoundCase(label: "a critical level without a sound, not permitted: silent", level: .critical, permitted: false, expected: nil),
    ]

    @Test(arguments: soundCases)
    func playsTheSoundTheContentAskedForAsThePermissionAllows(_ situation: SoundCase) throws {
        let settings = F.allowed { $0.criticalAlertSetting = situation.permitted ? .enabled : .disabled }
        let sound = try situation.sound.map { kind throws(ChimeError) in try NotificationSound(kind) }
        let presentation = try F.present(F.content(level: situation.level, sound: sound), settings: settings)
        #expect(presentation.sound == situation.expected)
    }

    @Test func theAlertStyleAlertKeepsTheBannerOnScreen() throws {
        let persistent = F.allowed { $0.alertStyle = .alert }
        #expect(try F.present(F.content(), settings: persistent).bannerIsPersistent)
        #expect(try !F.present(F.content()).bannerIsPersistent)
        // No banner, nothing to keep.
        #expect(try !F.present(F.content(), settings: persistent, foreground: [.list]).bannerIsPersistent)
        #expect(try !F.present(F.content(), settings: persistent, environment: Self.focus).bannerIsPersistent)
    }

    @Test func carriesTheIdentifiersAndDatesOfTheDelivery() throws {
        let presentation = try F.present(F.content())
        #expect(presentation.appIdentifier == "com.example.photos")
        #expect(presentation.notificationIdentifier == "photo-1")
        #expect(presentation.date == F.deliveryDate)
        #expect(!presentation.isLate)
        #expect(presentation.scheduledDate == nil)
    }

    @Test func marksALateDelivery() throws {
        let fireDate = Date(timeIntervalSince1970: 1_764_568_800)  // 2025-12-01T06:00:00Z
        let request = try NotificationRequest(identifier: "alarm", content: F.content(), trigger: nil)
        let late = try DeliveredNotification(request: request, date: F.deliveryDate, scheduledDate: fireDate, isLate: true)
        let presentation = PresentationPolicy().presentation(for: PresentationContext(notification: late, app: F.app()))
        #expect(presentation.isLate)
        #expect(presentation.scheduledDate == fireDate)
        #expect(presentation.destinations == Self.everywhere)  // late is still presented as usual
    }
}

extension NotificationSettings {
    /// These settings with one change.
    func with(_ change: (inout NotificationSettings) -> Void) -> NotificationSettings {
        var settings = self
        change(&settings)
        return settings
    }
}
