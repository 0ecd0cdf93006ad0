import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Synchronization
import Testing

/// The seeds' apps as the engine sees them: like/dislike photo posts, meeting invites with a typed
/// reason, and the rating content extension.
@Suite("Engine: responses")
struct NotificationEngineResponseTests {
    static func photoCategory() throws -> NotificationCategory {
        try NotificationCategory(
            identifier: "CATEGORY_IMAGE_POSTING",
            actions: [
                NotificationAction(identifier: "ACTION_LIKE", title: "Like"),
                NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike"),
                NotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow", options: [.destructive, .authenticationRequired]),
                NotificationAction(identifier: "ACTION_SETTINGS", title: "Settings", options: [.foreground]),
            ],
            options: [.customDismissAction, .hiddenPreviewsShowTitle])
    }

    static func meetingCategory() throws -> NotificationCategory {
        try NotificationCategory(
            identifier: "meetingCategory",
            actions: [
                NotificationAction(identifier: "accept", title: "Accept"),
                NotificationAction(identifier: "decline", title: "Decline"),
                NotificationAction.textInput(
                    identifier: "declineWithReason", title: "Decline with reason", buttonTitle: "Send", placeholder: "Reason"),
            ])
    }

    /// A started engine with the categories registered, an app delegate attached, and one delivered
    /// notification of `category`.
    func delivered(in category: String, delegate: ForegroundApp) async throws -> EngineHarness {
        let h = try await EngineHarness.make().started()
        try await h.center.setNotificationCategories([Self.photoCategory(), Self.meetingCategory()])
        await h.center.setDelegate(delegate, isForeground: false)
        try await h.center.add(h.request("n1", category: category))
        _ = await h.presenter.nextPresentation()
        return h
    }

    @Test func openingIsTheDefaultActionAndBringsTheAppForward() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "CATEGORY_IMAGE_POSTING", delegate: app)
        let outcome = try await h.user.open("n1", in: h.center)
        #expect(outcome.launch == .foreground)
        #expect(outcome.deliveredToApp)
        #expect(app.responses.map(\.actionIdentifier) == [NotificationResponse.defaultActionIdentifier])
        // The notification left the screen but stays in the list.
        #expect(h.presenter.withdrawals.last?.identifiers == ["n1"])
        #expect(try await h.center.deliveredNotifications().count == 1)
    }

    @Test func aCustomActionRunsInTheBackgroundAndAForegroundOneLaunchesTheApp() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "CATEGORY_IMAGE_POSTING", delegate: app)
        #expect(try await h.user.tap("ACTION_LIKE", on: "n1", in: h.center).launch == .background)
        #expect(try await h.user.tap("ACTION_SETTINGS", on: "n1", in: h.center).launch == .foreground)
        #expect(app.responses.map(\.actionIdentifier) == ["ACTION_LIKE", "ACTION_SETTINGS"])
    }

    @Test func anAuthenticationRequiredActionIsRefusedWhileLocked() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "CATEGORY_IMAGE_POSTING", delegate: app)
        await h.engine.updateEnvironment(UserEnvironment(isLocked: true))
        await #expect {
            try await h.user.tap("ACTION_UNFOLLOW", on: "n1", in: h.center)
        } throws: { ($0 as? ChimeError)?.code == .sessionLocked }
        #expect(app.responses.isEmpty)
        await h.engine.updateEnvironment(UserEnvironment(isLocked: false))
        try await h.user.tap("ACTION_UNFOLLOW", on: "n1", in: h.center)
        #expect(app.responses.map(\.actionIdentifier) == ["ACTION_UNFOLLOW"])
    }

    @Test func aDismissalReachesTheAppOnlyWhenItsCategoryAsks() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "CATEGORY_IMAGE_POSTING", delegate: app)  // customDismissAction
        let outcome = try await h.user.dismiss("n1", in: h.center)
        #expect(outcome.response?.isDismissAction == true)
        #expect(app.responses.map(\.actionIdentifier) == [NotificationResponse.dismissActionIdentifier])

        let other = ForegroundApp()
        let plain = try await delivered(in: "meetingCategory", delegate: other)  // no customDismissAction
        let silent = try await plain.user.dismiss("n1", in: plain.center)
        #expect(silent.response == nil)
        #expect(silent.launch == .none)
        #expect(other.responses.isEmpty)
        // Either way the user cleared it: it leaves the delivered list.
        #expect(try await h.center.deliveredNotifications().isEmpty)
        #expect(try await plain.center.deliveredNotifications().isEmpty)
    }

    @Test func theTypedReasonReachesTheHandler() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "meetingCategory", delegate: app)
        try await h.user.reply("I'm travelling that week", with: "declineWithReason", on: "n1", in: h.center)
        #expect(app.responses.first?.actionIdentifier == "declineWithReason")
        #expect(app.responses.first?.userText == "I'm travelling that week")
    }

    @Test func actionsTheNotificationDoesNotOfferAreRefused() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "meetingCategory", delegate: app)
        for (action, code) in [
            (UserAction.action("ACTION_LIKE"), ChimeError.Code.actionNotAvailable),  // another category's
            (.action("declineWithReason"), .actionNotAvailable),  // needs text
            (.reply(action: "accept", text: "x"), .actionNotAvailable),  // takes none
        ] {
            await #expect {
                try await h.engine.respond(appIdentifier: "com.example.app", notificationIdentifier: "n1", action: action)
            } throws: { ($0 as? ChimeError)?.code == code }
        }
        await #expect {
            try await h.user.open("no-such-notification", in: h.center)
        } throws: { ($0 as? ChimeError)?.code == .notificationNotFound }
        #expect(app.responses.isEmpty)
    }

    @Test func theRatingExtensionReplacesRateWithStarsAndKeepsTheNotification() async throws {
        let app = ForegroundApp()
        let h = try await EngineHarness.make().started()
        try await h.center.setNotificationCategories([
            NotificationCategory(identifier: "rating", actions: [NotificationAction(identifier: "rate", title: "Rate")])
        ])
        await h.center.setDelegate(app, isForeground: false)
        try await h.center.add(h.request("movie", category: "rating"))
        #expect(await h.presenter.nextPresentation().actions.map(\.identifier) == ["rate"])

        let stars = try ["one", "two", "three"].map { try NotificationAction(identifier: "\($0)-star", title: .literal("\($0) star")) }
        app.disposition = .replaceActions(stars)
        try await h.user.tap("rate", on: "movie", in: h.center)
        #expect(await h.presenter.nextPresentation().actions.map(\.identifier) == ["one-star", "two-star", "three-star"])
        #expect(try await h.center.deliveredNotifications().first?.actionsOverride?.count == 3)

        // Choosing a star clears the buttons; the notification stays.
        app.disposition = .clearActions
        try await h.user.tap("two-star", on: "movie", in: h.center)
        #expect(await h.presenter.nextPresentation().actions.isEmpty)

        // Dismissing from a custom control removes it.
        app.disposition = .dismiss
        try await h.user.open("movie", in: h.center)
        #expect(try await h.center.deliveredNotifications().isEmpty)
    }

    @Test func performingTheDefaultActionFromAControlOpensTheApp() async throws {
        let app = ForegroundApp()
        let h = try await delivered(in: "CATEGORY_IMAGE_POSTING", delegate: app)
        app.disposition = .performDefaultAction
        let outcome = try await h.user.tap("ACTION_LIKE", on: "n1", in: h.center)
        #expect(outcome.launch == .foreground)
        #expect(try await h.center.deliveredNotifications().isEmpty)
    }

    @Test func withoutARunningAppTheResponseIsLeftForTheLauncher() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.setNotificationCategories([Self.photoCategory()])
        try await h.center.add(h.request("n1", category: "CATEGORY_IMAGE_POSTING"))
        _ = await h.presenter.nextPresentation()
        let outcome = try await h.user.tap("ACTION_SETTINGS", on: "n1", in: h.center)
        #expect(!outcome.deliveredToApp)
        #expect(outcome.launch == .foreground)
        #expect(outcome.response?.actionIdentifier == "ACTION_SETTINGS")
    }
}

@Suite("Engine: response handlers")
struct NotificationEngineResponseHandlerTests {
    /// An app whose response handler never finishes.
    final class StuckApp: NotificationCenterDelegate {
        func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }  // never resumed
            return .standard
        }
    }

    /// Remembers every warning.
    final class RecordingLog: EngineLog {
        private let stored = Mutex<[String]>([])
        var warnings: [String] { stored.withLock { $0 } }
        func warning(_ message: String) { stored.withLock { $0.append(message) } }
        func info(_ message: String) {}
    }

    @Test func aHandlerThatNeverCompletesIsLoggedWhenItOverruns() async throws {
        let log = RecordingLog()
        let clock = ManualClock(now: EngineHarness.start)
        let presenter = RecordingPresenter()
        let engine = NotificationEngine(store: InMemoryNotificationStore(), clock: clock, presenter: presenter, log: log)
        let center = engine.center(for: "com.example.app")
        _ = try await center.requestAuthorization(options: [.alert])
        let app = StuckApp()
        await center.setDelegate(app)
        await engine.start()
        try await center.add(NotificationRequest(identifier: "n1", content: NotificationContent(title: "Hi"), trigger: nil))
        _ = await presenter.nextPresentation()

        let stuck = Task { try await engine.respond(appIdentifier: "com.example.app", notificationIdentifier: "n1", action: .open) }
        // The scheduler now also wakes when the handler's 30 s are up.
        var deadline = await clock.nextWakeUp()
        while deadline != EngineHarness.start.addingTimeInterval(30) {
            deadline = await clock.nextWakeUp()
        }
        #expect(log.warnings.isEmpty)
        clock.advance(to: deadline)
        _ = await clock.nextWakeUp()  // the scheduler has run its check and sleeps again
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.contains("has not completed after 30 s") == true)
        stuck.cancel()
        withExtendedLifetime(app) {}
    }
}

/// A presenter that takes answers learns its engine when the engine starts, without being told twice.
@Suite("Engine: connecting the presenter")
struct NotificationEnginePresenterConnectionTests {
    final class ConnectingPresenter: NotificationPresenter {
        let engines = Mutex<[ObjectIdentifier]>([])
        func present(_ presentation: Presentation) async {}
        func withdraw(appIdentifier: String, identifiers: [String]) async {}
        func updateBadge(appIdentifier: String, count: Int) async {}
        func connect(to engine: NotificationEngine) { engines.withLock { $0.append(ObjectIdentifier(engine)) } }
    }

    @Test func startingTheEngineConnectsItsPresenterOnce() async throws {
        let presenter = ConnectingPresenter()
        let engine = NotificationEngine(store: InMemoryNotificationStore(), clock: ManualClock(now: .now), presenter: presenter, log: SilentLog())
        #expect(presenter.engines.withLock { $0 }.isEmpty)
        await engine.start()
        await engine.start()
        #expect(presenter.engines.withLock { $0 } == [ObjectIdentifier(engine)])
        await engine.stop()
    }
}
