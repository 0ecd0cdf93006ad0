import ExampleSupport
import Foundation
import UserNotifications

/// The seed's alarm (lesson 3.5): one alarm at a time, scheduled with a calendar trigger and kept in a
/// JSON file so the app knows it on the next start.
///
/// As in the seed, with its authorization flow fixed: the seed's `authorizeIfNeeded` reports `false` after
/// the user allowed notifications, and its `schedule` goes on to add the request before the answer comes.
/// The completion handlers became `async`, which the same API offers.
struct Alarm: Codable, Sendable {
    static let appIdentifier = "com.example.alarm"
    static let notificationCategoryId = "AlarmNotification"
    static let snoozeActionId = "snooze"
    /// How long Snooze waits, as on the iPhone's own alarm.
    static let snoozeInterval: TimeInterval = 9 * 60

    var date: Date
    var notificationId: String

    init(notificationId: String? = nil, date: Date) {
        self.notificationId = notificationId ?? UUID().uuidString
        self.date = date
    }

    /// Whether the app may notify, asking the user the first time.
    static func authorizeIfNeeded() async throws -> Bool {
        let notificationCenter = UNUserNotificationCenter.current()
        switch await notificationCenter.notificationSettings().authorizationStatus {
        case .authorized:
            return true
        case .notDetermined:
            return try await notificationCenter.requestAuthorization(options: [.alert, .sound])
        case .denied, .provisional, .ephemeral:
            return false
        }
    }

    /// Schedules the alarm and remembers it; `false` when the user does not allow notifications.
    func schedule() async throws -> Bool {
        guard try await Alarm.authorizeIfNeeded() else { return false }

        let content = UNMutableNotificationContent()
        content.title = "Alarm"
        content.body = "Beep Beep"
        content.sound = UNNotificationSound.default
        content.categoryIdentifier = Alarm.notificationCategoryId

        // The seed matches minute, hour, day, month and year; seconds too, so an alarm set `--in 30s`
        // rings on the second. A calendar trigger matches only those components: one seconds away could
        // pass while the request is being added, and would never ring, so those count down instead.
        let trigger: UNNotificationTrigger
        if date.timeIntervalSinceNow < 60 {
            trigger = UNTimeIntervalNotificationTrigger(timeInterval: max(date.timeIntervalSinceNow, 0.1), repeats: false)
        } else {
            let triggerDateComponents = Calendar.current.dateComponents([.second, .minute, .hour, .day, .month, .year], from: date)
            trigger = UNCalendarNotificationTrigger(dateMatching: triggerDateComponents, repeats: false)
        }

        let request = UNNotificationRequest(identifier: notificationId, content: content, trigger: trigger)
        try await UNUserNotificationCenter.current().add(request)
        Alarm.scheduled = self
        return true
    }

    /// Cancels the alarm and forgets it.
    func unschedule() async {
        let center = UNUserNotificationCenter.current()
        center.removePendingNotificationRequests(withIdentifiers: [notificationId])
        // Calls apply in order: once this answers, the removal is done (the process may exit).
        _ = await center.pendingNotificationRequests()
        Alarm.scheduled = nil
    }

    /// `$XDG_DATA_HOME/com.example.alarm/ScheduledAlarm.json` (the seed: the user's Documents folder).
    private static let alarmURL = ExampleData.file("ScheduledAlarm.json", appIdentifier: appIdentifier)

    /// The alarm that is set, as the JSON file says.
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
                try? data.write(to: alarmURL, options: .atomic)
            } else {
                try? FileManager.default.removeItem(at: alarmURL)
            }
        }
    }
}
