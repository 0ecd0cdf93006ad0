import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

// Seed 003, "Lesson 3.5 Local Notifications - Practice (Alarm)": an alarm app with a snooze action. The
// code is the seed's final version, as written: the Alarm struct (`authorizeIfNeeded`, `schedule`,
// `unschedule`, `scheduled`), and the AppDelegate's launch, `didReceive` (snooze) and `willPresent`.
// Changed: UIKit (stand-ins), `@UIApplicationMain` dropped, `alarmURL` points into the temporary
// directory instead of the user's Documents, and `date` / `notificationId`, which the lesson adds in
// prose, are declared.

fileprivate struct Alarm {
    var date: Date
    var notificationId: String

    init(notificationId: String? = nil, date: Date) {
    	self.notificationId = notificationId ?? UUID().uuidString
    	self.date = date
    }

    private func authorizeIfNeeded(completion: @escaping (Bool) -> ()) {

        let notificationCenter = UNUserNotificationCenter.current()
        notificationCenter.getNotificationSettings{ (settings) in
            switch settings.authorizationStatus {
            case .authorized:
                completion(true)
            case .notDetermined:
                notificationCenter.requestAuthorization(options: [.alert, .sound], completionHandler: { (granted, _) in
                    completion(false)
                })
            case .denied, .provisional, .ephemeral:
                completion(false)
            @unknown default:
                completion(false)
            }
        }

    }

    func schedule(completion: @escaping (Bool) -> ()) {

        authorizeIfNeeded{ (granted) in
            guard granted else {
                DispatchQueue.main.async {
                    completion(false)
                }

                return
            }
        }

        let content = UNMutableNotificationContent()
        content.title = "Alarm"
        content.body = "Beep Beep"
        content.sound = UNNotificationSound.default
        content.categoryIdentifier = Alarm.notificationCategoryId

        let triggerDateComponents = Calendar.current.dateComponents([.minute, .hour, .day, .month, .year], from: self.date)
        let trigger = UNCalendarNotificationTrigger(dateMatching: triggerDateComponents, repeats: false)

        let request = UNNotificationRequest(identifier: self.notificationId, content: content, trigger: trigger)

        UNUserNotificationCenter.current().add(request) { (error:Error?) in
            DispatchQueue.main.async {
                if let error = error {
                    print(error.localizedDescription)
                    completion(false)
                } else {
                    Alarm.scheduled = self
                    completion(true)
                }
            }
        }

    }

    func unschedule() {

        UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: [notificationId])
        Alarm.scheduled = nil

    }
}

extension Notification.Name {
    static let alarmUpdated = Notification.Name("alarmUpdated")
}

extension Alarm: Codable {
    static let notificationCategoryId = "AlarmNotification"
    static let snoozeActionId = "snooze"

    private static let alarmURL: URL = {
        let baseURL = FileManager.default.temporaryDirectory  // the seed: the user's documents directory

        return baseURL.appendingPathComponent("ScheduledAlarm-\(ProcessInfo.processInfo.processIdentifier)")
    }()

    static var scheduled: Alarm? {
        get {
            guard let data = try? Data(contentsOf: alarmURL) else {
                return nil
            }

            return try? JSONDecoder().decode(Alarm.self, from: data)
        }

        set {
            if let alarm = newValue {
                guard let data = try? JSONEncoder().encode(alarm) else {
                    return
                }

                try? data.write(to: alarmURL)
            } else {
                try? FileManager.default.removeItem(at: alarmURL)
            }

            NotificationCenter.default.post(name: .alarmUpdated, object: nil)
        }
    }

}

fileprivate class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {

	func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {

	let center = UNUserNotificationCenter.current()

	let snoozeAction = UNNotificationAction(identifier: Alarm.snoozeActionId, title: "Snooze", options: [])

	let alarmCategory = UNNotificationCategory(identifier: Alarm.notificationCategoryId, actions: [snoozeAction], intentIdentifiers: [], options: [])

	center.setNotificationCategories([alarmCategory])
	center.delegate = self

	return true
}

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {

        if response.actionIdentifier == Alarm.snoozeActionId {
            let snoozeDate = Date().addingTimeInterval(9 * 60)

            let alarm = Alarm(date: snoozeDate)
            alarm.schedule{ granted in
                if !granted {
                    print("Can't schedule snooze because notification permissions were revoked.")
                }
            }
        }

        completionHandler()
}

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification, withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {

	completionHandler([.list, .banner, .sound])
	Alarm.scheduled = nil

}
}

/// Counts `alarmUpdated` posts, which the seed's `Alarm.scheduled` setter makes.
fileprivate final class AlarmUpdates: @unchecked Sendable {
    let posts = Completion<Void>()
    private var observer: (any NSObjectProtocol)?

    init() {
        observer = NotificationCenter.default.addObserver(forName: .alarmUpdated, object: nil, queue: nil) { [posts] _ in
            posts.receive(())
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}

extension SeedTests {
    @Suite("Seed 003: the alarm and its snooze")
    struct AlarmApp {
        /// The minute the alarm is set for: the current wall-clock minute, since the seed's snooze reads
        /// `Date()`. The manual clock starts 30 seconds before it.
        let alarmMinute = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)

        fileprivate func launch(_ h: Harness) -> AppDelegate {
            SeedConsole.clear()
            Alarm.scheduled = nil
            let appDelegate = AppDelegate()
            UNUserNotificationCenter.withCurrent(h.center) {
                _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
            }
            return appDelegate
        }

        fileprivate func schedule(_ alarm: Alarm, on h: Harness) -> Completion<Bool> {
            let completion = Completion<Bool>()
            UNUserNotificationCenter.withCurrent(h.center) {
                alarm.schedule { granted in completion.receive(granted) }
            }
            return completion
        }

        func floorToMinute(_ date: Date) -> Date {
            Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
        }

        @Test func anAuthorizedUserGetsTheAlarmScheduledForItsMinute() async throws {
            let h = Harness(now: alarmMinute.addingTimeInterval(-30))
            _ = try await h.center.requestAuthorization(options: [.alert, .sound])
            let appDelegate = launch(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let updates = AlarmUpdates()

            let alarm = Alarm(date: alarmMinute)
            #expect(await schedule(alarm, on: h).next() == true)
            await updates.posts.next()
            #expect(Alarm.scheduled?.notificationId == alarm.notificationId)

            let request = try #require(await h.center.pendingNotificationRequests().first)
            #expect(request.identifier == alarm.notificationId)
            #expect(request.content.title == "Alarm")
            #expect(request.content.body == "Beep Beep")
            #expect(request.content.sound == UNNotificationSound.default)
            #expect(request.content.categoryIdentifier == "AlarmNotification")
            let trigger = try #require(request.trigger as? UNCalendarNotificationTrigger)
            #expect(trigger.repeats == false)
            #expect(trigger.nextTriggerDate() == alarmMinute)
        }

        @Test func theFirstScheduleAsksForPermissionAndSchedulesAnyway() async throws {
            // The seed's authorizeIfNeeded answers false right after asking, and schedule adds the request
            // whatever the answer: the completion is called twice, and the alarm is scheduled.
            let h = Harness(now: alarmMinute.addingTimeInterval(-30))
            let appDelegate = launch(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let alarm = Alarm(date: alarmMinute)
            let completion = schedule(alarm, on: h)
            let answers = [await completion.next(), await completion.next()]
            #expect(answers.sorted { !$0 && $1 } == [false, true])
            #expect(h.user.authorizationPrompts.map(\.options) == [[.alert, .sound]])
            #expect(await h.center.pendingNotificationRequests().map(\.identifier) == [alarm.notificationId])
        }

        @Test func whenTheAlarmGoesOffItShowsInTheForegroundAndFreesTheScheduledSlot() async throws {
            let h = Harness(now: alarmMinute.addingTimeInterval(-30))
            _ = try await h.center.requestAuthorization(options: [.alert, .sound])
            let appDelegate = launch(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let updates = AlarmUpdates()
            _ = await schedule(Alarm(date: alarmMinute), on: h).next()
            await updates.posts.next()

            await h.run(until: alarmMinute)
            let shown = await h.presenter.nextPresentation()
            #expect(shown.title == "Alarm")
            #expect(shown.destinations == [.banner, .list])
            #expect(shown.sound == .default)
            #expect(shown.actions.map(\.title) == ["Snooze"])
            await updates.posts.next()  // willPresent: Alarm.scheduled = nil
            #expect(Alarm.scheduled == nil)
        }

        @Test func snoozeSchedulesTheAlarmAgainNineMinutesLater() async throws {
            let h = Harness(now: alarmMinute.addingTimeInterval(-30))
            _ = try await h.center.requestAuthorization(options: [.alert, .sound])
            let appDelegate = launch(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let updates = AlarmUpdates()
            let alarm = Alarm(date: alarmMinute)
            _ = await schedule(alarm, on: h).next()
            await updates.posts.next()  // Alarm.scheduled = alarm
            await h.run(until: alarmMinute)
            _ = await h.presenter.nextPresentation()
            await updates.posts.next()  // willPresent: Alarm.scheduled = nil

            let before = Date()
            try await h.user.tap("snooze", on: alarm.notificationId, in: h.appCenter)
            let after = Date()
            await updates.posts.next()  // the snooze alarm is scheduled
            let snoozed = try #require(Alarm.scheduled)

            let snooze = try #require(await h.center.pendingNotificationRequests().first)
            #expect(snooze.identifier == snoozed.notificationId)
            #expect(snooze.identifier != alarm.notificationId)
            #expect(snooze.content.categoryIdentifier == "AlarmNotification")
            // The seed reads Date() and keeps the minute: 9 minutes after the tap, seconds dropped.
            let fireDate = try #require((snooze.trigger as? UNCalendarNotificationTrigger)?.nextTriggerDate())
            #expect([floorToMinute(before.addingTimeInterval(540)), floorToMinute(after.addingTimeInterval(540))].contains(fireDate))

            await h.run(until: fireDate)
            let again = await h.presenter.nextPresentation()
            #expect(again.notificationIdentifier == snooze.identifier)
            #expect(again.title == "Alarm")
            await updates.posts.next()  // willPresent: Alarm.scheduled = nil
            #expect(SeedConsole.lines.isEmpty)  // permission was there: no complaint
        }

        @Test func unscheduleRemovesThePendingAlarm() async throws {
            let h = Harness(now: alarmMinute.addingTimeInterval(-30))
            _ = try await h.center.requestAuthorization(options: [.alert, .sound])
            let appDelegate = launch(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let alarm = Alarm(date: alarmMinute)
            _ = await schedule(alarm, on: h).next()
            UNUserNotificationCenter.withCurrent(h.center) {
                alarm.unschedule()
            }
            #expect(await h.center.pendingNotificationRequests().isEmpty)
            #expect(Alarm.scheduled == nil)
        }

        @Test func aDeniedUserCannotScheduleAndTheAppSaysWhy() async throws {
            let h = Harness(now: alarmMinute.addingTimeInterval(-30), answersAuthorization: false)
            #expect(try await h.center.requestAuthorization(options: [.alert, .sound]) == false)
            let appDelegate = launch(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let completion = schedule(Alarm(date: alarmMinute), on: h)
            #expect([await completion.next(), await completion.next()] == [false, false])
            #expect(SeedConsole.lines == ["Notifications are not allowed for this application"])
            #expect(await h.center.pendingNotificationRequests().isEmpty)
            #expect(Alarm.scheduled == nil)
        }
    }
}
