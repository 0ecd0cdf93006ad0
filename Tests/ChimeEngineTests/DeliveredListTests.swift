import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

/// The delivered list is Notification Center's, as on Apple: `.list` means "show it in Notification
/// Center", and `deliveredNotifications()` returns what is still there. Every fire is recorded either way.
@Suite("Engine: what the delivered list holds")
struct DeliveredListTests {
    /// Delivers "n" to an app in the foreground whose delegate answers `options`.
    func deliver(foregroundOptions options: PresentationOptions) async throws -> (EngineHarness, ForegroundApp, Presentation) {
        let h = try await EngineHarness.make().started()
        let app = ForegroundApp(options: options)
        await h.center.setDelegate(app)
        try await h.center.add(h.request("n"))
        let shown = await h.presenter.nextPresentation()
        return (h, app, shown)
    }

    @Test(arguments: [PresentationOptions([.banner]), [], [.sound, .badge], [.banner, .sound]])
    func whatAForegroundAppKeepsOutOfTheListIsNotListedButItsFireIsRecorded(options: PresentationOptions) async throws {
        let (h, app, shown) = try await deliver(foregroundOptions: options)
        #expect(app.presented == ["n"])
        #expect(!shown.destinations.contains(.list))
        #expect(try await h.center.deliveredNotifications().isEmpty)
        #expect(try await h.center.pendingNotificationRequests().isEmpty, "the fire was recorded: it does not fire again")
        _ = app
    }

    @Test func aForegroundAppThatAsksForTheListGetsIt() async throws {
        let (h, _, shown) = try await deliver(foregroundOptions: [.banner, .list])
        #expect(shown.destinations.contains(.list))
        #expect(try await h.center.deliveredNotifications().map(\.identifier) == ["n"])
    }

    /// A banner shown without `.list` still takes its buttons while it is up.
    @Test func aBannerOutsideTheListStillReachesItsAppAndLeavesWhenDismissed() async throws {
        let (h, app, _) = try await deliver(foregroundOptions: [.banner])
        let outcome = try await h.user.open("n", in: h.center)
        #expect(outcome.deliveredToApp)
        #expect(app.responses.map(\.notification.identifier) == ["n"])
        try await h.center.removeDeliveredNotifications(withIdentifiers: ["n"])
        await #expect(throws: ChimeError.self) { _ = try await h.user.open("n", in: h.center) }
    }

    /// Without a delegate the system presents with the notification's own options, and lists it when the
    /// user's settings allow the list; with the list turned off for the app it is shown but not listed.
    @Test func withoutADelegateTheUsersSettingsDecide() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("listed"))
        #expect(await h.presenter.nextPresentation().destinations.contains(.list))
        #expect(try await h.center.deliveredNotifications().map(\.identifier) == ["listed"])

        var settings = try await h.center.notificationSettings()
        settings.notificationCenterSetting = .disabled
        try await h.center.updateSettings(settings)
        try await h.center.add(h.request("banner-only"))
        let shown = await h.presenter.nextPresentation()
        #expect(shown.notificationIdentifier == "banner-only" && shown.destinations.contains(.banner) && !shown.destinations.contains(.list))
        #expect(try await h.center.deliveredNotifications().map(\.identifier) == ["listed"])
    }
}
