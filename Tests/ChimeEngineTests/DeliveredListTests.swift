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

/// An app in the foreground whose `willPresent` never answers (hung, or waiting on something that never
/// comes): the embedded engine bounds the wait as the daemon does.
@Suite("Engine: a foreground app that does not answer willPresent")
struct UnansweredWillPresentTests {
    final class SilentApp: NotificationCenterDelegate {
        func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions {
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }  // never resumed
            return []
        }
    }

    @Test func theSystemPresentsAfterTheTimeoutAndStopsAskingAfterTwoMisses() async throws {
        let h = try await EngineHarness.make().started()
        let app = SilentApp()
        await h.center.setDelegate(app)
        let other = h.engine.center(for: "com.example.other")
        _ = try await other.requestAuthorization(options: [.alert])
        try await h.center.add(contentsOf: [h.request("first"), h.request("second"), h.request("third")])
        try await other.add(h.request("elsewhere"))
        // Another app's notification does not wait for this one's answer.
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "elsewhere")

        await h.run(for: 5)
        let first = await h.presenter.nextPresentation()
        #expect(first.notificationIdentifier == "first")
        #expect(first.destinations.contains(.banner) && first.destinations.contains(.list), "presented as the system does")
        await h.run(for: 5)
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "second")
        // Two misses in a row: the third is not asked about, so it shows without another wait.
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "third")
        #expect(h.clock.now == EngineHarness.start.addingTimeInterval(10))
        #expect(try await h.center.deliveredNotifications().map(\.identifier).sorted() == ["first", "second", "third"])
        withExtendedLifetime(app) {}
    }
}
