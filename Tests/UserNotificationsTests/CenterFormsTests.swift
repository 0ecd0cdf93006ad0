import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

/// Every center method, in its completion-handler form and its `async` form, against the same engine.
@Suite("UNUserNotificationCenter: completion-handler and async forms")
struct CenterFormsTests {
    func content(_ title: String = "Tea is ready") -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        return content
    }

    func request(_ identifier: String, after seconds: TimeInterval = 60) -> UNNotificationRequest {
        UNNotificationRequest(
            identifier: identifier, content: content(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false))
    }

    @Test func requestAuthorizationAnswersInBothForms() async throws {
        let h = Harness()
        let answer = Completion<Bool>()
        h.center.requestAuthorization(options: [.alert, .sound]) { granted, error in
            #expect(error == nil)
            answer.receive(granted)
        }
        #expect(await answer.next())
        #expect(try await h.center.requestAuthorization(options: [.alert, .sound]))
        #expect(h.user.authorizationPrompts.count == 1)  // decided once

        let denied = Harness(answersAuthorization: false)
        #expect(try await denied.center.requestAuthorization(options: [.alert]) == false)
    }

    @Test func settingsReadInBothForms() async throws {
        let h = Harness()
        #expect(await h.center.notificationSettings().authorizationStatus == .notDetermined)
        _ = try await h.center.requestAuthorization(options: [.alert, .sound, .badge])
        let settings = Completion<UNNotificationSettings>()
        h.center.getNotificationSettings(completionHandler: settings.handler)
        let read = await settings.next()
        #expect(read.authorizationStatus == .authorized)
        #expect(read.alertSetting == .enabled)
        #expect(read.soundSetting == .enabled)
        #expect(read.badgeSetting == .enabled)
        #expect(read.carPlaySetting == .notSupported)
        #expect(read.alertStyle == .banner)
        #expect(read.showPreviewsSetting == .always)
        #expect(read.providesAppNotificationSettings == false)
        #expect(read == (await h.center.notificationSettings()))
    }

    @Test func categoriesRegisterAndReadInBothForms() async throws {
        let h = Harness()
        let reply = UNTextInputNotificationAction(
            identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        let category = UNNotificationCategory(
            identifier: "chat", actions: [reply, UNNotificationAction(identifier: "mute", title: "Mute", options: [.destructive])],
            intentIdentifiers: ["INSendMessageIntent"], hiddenPreviewsBodyPlaceholder: "%u new messages", options: [.customDismissAction])
        h.center.setNotificationCategories([category])

        let read = Completion<Set<UNNotificationCategory>>()
        h.center.getNotificationCategories(completionHandler: read.handler)
        #expect(await read.next() == [category])
        let again = try #require(await h.center.notificationCategories().first)
        #expect(again == category)
        let readReply = try #require(again.actions.first as? UNTextInputNotificationAction)
        #expect(readReply.textInputButtonTitle == "Send")
        #expect(readReply.textInputPlaceholder == "Message")
        #expect(again.hiddenPreviewsBodyPlaceholder == "%u new messages")
        #expect(again.intentIdentifiers == ["INSendMessageIntent"])

        // Registering replaces.
        h.center.setNotificationCategories([])
        #expect(await h.center.notificationCategories().isEmpty)
    }

    @Test func anUnregistrableCategoryChangesNothing() async throws {
        let h = Harness()
        let good = UNNotificationCategory(identifier: "good", actions: [], intentIdentifiers: [])
        h.center.setNotificationCategories([good])
        let reserved = UNNotificationAction(identifier: UNNotificationDefaultActionIdentifier, title: "Open", options: [])
        h.center.setNotificationCategories([UNNotificationCategory(identifier: "bad", actions: [reserved], intentIdentifiers: [])])
        #expect(await h.center.notificationCategories() == [good])
    }

    @Test func requestsAddListAndRemoveInBothForms() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        let added = Completion<(any Error)?>()
        h.center.add(request("a"), withCompletionHandler: { added.receive($0) })
        #expect(await added.next() == nil)
        try await h.center.add(request("b", after: 120))
        try await h.center.add(request("c", after: 180))

        let pending = Completion<[UNNotificationRequest]>()
        h.center.getPendingNotificationRequests(completionHandler: pending.handler)
        #expect(await pending.next().map(\.identifier) == ["a", "b", "c"])

        h.center.removePendingNotificationRequests(withIdentifiers: ["b"])
        #expect(await h.center.pendingNotificationRequests().map(\.identifier) == ["a", "c"])
        h.center.removeAllPendingNotificationRequests()
        #expect(await h.center.pendingNotificationRequests().isEmpty)
    }

    @Test func aRequestWithTheSameIdentifierReplacesThePendingOne() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        try await h.center.add(request("tea", after: 60))
        let replacement = UNNotificationRequest(
            identifier: "tea", content: content("Tea is cold"), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false))
        try await h.center.add(replacement)
        let pending = await h.center.pendingNotificationRequests()
        #expect(pending.map(\.content.title) == ["Tea is cold"])
        #expect((pending.first?.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 300)
    }

    @Test func deliveredNotificationsListAndRemoveInBothForms() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        for identifier in ["a", "b", "c"] {
            try await h.center.add(UNNotificationRequest(identifier: identifier, content: content(identifier), trigger: nil))
            _ = await h.presenter.nextPresentation()
            await h.run(for: 1)
        }
        let delivered = Completion<[UNNotification]>()
        h.center.getDeliveredNotifications(completionHandler: delivered.handler)
        let notifications = await delivered.next()
        #expect(notifications.map(\.request.identifier) == ["c", "b", "a"])  // newest first
        #expect(notifications.first?.date == h.clock.now.addingTimeInterval(-1))

        h.center.removeDeliveredNotifications(withIdentifiers: ["b"])
        #expect(await h.center.deliveredNotifications().map(\.request.identifier) == ["c", "a"])
        h.center.removeAllDeliveredNotifications()
        #expect(await h.center.deliveredNotifications().isEmpty)
        #expect(h.presenter.withdrawals.flatMap(\.identifiers).sorted() == ["a", "b", "c"])
    }

    @Test func theBadgeIsSetInBothForms() async throws {
        let h = Harness()
        let set = Completion<(any Error)?>()
        h.center.setBadgeCount(3, withCompletionHandler: { set.receive($0) })
        #expect(await set.next() == nil)
        #expect(h.presenter.badges[Harness.appIdentifier] == 3)
        try await h.center.setBadgeCount(0)
        #expect(h.presenter.badges[Harness.appIdentifier] == 0)

        h.center.setBadgeCount(-1, withCompletionHandler: { set.receive($0) })
        #expect((await set.next() as? UNError)?.code == .badgeInputInvalid)
        await #expect {
            try await h.center.setBadgeCount(-1)
        } throws: { error in
            guard case UNError.badgeInputInvalid = error else { return false }
            return true
        }
    }

    @Test func completionHandlersRunInCallOrderOffTheMainThreadWithTheirCenterAsCurrent() async throws {
        let h = Harness()
        let calls = Completion<String>()
        h.center.requestAuthorization(options: [.alert]) { _, _ in
            #expect(!Thread.isMainThread)
            #expect(UNUserNotificationCenter.current() === h.center)
            calls.receive("authorization")
        }
        h.center.add(request("a")) { _ in calls.receive("add") }
        h.center.getPendingNotificationRequests { _ in calls.receive("pending") }
        h.center.getNotificationSettings { _ in calls.receive("settings") }
        #expect([await calls.next(), await calls.next(), await calls.next(), await calls.next()] == ["authorization", "add", "pending", "settings"])
    }

    @Test func callsThatReturnAtOnceStillTakeEffectInOrder() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        h.center.setNotificationCategories([UNNotificationCategory(identifier: "tea", actions: [], intentIdentifiers: [])])
        // In an async context `add(_:)` is the async form, as on Apple: pass the handler to get the other.
        h.center.add(request("a"), withCompletionHandler: nil)
        h.center.removePendingNotificationRequests(withIdentifiers: ["a"])
        h.center.add(request("b"), withCompletionHandler: nil)
        #expect(await h.center.pendingNotificationRequests().map(\.identifier) == ["b"])
        #expect(await h.center.notificationCategories().map(\.identifier) == ["tea"])
    }

    @Test func withCurrentBindsTheCenterAndNothingElse() async throws {
        let h = Harness()
        UNUserNotificationCenter.withCurrent(h.center) {
            #expect(UNUserNotificationCenter.current() === h.center)
        }
        await UNUserNotificationCenter.withCurrent(h.center) {
            await Task { #expect(UNUserNotificationCenter.current() === h.center) }.value
        }
        #expect(h.center.supportsContentExtensions)
        #expect(h.center.appIdentifier == Harness.appIdentifier)
    }
}
