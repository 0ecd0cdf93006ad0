import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

// Seed 002, notes on WWDC 2018's "What's New in User Notifications": grouped notifications, content
// extensions with dynamic actions, the app's own notification settings, provisional authorization and
// critical alerts. The seed's snippets are slide code; they are used as written except where they do not
// compile on iOS either: `if response.actionIdentifier = "rate-action"` is `==`, the authorization
// callbacks `{ }` take their two parameters `{ _, _ in }`, the AppDelegate inherits from UIResponder (a
// delegate must be an NSObject), and names the slides leave undefined (`newActions`, the star actions) are
// defined. The view controllers' base class is the UIKit stand-in.

// MARK: Grouped notifications

fileprivate func groupedPhotoContent() -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = "New Photo"
    content.body = "Jane Doe Posted a new Photo"
    content.threadIdentifier = "thread-identifier"
    return content
}

// MARK: Content extensions

fileprivate class NotificationViewController: UIViewController, UNNotificationContentExtension {
    func didReceive(_ response: UNNotificationResponse, completionHandler completion: (UNNotificationContentExtensionResponseOption) -> Void) {
        if response.actionIdentifier == "like-action" {
            // update state...
            let unlikeAction = UNNotificationAction(identifier: "unlike-action",
            title: "Unlike", options: [])
            let currentActions = extensionContext?.notificationActions
            let commentAction = currentActions![1]
            let newActions = [ unlikeAction, commentAction ]
            extensionContext?.notificationActions = newActions
        }
    }
}

fileprivate class SetUpViewController: UIViewController, UNNotificationContentExtension {
    let newActions = [UNNotificationAction(identifier: "share-action", title: "Share", options: [])]

    func didReceive(_ notification: UNNotification) {
        // Set up Content extension view...
        extensionContext?.notificationActions = newActions
    }
}

fileprivate class RatingViewController: UIViewController, UNNotificationContentExtension {
    let oneStarAction = UNNotificationAction(identifier: "one-star", title: "★", options: [])
    let twoStarAction = UNNotificationAction(identifier: "two-stars", title: "★★", options: [])
    let threeStarAction = UNNotificationAction(identifier: "three-stars", title: "★★★", options: [])

    func didReceive(_ response: UNNotificationResponse,
    completionHandler completion: (UNNotificationContentExtensionResponseOption) -> Void) {
        if response.actionIdentifier == "rate-action" {
            extensionContext?.notificationActions = [ oneStarAction, twoStarAction, threeStarAction ]
        }
    }
}

fileprivate class ClearingViewController: UIViewController, UNNotificationContentExtension {
    func didReceive(_ response: UNNotificationResponse,
    completionHandler completion: (UNNotificationContentExtensionResponseOption) -> Void) {
        if response.actionIdentifier == "rate-action" {
            extensionContext?.notificationActions = [ ]
        }
    }
}

// MARK: The app's own notification settings

fileprivate class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    var settingsOpened: [UNNotification?] = []  // what the test reads; the seed's body is comments only

    func userNotificationCenter(_ center: UNUserNotificationCenter,
    openSettingsFor notification: UNNotification? ) {
        // notification을 통해서 들어왔으면 notification이 있을 것이고
        // 설정 화면을 통해서 들어왔으면 notifiacation이 nil일 것이다.
        settingsOpened.append(notification)
    }
}

// MARK: Provisional authorization and critical alerts

fileprivate func requestProvisional(_ notificationCenter: UNUserNotificationCenter) {
    notificationCenter.requestAuthorization(
    options: [.badge, .sound, .alert, .provisional]) { _, _ in
    }
}

fileprivate func requestCritical(_ notificationCenter: UNUserNotificationCenter) {
    notificationCenter.requestAuthorization(
    options: [.badge, .sound, .alert, .criticalAlert]) { _, _ in
    }
}

fileprivate func lowGlucoseContent(customSound: Bool) -> UNMutableNotificationContent {
    // 소리 설정
    let content = UNMutableNotificationContent()
    content.title = "WARNING: LOW BLOOD SUGAR"
    content.body = "Glucose level at 57"
    content.categoryIdentifier = "low-glucose-alert"
    content.sound = UNNotificationSound.defaultCritical

    // 커스텀 사운드 설정
    if customSound {
        content.sound = .criticalSoundNamed(.init("warning-sound"), withAudioVolume: 1.00)
    }
    return content
}

extension SeedTests {
    @Suite("Seed 002: what's new — groups, dynamic actions, settings, provisional and critical")
    struct WhatsNew {
        func deliver(_ content: UNNotificationContent, as identifier: String, in h: Harness) async throws -> Presentation {
            try await h.center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
            return await h.presenter.nextPresentation()
        }

        @Test func notificationsWithOneThreadIdentifierAreGroupedTogether() async throws {
            let h = Harness()
            _ = try await h.center.requestAuthorization(options: [.alert])
            _ = try await deliver(groupedPhotoContent(), as: "photo-1", in: h)
            let second = try await deliver(groupedPhotoContent(), as: "photo-2", in: h)
            #expect(second.group.threadIdentifier == "thread-identifier")
            #expect(second.group.count == 2)
            let delivered = await h.center.deliveredNotifications()
            #expect(delivered.map(\.request.content.threadIdentifier) == ["thread-identifier", "thread-identifier"])
        }

        /// A center with the photo and rating categories, authorized, and `makeExtension` registered for
        /// both.
        func photoCenter(_ makeExtension: @escaping @Sendable () -> any UNNotificationContentExtension) async throws -> Harness {
            let h = Harness()
            _ = try await h.center.requestAuthorization(options: [.alert, .sound])
            h.center.setNotificationCategories([
                UNNotificationCategory(
                    identifier: "photo",
                    actions: [
                        UNNotificationAction(identifier: "like-action", title: "Like", options: []),
                        UNNotificationAction(identifier: "comment-action", title: "Comment", options: []),
                    ], intentIdentifiers: []),
                UNNotificationCategory(
                    identifier: "rating", actions: [UNNotificationAction(identifier: "rate-action", title: "Rate", options: [])],
                    intentIdentifiers: []),
            ])
            h.center.registerContentExtension(forCategoryIdentifiers: ["photo", "rating"], makeExtension)
            return h
        }

        func content(category: String) -> UNNotificationContent {
            let content = UNMutableNotificationContent()
            content.title = "Jane Doe"
            content.body = "posted a photo"
            content.categoryIdentifier = category
            return content
        }

        @Test func likeTurnsIntoUnlikeAndTheNotificationStays() async throws {
            let h = try await photoCenter { NotificationViewController() }
            let first = try await deliver(content(category: "photo"), as: "post-1", in: h)
            #expect(first.actions.map(\.title) == ["Like", "Comment"])

            let outcome = try await h.user.tap("like-action", on: "post-1", in: h.appCenter)
            #expect(outcome.disposition.outcome == .keepOnScreen)  // the seed never completes: .doNotDismiss
            let updated = await h.presenter.nextPresentation()
            #expect(updated.notificationIdentifier == "post-1")
            #expect(updated.actions.map(\.title) == ["Unlike", "Comment"])
            #expect(await h.center.deliveredNotifications().count == 1)

            // The old button is gone; the new one reaches the extension.
            await #expect {
                try await h.user.tap("like-action", on: "post-1", in: h.appCenter)
            } throws: { ($0 as? ChimeError)?.code == .actionNotAvailable }
            #expect(try await h.user.tap("unlike-action", on: "post-1", in: h.appCenter).disposition.outcome == .keepOnScreen)
        }

        @Test func rateTurnsIntoThreeStars() async throws {
            let h = try await photoCenter { RatingViewController() }
            _ = try await deliver(content(category: "rating"), as: "order-1", in: h)
            try await h.user.tap("rate-action", on: "order-1", in: h.appCenter)
            let stars = await h.presenter.nextPresentation()
            #expect(stars.actions.map(\.title) == ["★", "★★", "★★★"])
            #expect(try await h.user.tap("two-stars", on: "order-1", in: h.appCenter).response?.actionIdentifier == "two-stars")
        }

        @Test func anExtensionCanRemoveEveryAction() async throws {
            let h = try await photoCenter { ClearingViewController() }
            _ = try await deliver(content(category: "rating"), as: "order-1", in: h)
            let outcome = try await h.user.tap("rate-action", on: "order-1", in: h.appCenter)
            #expect(outcome.disposition.actions == .clear)
            #expect(await h.presenter.nextPresentation().actions.isEmpty)
        }

        @Test func actionsSetWhenTheExtensionLoadsApplyWithItsFirstResponse() async throws {
            final class App: NSObject, UNUserNotificationCenterDelegate {
                let received = Completion<String>()
                func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
                    received.receive(response.actionIdentifier)
                }
            }
            let h = try await photoCenter { SetUpViewController() }
            let app = App()
            h.center.delegate = app
            _ = try await deliver(content(category: "photo"), as: "post-1", in: h)
            // SetUpViewController leaves responses to the default: dismiss and forward them to the app.
            let outcome = try await h.user.tap("comment-action", on: "post-1", in: h.appCenter)
            #expect(await app.received.next() == "comment-action")
            #expect(outcome.disposition.actions == .replace([try NotificationAction(identifier: "share-action", title: "Share")]))
            #expect(outcome.disposition.outcome == .dismiss)
            #expect(await h.center.deliveredNotifications().isEmpty)
        }

        @Test func theSystemOpensTheAppsOwnSettingsFromANotificationOrFromSettings() async throws {
            let h = Harness()
            let appDelegate = AppDelegate()
            h.center.delegate = appDelegate
            _ = try await h.center.requestAuthorization(options: [.alert, .providesAppNotificationSettings])
            #expect(await h.center.notificationSettings().providesAppNotificationSettings)
            _ = try await deliver(groupedPhotoContent(), as: "photo-1", in: h)

            #expect(try await h.engine.openSettings(appIdentifier: Harness.appIdentifier, notificationIdentifier: "photo-1"))
            #expect(try await h.engine.openSettings(appIdentifier: Harness.appIdentifier, notificationIdentifier: nil))
            #expect(appDelegate.settingsOpened.map { $0?.request.identifier } == ["photo-1", nil])
        }

        @Test func provisionalAuthorizationIsGrantedWithoutAskingAndDeliversQuietly() async throws {
            let h = Harness(answersAuthorization: nil)  // a prompt would wait forever
            requestProvisional(h.center)
            let settings = await h.center.notificationSettings()
            #expect(settings.authorizationStatus == .provisional)
            #expect(h.user.authorizationPrompts.isEmpty)

            let shown = try await deliver(groupedPhotoContent(), as: "photo-1", in: h)
            #expect(shown.destinations == .list)
            #expect(shown.sound == nil)
        }

        @Test func aCriticalAlertPlaysItsCriticalSound() async throws {
            let h = Harness()
            requestCritical(h.center)
            #expect(await h.center.notificationSettings().criticalAlertSetting == .enabled)
            #expect(try await deliver(lowGlucoseContent(customSound: false), as: "glucose-1", in: h).sound == .critical(named: nil, volume: 1))
            let custom = try await deliver(lowGlucoseContent(customSound: true), as: "glucose-2", in: h)
            #expect(custom.sound == .critical(named: "warning-sound", volume: 1))
            #expect(custom.title == "WARNING: LOW BLOOD SUGAR")
        }
    }
}
