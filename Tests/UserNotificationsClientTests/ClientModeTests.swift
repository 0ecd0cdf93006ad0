import ChimeClient
import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing
@testable import UserNotifications

/// `UNUserNotificationCenter` in client mode, against a real `chimed` in a private home
/// (`--presenter log --authorization allow`), compared with the embedded engine.
@Suite("UNUserNotificationCenter in client mode", .serialized)
struct ClientModeTests {
    static let app = "com.example.meeting"

    /// Records what the center hands the app's delegate, and answers `willPresent` with `presentation`.
    // @unchecked Sendable: immutable apart from the inboxes, which lock.
    final class AppDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
        let presented = Inbox<String>()
        let responses = Inbox<(notification: String, action: String, text: String?)>()
        let presentation: UNNotificationPresentationOptions

        init(presentation: UNNotificationPresentationOptions = [.banner, .list]) {
            self.presentation = presentation
        }

        func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
            -> UNNotificationPresentationOptions
        {
            presented.put(notification.request.identifier)
            return presentation
        }

        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
            responses.put((response.notification.request.identifier, response.actionIdentifier, (response as? UNTextInputNotificationResponse)?.userText))
        }
    }

    /// The seeds' rating extension: "Rate" turns into star buttons and the notification stays.
    final class RatingExtension: NSObject, UNNotificationContentExtension {
        func didReceive(_ notification: UNNotification) {}

        func didReceive(
            _ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
        ) {
            if response.actionIdentifier == "rate" {
                extensionContext?.notificationActions = [
                    UNNotificationAction(identifier: "star1", title: "★"), UNNotificationAction(identifier: "star2", title: "★★"),
                ]
            }
            completion(.doNotDismiss)
        }
    }

    static var meetingCategory: UNNotificationCategory {
        let accept = UNNotificationAction(identifier: "accept", title: "Accept", options: [.foreground])
        let reply = UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        return UNNotificationCategory(identifier: "meeting", actions: [accept, reply], intentIdentifiers: [], options: [.customDismissAction])
    }

    static func request(_ identifier: String, trigger: UNNotificationTrigger?, category: String = "meeting") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Standup"
        content.body = "In ten minutes"
        content.categoryIdentifier = category
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    /// No session bus for embedded centers here: without a presenter they would look for the desktop's
    /// notification server there (`embeddedOnADesktopPresentsThroughItsNotificationServer` gives them one).
    static let noDesktop = BusAddress.address("disabled:")

    static func embeddedCenter(_ home: DaemonHome) -> UNUserNotificationCenter {
        EmbeddedCenter.make(
            EmbeddedCenter.Configuration(authorization: FixedAuthorization.allowAll, dataDirectory: home.embeddedDataDirectory, desktopBus: Self.noDesktop), appIdentifier: app)
    }

    /// What the script below saw: equal in both modes.
    struct Observation: Equatable {
        var granted = false
        var categories: [String: [String]] = [:]
        var pending: [String] = []
        var pendingTriggers: [String: Bool] = [:]
        var delivered: [String] = []
        var pendingAfterRemoval: [String] = []
        var deliveredAfterRemoval: [String] = []
        var badgeError: UNError.Code?
    }

    /// The same calls, in the same order, as an iOS app makes them; fire-and-forget calls are followed at
    /// once by reads that must see them.
    static func script(_ center: UNUserNotificationCenter) async throws -> Observation {
        var seen = Observation()
        seen.granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        center.setNotificationCategories([meetingCategory])
        let added = Inbox<Int>()
        center.add(request("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false))) { error in
            added.put(error == nil ? 0 : 1)
        }
        try await center.add(request("daily", trigger: UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 8, minute: 30), repeats: true)))
        try await center.add(request("now", trigger: nil))
        #expect(try await added.next("add's completion handler") == 0)

        // A request without a trigger is pending until the scheduler delivers it, in both modes.
        try await eventually("the notification without a trigger delivered") { await !center.deliveredNotifications().isEmpty }
        seen.delivered = await center.deliveredNotifications().map(\.request.identifier)
        seen.categories = Dictionary(uniqueKeysWithValues: await center.notificationCategories().map { ($0.identifier, $0.actions.map(\.identifier)) })
        let pending = await center.pendingNotificationRequests()
        seen.pending = pending.map(\.identifier).sorted()
        seen.pendingTriggers = Dictionary(uniqueKeysWithValues: pending.map { request in
            let next: Date? =
                switch request.trigger {
                case let trigger as UNCalendarNotificationTrigger: trigger.nextTriggerDate()
                case let trigger as UNTimeIntervalNotificationTrigger: trigger.nextTriggerDate()
                default: nil
                }
            return (request.identifier, next != nil)
        })

        center.removePendingNotificationRequests(withIdentifiers: ["daily"])
        seen.pendingAfterRemoval = await center.pendingNotificationRequests().map(\.identifier)
        center.removeDeliveredNotifications(withIdentifiers: ["now"])
        seen.deliveredAfterRemoval = await center.deliveredNotifications().map(\.request.identifier)

        try await center.setBadgeCount(3)
        do {
            try await center.setBadgeCount(-1)
        } catch let error as UNError {
            seen.badgeError = error.code
        }
        let badgeHandler = Inbox<UNError.Code?>()
        center.setBadgeCount(-2) { error in badgeHandler.put((error as? UNError)?.code) }
        #expect(try await badgeHandler.next("setBadgeCount's completion handler") == seen.badgeError)
        return seen
    }

    // MARK: Same results in both modes

    @Test func everyCallAnswersAsInEmbeddedMode() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let inDaemon = try await Self.script(UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths))
        let embedded = try await Self.script(Self.embeddedCenter(home))
        #expect(inDaemon == embedded)
        #expect(inDaemon.granted)
        #expect(inDaemon.categories == ["meeting": ["accept", "reply"]])
        #expect(inDaemon.pending == ["daily", "later"])
        #expect(inDaemon.pendingTriggers == ["daily": true, "later": true])
        #expect(inDaemon.delivered == ["now"])
        #expect(inDaemon.pendingAfterRemoval == ["later"])
        #expect(inDaemon.deliveredAfterRemoval == [])
        #expect(inDaemon.badgeError == .badgeInputInvalid)

        // The daemon holds what the center added.
        let user = try await home.connectAsUser()
        #expect(try await user.pendingRequests(app: Self.app).map(\.request.identifier) == ["later"])
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    @Test func aDeniedAppGetsNotificationsNotAllowedAsInEmbeddedMode() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let center = UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths)
        #expect(try await center.requestAuthorization(options: [.alert]))
        let user = try await home.connectAsUser()
        try await user.setAuthorization(app: Self.app, allowed: false)

        await #expect { try await center.add(Self.request("n", trigger: nil)) } throws: { ($0 as? UNError)?.code == .notificationsNotAllowed }
        let handler = Inbox<UNError.Code?>()
        center.add(Self.request("n", trigger: nil)) { error in handler.put((error as? UNError)?.code) }
        #expect(try await handler.next("add's completion handler") == .notificationsNotAllowed)
        #expect(await center.pendingNotificationRequests().isEmpty)

        let embedded = EmbeddedCenter.make(
            EmbeddedCenter.Configuration(authorization: FixedAuthorization.denyAll, dataDirectory: home.embeddedDataDirectory, desktopBus: Self.noDesktop), appIdentifier: Self.app)
        #expect(try await embedded.requestAuthorization(options: [.alert]) == false)
        await #expect { try await embedded.add(Self.request("n", trigger: nil)) } throws: { ($0 as? UNError)?.code == .notificationsNotAllowed }
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    @Test func fiveThousandPendingRequestsComeBackWholeAndInOrder() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let center = UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths)
        #expect(try await center.requestAuthorization(options: [.alert]))
        // Added through the daemon in batches (5,000 single adds would only make the test slow).
        let user = try await home.connectAsUser()
        for batch in stride(from: 0, to: 5000, by: 500) {
            let requests = try (batch..<batch + 500).map { index in
                try NotificationRequest(
                    identifier: String(format: "r%05d", index), content: NotificationContent(title: "Reminder"),
                    trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 3600 + Double(index), repeats: false)))
            }
            try await user.add(requests, app: Self.app)
        }
        let pending = await center.pendingNotificationRequests().map(\.identifier)
        #expect(pending.count == 5000)
        #expect(pending == (0..<5000).map { String(format: "r%05d", $0) }, "in fire order, each once")
        #expect(await daemon.terminate() == 0)
    }

    @Test func attachmentsMoveIntoTheDaemonsStoreAsIntoTheEmbeddedOne() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let image = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/PhotoReactions/Resources/hello.png")

        func addPhoto(to center: UNUserNotificationCenter) async throws -> (original: URL, stored: URL) {
            let original = home.root.appendingPathComponent("photo-\(UUID().uuidString.prefix(6)).png")
            try FileManager.default.copyItem(at: image, to: original)
            let content = UNMutableNotificationContent()
            content.title = "Photo"
            content.attachments = [try UNNotificationAttachment(identifier: "photo", url: original)]
            try await center.add(UNNotificationRequest(identifier: "photo", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
            let stored = try #require(await center.pendingNotificationRequests().first?.content.attachments.first?.url)
            return (original, stored)
        }

        let inDaemon = try await addPhoto(to: UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths))
        let embedded = try await addPhoto(to: Self.embeddedCenter(home))
        for (result, store) in [(inDaemon, home.paths.attachmentsDirectory), (embedded, EmbeddedPaths.attachments(in: home.embeddedDataDirectory))] {
            #expect(!FileManager.default.fileExists(atPath: result.original.path))
            #expect(FileManager.default.contentsEqual(atPath: result.stored.path, andPath: image.path))
            #expect(result.stored.standardizedFileURL.path.hasPrefix(store.standardizedFileURL.path))
        }
        #expect(await daemon.terminate() == 0)
    }

    // MARK: Delegate

    @Test func theDelegateAnswersWillPresentAndReceivesATextReplyMadeThroughTheDaemon() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let center = UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths)
        let delegate = AppDelegate()
        center.delegate = delegate
        _ = try await center.requestAuthorization(options: [.alert, .sound])
        center.setNotificationCategories([Self.meetingCategory])
        try await center.add(Self.request("n1", trigger: nil))

        #expect(try await delegate.presented.next("willPresent") == "n1")
        // Presented well before the daemon's 5 s presentation timeout: the delegate's answer reached it.
        try await daemon.presented(Self.app, "n1", within: 3)

        let user = try await home.connectAsUser()
        let result = try await user.respond(app: Self.app, notification: "n1", action: .reply(action: "reply", text: "On my way"))
        #expect(result.deliveredToApp)
        let response = try await delegate.responses.next("the reply")
        #expect(response.notification == "n1")
        #expect(response.action == "reply")
        #expect(response.text == "On my way")
        try await eventually("the response acknowledged") { try await user.apps().first { $0.entry.identifier == Self.app }?.queuedResponses == 0 }
        #expect(delegate.responses.count == 1)
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    /// chimed restarts (systemd restarts it after a crash): the app's next call connects again, and its
    /// subscription comes back by itself, so a response made after the restart reaches the delegate.
    @Test func theCenterFollowsChimedThroughARestart() async throws {
        let home = try DaemonHome()
        let first = try await home.start()
        let center = UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths)
        let delegate = AppDelegate()
        center.delegate = delegate
        _ = try await center.requestAuthorization(options: [.alert])
        center.setNotificationCategories([Self.meetingCategory])
        try await center.add(Self.request("before", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
        #expect(await first.terminate() == 0)

        let daemon = try await home.start()
        try await center.add(Self.request("after", trigger: nil))
        try await daemon.presented(Self.app, "after")
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["before"])

        let user = try await home.connectAsUser()
        _ = try await user.respond(app: Self.app, notification: "after", action: .action("accept"))
        let response = try await delegate.responses.next("the response after the restart")
        #expect(response.notification == "after" && response.action == "accept")
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    /// Without chimed and without a presenter of its own, an app on a desktop shows its notifications
    /// through the desktop's notification server, which also asks the user for permission.
    @Test func embeddedOnADesktopPresentsThroughItsNotificationServer() async throws {
        let bus = try await PrivateBus.start()
        let server = try await FakeNotificationServer.start(on: bus)
        do {
            let home = try DaemonHome()
            let center = EmbeddedCenter.make(
                EmbeddedCenter.Configuration(dataDirectory: home.embeddedDataDirectory, desktopBus: .address(bus.address)), appIdentifier: Self.app)
            async let granted = center.requestAuthorization(options: [.alert, .sound])
            let prompt = try await server.nextCall("Notify")
            #expect(prompt.actions == ["chime-allow", "Allow", "chime-deny", "Don't Allow"])
            try await server.invoke(id: prompt.id, key: "chime-allow")
            #expect(try await granted)

            try await center.add(Self.request("standup", trigger: nil))
            let shown = try await server.nextCall("Notify") { $0.summary == "Standup" }
            #expect(shown.body == "In ten minutes")
        } catch {
            await server.stop()
            await bus.stop()
            throw error
        }
        await server.stop()
        await bus.stop()
    }

    @Test func responsesQueuedWhileTheAppWasAwayReachItsDelegateOnceInOrder() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let center = UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths)
        _ = try await center.requestAuthorization(options: [.alert])
        center.setNotificationCategories([Self.meetingCategory])
        try await center.add(Self.request("q1", trigger: nil))
        try await center.add(Self.request("q2", trigger: nil))
        try await eventually("both delivered") { await center.deliveredNotifications().count == 2 }

        let user = try await home.connectAsUser()
        let first = try await user.respond(app: Self.app, notification: "q1", action: .open)
        let second = try await user.respond(app: Self.app, notification: "q2", action: .action("accept"))
        #expect(first.queued && !first.deliveredToApp)
        #expect(second.queued && !second.deliveredToApp)

        let delegate = AppDelegate()
        center.delegate = delegate
        let replayed = [try await delegate.responses.next("q1's response"), try await delegate.responses.next("q2's response")]
        #expect(replayed.map(\.notification) == ["q1", "q2"])
        #expect(replayed.map(\.action) == [UNNotificationDefaultActionIdentifier, "accept"])
        try await eventually("both acknowledged") { try await user.apps().first { $0.entry.identifier == Self.app }?.queuedResponses == 0 }

        // A new subscription (the app went to the background) replays nothing already handled.
        center.isApplicationInForeground = false
        try await center.add(Self.request("q3", trigger: nil))
        try await daemon.presented(Self.app, "q3")
        _ = try await user.respond(app: Self.app, notification: "q3", action: .open)
        #expect(try await delegate.responses.next("q3's response").notification == "q3")
        #expect(delegate.responses.count == 3)
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    @Test func aContentExtensionsNewButtonsReachTheDaemonsEngine() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let center = UNUserNotificationCenter(appIdentifier: Self.app, daemon: home.paths)
        center.registerContentExtension(forCategoryIdentifiers: ["rating"]) { RatingExtension() }
        _ = try await center.requestAuthorization(options: [.alert])
        let rate = UNNotificationAction(identifier: "rate", title: "Rate")
        center.setNotificationCategories([UNNotificationCategory(identifier: "rating", actions: [rate], intentIdentifiers: [], options: [])])
        try await center.add(Self.request("r1", trigger: nil, category: "rating"))
        try await daemon.presented(Self.app, "r1")

        let user = try await home.connectAsUser()
        let result = try await user.respond(app: Self.app, notification: "r1", action: .action("rate"))
        #expect(result.deliveredToApp)
        // Kept on screen with the new buttons: presented again, and the delivered notification offers them.
        try await daemon.presented(Self.app, "r1", within: 3)
        let delivered = try #require(try await user.deliveredNotifications(app: Self.app).first?.notification)
        let category = try await user.categories(app: Self.app).first
        #expect(delivered.actions(in: category).map(\.identifier) == ["star1", "star2"])
        _ = try await user.respond(app: Self.app, notification: "r1", action: .action("star2"))
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    // MARK: Choosing the mode

    @Test(arguments: [
        ([:], CenterMode.auto), (["CHIME_MODE": ""], .auto), (["CHIME_MODE": "auto"], .auto), (["CHIME_MODE": "daemon"], .daemon),
        (["CHIME_MODE": "Embedded"], .embedded), (["CHIME_MODE": "cloud"], nil),
    ] as [([String: String], CenterMode?)])
    func chimeModeNamesTheMode(environment: [String: String], mode: CenterMode?) {
        #expect(CenterMode.requested(in: environment) == mode)
    }

    @Test func theModeFollowsTheRequestAndWhetherADaemonAnswered() {
        #expect(CenterMode.auto.resolve(daemonAnswered: true) == .daemon)
        #expect(CenterMode.auto.resolve(daemonAnswered: false) == .embedded)
        #expect(CenterMode.daemon.resolve(daemonAnswered: true) == .daemon)
        #expect(CenterMode.daemon.resolve(daemonAnswered: false) == .daemonUnavailable)
        #expect(CenterMode.embedded.resolve(daemonAnswered: true) == .embedded)
        #expect(!CenterMode.embedded.triesDaemon && CenterMode.auto.triesDaemon && CenterMode.daemon.triesDaemon)
        // A terminal app that presents where it runs stays embedded unless told otherwise.
        #expect(CenterMode.auto.forApp(configuringPresenter: true) == .embedded)
        #expect(CenterMode.auto.forApp(configuringPresenter: false) == .auto)
        #expect(CenterMode.daemon.forApp(configuringPresenter: true) == .daemon)
    }

    static func processCenter(_ home: DaemonHome, mode: CenterMode?) -> UNUserNotificationCenter {
        EmbeddedCenter.make(
            EmbeddedCenter.Configuration(authorization: FixedAuthorization.allowAll, dataDirectory: home.embeddedDataDirectory, desktopBus: Self.noDesktop), appIdentifier: app,
            mode: mode, daemonPaths: home.paths, log: SilentLog())
    }

    var later: UNNotificationRequest { Self.request("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)) }

    @Test func daemonModeWithoutADaemonFailsInsteadOfEmbedding() async throws {
        let home = try DaemonHome()
        let center = Self.processCenter(home, mode: .daemon)
        await #expect { try await center.add(later) } throws: { ($0 as? APIError)?.apiCode == .notConnected }
        #expect(!FileManager.default.fileExists(atPath: home.embeddedDataDirectory.path))

        // The daemon starting later is found by the next call.
        let daemon = try await home.start()
        try await center.add(later)
        let user = try await home.connectAsUser()
        #expect(try await user.pendingRequests(app: Self.app).map(\.request.identifier) == ["later"])
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    @Test func autoModeEmbedsWithoutADaemonAndStaysEmbedded() async throws {
        let home = try DaemonHome()
        let center = Self.processCenter(home, mode: .auto)
        try await center.add(later)
        #expect(FileManager.default.fileExists(atPath: EmbeddedPaths.store(in: home.embeddedDataDirectory, appIdentifier: Self.app).path))

        // Decided once: a daemon starting later does not take over this process's center.
        let daemon = try await home.start()
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["later"])
        let user = try await home.connectAsUser()
        #expect(try await user.pendingRequests(app: Self.app).isEmpty)
        user.close()
        #expect(await daemon.terminate() == 0)
    }

    @Test func autoModeUsesARunningDaemonAndEmbeddedModeIgnoresIt() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let user = try await home.connectAsUser()

        try await Self.processCenter(home, mode: .auto).add(later)
        #expect(try await user.pendingRequests(app: Self.app).map(\.request.identifier) == ["later"])
        #expect(!FileManager.default.fileExists(atPath: home.embeddedDataDirectory.path))

        let embedded = Self.processCenter(home, mode: .embedded)
        try await embedded.add(Self.request("mine", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
        #expect(await embedded.pendingNotificationRequests().map(\.identifier) == ["mine"])
        #expect(try await user.pendingRequests(app: Self.app).map(\.request.identifier) == ["later"])

        // An unknown CHIME_MODE counts as auto.
        try await Self.processCenter(home, mode: nil).add(Self.request("other", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
        #expect(Set(try await user.pendingRequests(app: Self.app).map(\.request.identifier)) == ["later", "other"])
        user.close()
        #expect(await daemon.terminate() == 0)
    }
}
