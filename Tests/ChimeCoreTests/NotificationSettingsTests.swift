import ChimeCore
import Foundation
import Testing

@Suite struct NotificationSettingsTests {
    @Test(arguments: [(NotificationSetting.notSupported, 0), (.disabled, 1), (.enabled, 2)])
    func settingsHaveApplesRawValues(setting: NotificationSetting, raw: Int) {
        #expect(setting.rawValue == raw)
    }

    @Test(arguments: [(AlertStyle.none, 0), (.banner, 1), (.alert, 2)])
    func alertStylesHaveApplesRawValues(style: AlertStyle, raw: Int) {
        #expect(style.rawValue == raw)
    }

    @Test(arguments: [(ShowPreviewsSetting.always, 0), (.whenAuthenticated, 1), (.never, 2)])
    func showPreviewsSettingsHaveApplesRawValues(setting: ShowPreviewsSetting, raw: Int) {
        #expect(setting.rawValue == raw)
    }

    @Test func previewsShowWhenUnlockedOnlyForWhenAuthenticated() {
        #expect(ShowPreviewsSetting.always.showsPreviews(sessionUnlocked: false))
        #expect(ShowPreviewsSetting.whenAuthenticated.showsPreviews(sessionUnlocked: true))
        #expect(!ShowPreviewsSetting.whenAuthenticated.showsPreviews(sessionUnlocked: false))
        #expect(!ShowPreviewsSetting.never.showsPreviews(sessionUnlocked: true))
    }

    @Test func beforeAskingNothingIsSupported() {
        let settings = NotificationSettings.notDetermined
        #expect(settings.authorizationStatus == .notDetermined)
        #expect(settings == NotificationSettings())
        #expect(settings.alertSetting == .notSupported)
        #expect(settings.soundSetting == .notSupported)
        #expect(settings.alertStyle == .none)
        #expect(settings.showPreviewsSetting == .always)
        #expect(!settings.providesAppNotificationSettings)
    }

    @Test func allowingEnablesWhatWasAskedForAndNothingElse() {
        let settings = NotificationSettings.granted([.alert, .sound, .badge])
        #expect(settings == NotificationSettings(
            authorizationStatus: .authorized, soundSetting: .enabled, badgeSetting: .enabled, alertSetting: .enabled,
            notificationCenterSetting: .enabled, lockScreenSetting: .enabled, carPlaySetting: .notSupported,
            alertStyle: .banner, showPreviewsSetting: .always, criticalAlertSetting: .notSupported,
            providesAppNotificationSettings: false, announcementSetting: .notSupported, timeSensitiveSetting: .enabled,
            scheduledDeliverySetting: .disabled, directMessagesSetting: .notSupported))
    }

    @Test func allowingCriticalAlertsEnablesThem() {
        let settings = NotificationSettings.granted([.badge, .sound, .alert, .criticalAlert, .providesAppNotificationSettings])
        #expect(settings.criticalAlertSetting == .enabled)
        #expect(settings.providesAppNotificationSettings)
    }

    @Test func provisionalDeliversQuietlyToTheListOnly() {
        let settings = NotificationSettings.granted([.badge, .sound, .alert, .provisional])
        #expect(settings.authorizationStatus == .provisional)
        #expect(settings.notificationCenterSetting == .enabled)
        #expect(settings.alertSetting == .disabled)
        #expect(settings.lockScreenSetting == .disabled)
        #expect(settings.soundSetting == .disabled)
        #expect(settings.badgeSetting == .disabled)
        #expect(settings.alertStyle == .none)
        #expect(settings.carPlaySetting == .notSupported)
    }

    @Test func refusingDisablesWhatWasAskedFor() {
        let settings = NotificationSettings.denied([.alert, .sound])
        #expect(settings.authorizationStatus == .denied)
        #expect(settings.alertSetting == .disabled)
        #expect(settings.soundSetting == .disabled)
        #expect(settings.notificationCenterSetting == .disabled)
        #expect(settings.badgeSetting == .notSupported)
        #expect(settings.alertStyle == .none)
        #expect(!settings.authorizationStatus.allowsDelivery)
    }

    @Test func timeSensitiveFollowsAlertsOrItsOwnOption() {
        #expect(NotificationSettings.granted([.badge]).timeSensitiveSetting == .notSupported)
        #expect(NotificationSettings.granted([.badge, .timeSensitive]).timeSensitiveSetting == .enabled)
        #expect(NotificationSettings.granted([.alert]).timeSensitiveSetting == .enabled)
    }

    @Test func encodesEveryPropertyByName() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var settings = NotificationSettings.granted([.alert, .sound])
        settings.showPreviewsSetting = .whenAuthenticated
        #expect(String(decoding: try encoder.encode(settings), as: UTF8.self) == """
            {"alertSetting":"enabled","alertStyle":"banner","announcementSetting":"notSupported",\
            "authorizationStatus":"authorized","badgeSetting":"notSupported","carPlaySetting":"notSupported",\
            "criticalAlertSetting":"notSupported","directMessagesSetting":"notSupported",\
            "groupingSetting":"automatic","lockScreenSetting":"enabled","notificationCenterSetting":"enabled",\
            "providesAppNotificationSettings":false,"scheduledDeliverySetting":"disabled",\
            "showPreviewsSetting":"whenAuthenticated","soundSetting":"enabled","timeSensitiveSetting":"enabled"}
            """)
    }

    @Test(arguments: [
        NotificationSettings.notDetermined, .granted([.alert, .sound, .badge, .carPlay, .announcement]),
        .granted([.alert, .provisional]), .denied([.badge]),
        NotificationSettings(authorizationStatus: .ephemeral, alertStyle: .alert, showPreviewsSetting: .never, directMessagesSetting: .enabled),
    ])
    func roundTripsThroughJSON(settings: NotificationSettings) throws {
        #expect(try JSONDecoder().decode(NotificationSettings.self, from: JSONEncoder().encode(settings)) == settings)
    }

    @Test func decodingFillsInMissingPropertiesAndAcceptsRawValues() throws {
        let settings = try JSONDecoder().decode(NotificationSettings.self, from: Data(#"{"authorizationStatus":2,"alertSetting":2,"alertStyle":"alert"}"#.utf8))
        #expect(settings == NotificationSettings(authorizationStatus: .authorized, alertSetting: .enabled, alertStyle: .alert))
        #expect(try JSONDecoder().decode(NotificationSettings.self, from: Data("{}".utf8)) == .notDetermined)
    }

    @Test(arguments: [#"{"alertSetting":"on"}"#, #"{"alertStyle":3}"#, #"{"showPreviewsSetting":"sometimes"}"#])
    func decodingAnUnknownValueFails(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NotificationSettings.self, from: Data(json.utf8))
        }
    }
}
