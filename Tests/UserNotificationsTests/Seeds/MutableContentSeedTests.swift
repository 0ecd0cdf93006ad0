import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

// Seed 004, Apple's UNMutableNotificationContent page (Listing 1): a localized greeting in five seconds.
// The listing is Swift 3; it is written here in the spelling that compiles on iOS today
// (`localizedUserNotificationString(forKey:arguments:)`, `UNNotificationSound.default`), and the error
// it leaves to "handle" is handed to the caller.

fileprivate func scheduleGreeting(handleError: @escaping (any Error) -> Void) {
    // Configure the notification's payload.
    let content = UNMutableNotificationContent()
    content.title = NSString.localizedUserNotificationString(forKey: "Hello!", arguments: nil)
    content.body = NSString.localizedUserNotificationString(forKey: "Hello_message_body", arguments: nil)
    content.sound = UNNotificationSound.default

    // Deliver the notification in five seconds.
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
    let request = UNNotificationRequest(identifier: "FiveSecond", content: content, trigger: trigger) // Schedule the notification.
    let center = UNUserNotificationCenter.current()
    center.add(request) { (error : Error?) in
         if let theError = error {
             // Handle any errors
             handleError(theError)
         }
    }
}

extension SeedTests {
    @Suite("Seed 004: localized content, resolved when delivered")
    struct MutableContent {
        func harness(languages: [String]) async throws -> Harness {
            let h = Harness()
            let tables = [
                "en": try StringsTable(parsing: #""Hello!" = "Hello!"; "Hello_message_body" = "Hello there, how are you?";"#),
                "ko": try StringsTable(parsing: #""Hello!" = "안녕하세요!"; "Hello_message_body" = "잘 지내세요?";"#),
            ]
            await h.engine.setLocalizer(NotificationLocalizer(tables: tables), for: Harness.appIdentifier)
            await h.engine.updateEnvironment(UserEnvironment(preferredLanguages: languages))
            _ = try await h.center.requestAuthorization(options: [.alert, .sound])
            return h
        }

        @Test func theGreetingIsStoredAsKeysAndShownInTheLanguageOfTheMomentItArrives() async throws {
            let h = try await harness(languages: ["en"])
            UNUserNotificationCenter.withCurrent(h.center) {
                scheduleGreeting { error in Issue.record(error) }
            }
            await h.settle()
            let stored = try #require(await h.appCenter.pendingNotificationRequests().first)
            #expect(stored.content.title == .localized(key: "Hello!"))
            #expect(stored.content.body == .localized(key: "Hello_message_body"))

            // The user switches to Korean before the notification arrives.
            await h.engine.updateEnvironment(UserEnvironment(preferredLanguages: ["ko-KR"]))
            await h.run(for: 5)
            let shown = await h.presenter.nextPresentation()
            #expect(shown.title == "안녕하세요!")
            #expect(shown.body == "잘 지내세요?")
            #expect(shown.sound == .default)
        }

        @Test func theRequestReadBackKeepsItsTextDeferred() async throws {
            let h = try await harness(languages: ["en"])
            UNUserNotificationCenter.withCurrent(h.center) {
                scheduleGreeting { error in Issue.record(error) }
            }
            let pending = try #require(await h.center.pendingNotificationRequests().first)
            #expect(pending.content.title == NSString.localizedUserNotificationString(forKey: "Hello!", arguments: nil))

            // Adding it again (say, to reschedule it) keeps the keys.
            try await h.center.add(UNNotificationRequest(identifier: pending.identifier, content: pending.content, trigger: pending.trigger))
            let again = try #require(await h.appCenter.pendingNotificationRequests().first)
            #expect(again.content.title == .localized(key: "Hello!"))
            await h.run(for: 5)
            #expect(await h.presenter.nextPresentation().title == "Hello!")
        }
    }
}
