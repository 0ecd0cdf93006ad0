import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

@Suite("Engine: authorization")
struct NotificationEngineAuthorizationTests {
    @Test func theUserIsAskedOnceAndTheAnswerIsKept() async throws {
        let h = try await EngineHarness.make(answersAuthorization: nil)
        async let granted = h.center.requestAuthorization(options: [.alert, .sound])
        let prompt = await h.user.nextAuthorizationPrompt()
        #expect(prompt == .init(appIdentifier: "com.example.app", options: [.alert, .sound]))
        h.user.answer(allow: true)
        #expect(try await granted)

        #expect(try await h.center.requestAuthorization(options: [.alert, .sound]))
        #expect(h.user.authorizationPrompts.count == 1)
        let settings = try await h.center.notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        #expect(settings.soundSetting == .enabled)
        #expect(settings.badgeSetting == .notSupported)
    }

    /// The user answers through another door (`chime apps allow`) while the prompt is up: the waiting
    /// request gets that answer at once, and the prompt is withdrawn.
    @Test func anAnswerGivenElsewhereEndsTheWaitAndWithdrawsThePrompt() async throws {
        let h = try await EngineHarness.make(answersAuthorization: nil)
        async let granted = h.center.requestAuthorization(options: [.alert, .sound])
        _ = await h.user.nextAuthorizationPrompt()
        try await h.center.updateSettings(.granted([.alert, .sound]))
        #expect(try await granted, "allowed through the other door")
        #expect(h.user.withdrawnPrompts == 1)
        #expect(try await h.center.notificationSettings().authorizationStatus == .authorized)

        // Denied elsewhere: the request answers no, and the denial stands.
        let other = try await EngineHarness.make(answersAuthorization: nil)
        async let refused = other.center.requestAuthorization(options: [.alert])
        _ = await other.user.nextAuthorizationPrompt()
        try await other.center.updateSettings(.denied([.alert]))
        #expect(try await !refused)
        #expect(try await other.center.notificationSettings().authorizationStatus == .denied)
    }

    /// The app registers categories while the user changes a setting and the badge is set: each change
    /// keeps the others (they once overwrote each other from stale copies of the app's record).
    @Test func concurrentChangesToAnAppAllSurvive() async throws {
        let h = try await EngineHarness.make()
        #expect(try await h.center.requestAuthorization(options: [.alert, .sound, .badge]))
        var settings = try await h.center.notificationSettings()
        settings.showPreviewsSetting = .never
        let category = try NotificationCategory(identifier: "CATEGORY", actions: [NotificationAction(identifier: "OK", title: "OK")])
        let changed = settings
        async let categories: Void = h.center.setNotificationCategories([category])
        async let userSetting: Void = h.center.updateSettings(changed)
        async let badge: Void = h.center.setBadgeCount(3)
        _ = try await (categories, userSetting, badge)
        #expect(try await h.center.notificationCategories() == [category])
        #expect(try await h.center.notificationSettings().showPreviewsSetting == .never)
        let record = try await h.store.app("com.example.app")
        #expect(record?.badgeCount == 3)
    }

    @Test func aDeniedAppCannotAddAndNothingIsScheduled() async throws {
        let h = try await EngineHarness.make(answersAuthorization: false)
        #expect(try await !h.center.requestAuthorization(options: [.alert]))
        await #expect {
            try await h.center.add(h.request("nope"))
        } throws: { ($0 as? ChimeError)?.code == .notificationsNotAllowed }
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
        #expect(try await h.center.notificationSettings().authorizationStatus == .denied)
    }

    @Test func provisionalAuthorizationIsGrantedWithoutAskingAndDeliversQuietly() async throws {
        let h = try await EngineHarness.make(answersAuthorization: nil)
        #expect(try await h.center.requestAuthorization(options: [.alert, .sound, .provisional]))
        #expect(h.user.authorizationPrompts.isEmpty)
        await h.engine.start()
        var content = NotificationContent(title: "Tip")
        content.sound = .default
        try await h.center.add(NotificationRequest(identifier: "tip", content: content, trigger: nil))
        let shown = await h.presenter.nextPresentation()
        #expect(shown.destinations == [.list])
        #expect(shown.sound == nil)
    }

    @Test func theUsersSettingChangesApplyToTheNextNotification() async throws {
        let h = try await EngineHarness.make().started()
        var settings = try await h.center.notificationSettings()
        settings.soundSetting = .disabled
        try await h.center.updateSettings(settings)
        var content = NotificationContent(title: "Ping")
        content.sound = .default
        try await h.center.add(NotificationRequest(identifier: "ping", content: content, trigger: nil))
        #expect(await h.presenter.nextPresentation().sound == nil)
    }

    @Test func openSettingsReachesOnlyAppsThatOfferTheirOwnSettings() async throws {
        let h = try await EngineHarness.make()
        let app = ForegroundApp()
        await h.center.setDelegate(app)
        _ = try await h.center.requestAuthorization(options: [.alert])
        #expect(try await !h.engine.openSettings(appIdentifier: "com.example.app", notificationIdentifier: nil))

        let offering = try await EngineHarness.make()
        let settingsApp = ForegroundApp()
        await offering.center.setDelegate(settingsApp)
        _ = try await offering.center.requestAuthorization(options: [.alert, .providesAppNotificationSettings])
        await offering.engine.start()
        try await offering.center.add(offering.request("n1"))
        _ = await offering.presenter.nextPresentation()
        #expect(try await offering.engine.openSettings(appIdentifier: "com.example.app", notificationIdentifier: "n1"))
        #expect(settingsApp.settingsOpened == ["n1"])
        #expect(app.settingsOpened.isEmpty)
    }

    @Test func whenNobodyAnswersTheAppStaysUndecided() async throws {
        struct NobodyAnswers: AuthorizationResolver {
            func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? { nil }
        }
        let engine = NotificationEngine(
            store: InMemoryNotificationStore(), clock: ManualClock(now: EngineHarness.start), presenter: RecordingPresenter(),
            authorization: NobodyAnswers(), log: SilentLog())
        let center = engine.center(for: "com.example.app")
        #expect(try await !center.requestAuthorization(options: [.alert]))
        #expect(try await center.notificationSettings().authorizationStatus == .notDetermined)
    }
}
