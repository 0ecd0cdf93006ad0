import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

/// How a content extension's answers map onto the engine's `ResponseDisposition`.
@Suite("UNNotificationContentExtension: completion options and the context's requests")
struct ContentExtensionTests {
    /// Answers each action as the test scripts it: the identifier names what to do.
    final class ScriptedExtension: NSObject, UNNotificationContentExtension {
        /// What the test watches: each load, and a completion handler kept for later.
        final class Probes: Sendable {
            let loads = Completion<String>()
            let later = Locked<((UNNotificationContentExtensionResponseOption) -> Void)?>(nil)
        }

        let probes: Probes
        var responses = 0

        init(probes: Probes) {
            self.probes = probes
        }

        func didReceive(_ notification: UNNotification) {
            probes.loads.receive(notification.request.identifier)
        }

        func didReceive(
            _ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
        ) {
            responses += 1
            switch response.actionIdentifier {
            case "keep": completion(.doNotDismiss)
            case "dismiss": completion(.dismiss)
            case "forward": completion(.dismissAndForwardAction)
            case "open": extensionContext?.performNotificationDefaultAction()
            case "close": extensionContext?.dismissNotificationContentExtension()
            case "count": extensionContext?.notificationActions = [UNNotificationAction(identifier: "count", title: "\(responses)")]
            case "later": probes.later.value = completion
            default: break
            }
        }
    }

    final class App: NSObject, UNUserNotificationCenterDelegate {
        let responses = Completion<String>()

        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
            responses.receive(response.actionIdentifier)
        }
    }

    func delivered(app: App? = nil, probes: ScriptedExtension.Probes = .init()) async throws -> Harness {
        let h = Harness()
        h.center.delegate = app
        _ = try await h.center.requestAuthorization(options: [.alert])
        let actions = ["keep", "dismiss", "forward", "open", "close", "count", "later"].map {
            UNNotificationAction(identifier: $0, title: $0, options: [])
        }
        h.center.setNotificationCategories([UNNotificationCategory(identifier: "scripted", actions: actions, intentIdentifiers: [], options: [.customDismissAction])])
        h.center.registerContentExtension(forCategoryIdentifiers: ["scripted"]) { ScriptedExtension(probes: probes) }
        let content = UNMutableNotificationContent()
        content.title = "Scripted"
        content.categoryIdentifier = "scripted"
        try await h.center.add(UNNotificationRequest(identifier: "n", content: content, trigger: nil))
        _ = await h.presenter.nextPresentation()
        return h
    }

    @Test func doNotDismissKeepsTheNotificationOnScreen() async throws {
        let h = try await delivered()
        let outcome = try await h.user.tap("keep", on: "n", in: h.appCenter)
        #expect(outcome.disposition == .keepOnScreen)
        #expect(await h.center.deliveredNotifications().count == 1)
    }

    @Test func dismissRemovesIt() async throws {
        let app = App()
        let h = try await delivered(app: app)
        #expect(try await h.user.tap("dismiss", on: "n", in: h.appCenter).disposition == .dismiss)
        #expect(await h.center.deliveredNotifications().isEmpty)
    }

    @Test func dismissAndForwardHandsTheResponseToTheApp() async throws {
        let app = App()
        let h = try await delivered(app: app)
        #expect(try await h.user.tap("forward", on: "n", in: h.appCenter).disposition == .dismiss)
        #expect(await app.responses.next() == "forward")
        #expect(await h.center.deliveredNotifications().isEmpty)
    }

    @Test func performingTheDefaultActionOpensTheAppWithADefaultResponse() async throws {
        let app = App()
        let h = try await delivered(app: app)
        let outcome = try await h.user.tap("open", on: "n", in: h.appCenter)
        #expect(outcome.disposition.outcome == .performDefaultAction)
        #expect(outcome.launch == .foreground)
        #expect(await app.responses.next() == UNNotificationDefaultActionIdentifier)
    }

    @Test func dismissingTheExtensionRemovesTheNotification() async throws {
        let h = try await delivered()
        #expect(try await h.user.tap("close", on: "n", in: h.appCenter).disposition.outcome == .dismiss)
        #expect(await h.center.deliveredNotifications().isEmpty)
    }

    @Test func oneExtensionServesANotificationWhileItStaysOnScreen() async throws {
        let probes = ScriptedExtension.Probes()
        let h = try await delivered(probes: probes)
        try await h.user.tap("count", on: "n", in: h.appCenter)
        #expect(await probes.loads.next() == "n")
        #expect(await h.presenter.nextPresentation().actions.map(\.title) == ["1"])
        try await h.user.tap("count", on: "n", in: h.appCenter)
        #expect(await h.presenter.nextPresentation().actions.map(\.title) == ["2"])  // the same object counted
    }

    @Test func openingAndDismissingGoToTheAppNotTheExtension() async throws {
        let app = App()
        let h = try await delivered(app: app)
        try await h.user.open("n", in: h.appCenter)
        #expect(await app.responses.next() == UNNotificationDefaultActionIdentifier)
        try await h.user.dismiss("n", in: h.appCenter)
        #expect(await app.responses.next() == UNNotificationDismissActionIdentifier)
    }

    @Test func aCompletionAfterReturningStillDismisses() async throws {
        let probes = ScriptedExtension.Probes()
        let h = try await delivered(probes: probes)
        let outcome = try await h.user.tap("later", on: "n", in: h.appCenter)
        #expect(outcome.disposition == .keepOnScreen)  // not answered yet: stays
        let completion = try #require(probes.later.value)
        completion(.dismiss)
        completion(.dismissAndForwardAction)  // a second call is ignored
        #expect(await h.center.deliveredNotifications().isEmpty)
    }
}
