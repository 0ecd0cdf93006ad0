import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

/// Which of the delegate's forms the center calls: the completion-handler form, whose default calls the
/// async form, whose default answers as Apple does for a method the app does not implement.
@Suite("UNUserNotificationCenterDelegate: completion-handler and async forms")
struct DelegateFormsTests {
    final class AsyncApp: NSObject, UNUserNotificationCenterDelegate {
        let responses = Completion<String>()

        func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
            -> UNNotificationPresentationOptions
        {
            #expect(UNUserNotificationCenter.current() === center)
            return [.banner, .sound]
        }

        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
            responses.receive(response.actionIdentifier)
        }
    }

    final class BothFormsApp: NSObject, UNUserNotificationCenterDelegate {
        func userNotificationCenter(
            _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
            withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
        ) {
            completionHandler([.list])
        }

        func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
            -> UNNotificationPresentationOptions
        {
            Issue.record("the async form is not called when the completion-handler form exists")
            return [.banner]
        }
    }

    final class SilentApp: NSObject, UNUserNotificationCenterDelegate {}

    final class CompletesTwiceApp: NSObject, UNUserNotificationCenterDelegate {
        func userNotificationCenter(
            _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
            withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
        ) {
            #expect(!Thread.isMainThread)
            completionHandler([.banner])
            completionHandler([])
        }

        func userNotificationCenter(
            _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void
        ) {
            DispatchQueue.global().async {
                completionHandler()
                completionHandler()
            }
        }
    }

    func deliver(to delegate: any UNUserNotificationCenterDelegate, in h: Harness) async throws -> Presentation {
        h.center.delegate = delegate
        _ = try await h.center.requestAuthorization(options: [.alert, .sound])
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.sound = .default
        try await h.center.add(UNNotificationRequest(identifier: "n", content: content, trigger: nil))
        return await h.presenter.nextPresentation()
    }

    @Test func anAppWithOnlyTheAsyncFormsGetsThem() async throws {
        let h = Harness()
        let app = AsyncApp()
        let shown = try await deliver(to: app, in: h)
        #expect(shown.destinations == .banner)
        #expect(shown.sound == .default)
        try await h.user.open("n", in: h.appCenter)
        #expect(await app.responses.next() == UNNotificationDefaultActionIdentifier)
    }

    @Test func theCompletionHandlerFormWinsOverTheAsyncForm() async throws {
        let h = Harness()
        let app = BothFormsApp()
        #expect(try await deliver(to: app, in: h).destinations == .list)
    }

    @Test func aDelegateWithoutWillPresentShowsNothingInTheForegroundAsOnIOS() async throws {
        let h = Harness()
        let app = SilentApp()
        #expect(try await deliver(to: app, in: h).destinations.isEmpty)
        let outcome = try await h.user.open("n", in: h.appCenter)
        #expect(outcome.deliveredToApp)  // and nothing happens
    }

    @Test func inTheBackgroundTheSystemPresentsAndTheDelegateStillGetsResponses() async throws {
        let h = Harness()
        let app = AsyncApp()
        h.center.isApplicationInForeground = false
        #expect(try await deliver(to: app, in: h).destinations.contains(.banner))
        try await h.user.open("n", in: h.appCenter)
        #expect(await app.responses.next() == UNNotificationDefaultActionIdentifier)
    }

    @Test func withoutADelegateTheSystemPresents() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        try await h.center.add(UNNotificationRequest(identifier: "n", content: UNMutableNotificationContent(), trigger: nil))
        #expect(await h.presenter.nextPresentation().destinations.contains(.banner))
        #expect(try await h.user.open("n", in: h.appCenter).deliveredToApp == false)
    }

    @Test func aCompletionHandlerCalledTwiceCountsOnce() async throws {
        let h = Harness()
        let app = CompletesTwiceApp()
        #expect(try await deliver(to: app, in: h).destinations == .banner)
        try await h.user.open("n", in: h.appCenter)
        #expect(try await h.user.open("n", in: h.appCenter).deliveredToApp)
    }

    @Test func aDelegateThatWentAwayIsNotCalled() async throws {
        let h = Harness()
        var app: AsyncApp? = AsyncApp()
        h.center.delegate = app
        #expect(h.center.delegate != nil)
        app = nil
        #expect(h.center.delegate == nil)  // held weakly, as on Apple
    }

    @Test func theDelegateCanBeCalledDirectlyWithChimesInitializers() async throws {
        // What Apple's API cannot do: build a response to test a delegate without the system.
        let app = AsyncApp()
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        let notification = UNNotification(request: UNNotificationRequest(identifier: "n", content: content, trigger: nil), date: Harness.start)
        let response = UNTextInputNotificationResponse(notification: notification, actionIdentifier: "reply", userText: "On my way")
        await app.userNotificationCenter(Harness().center, didReceive: response)
        #expect(await app.responses.next() == "reply")
        #expect(response.userText == "On my way")
        #expect(response.notification.request.content.title == "Hello")
    }
}
