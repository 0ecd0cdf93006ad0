import ExampleSupport
import Foundation
import UserNotifications

/// The seed's app delegate: registers the alarm category with its Snooze action, shows the alarm while the
/// app runs (list, banner and sound), and snoozes for nine minutes.
final class AppDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    let terminal: ExampleTerminal

    init(terminal: ExampleTerminal) {
        self.terminal = terminal
    }

    /// What the seed's `application(_:didFinishLaunchingWithOptions:)` does.
    func didFinishLaunching() {
        let center = UNUserNotificationCenter.current()
        let snoozeAction = UNNotificationAction(identifier: Alarm.snoozeActionId, title: "Snooze", options: [])
        let alarmCategory = UNNotificationCategory(
            identifier: Alarm.notificationCategoryId, actions: [snoozeAction], intentIdentifiers: [], options: [])
        center.setNotificationCategories([alarmCategory])
        center.delegate = self
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        // The alarm is ringing: it is no longer the one that is set.
        Alarm.scheduled = nil
        return [.list, .banner, .sound]
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        switch response.actionIdentifier {
        case Alarm.snoozeActionId:
            let snoozeDate = Date().addingTimeInterval(Alarm.snoozeInterval)
            let alarm = Alarm(date: snoozeDate)
            do {
                if try await alarm.schedule() {
                    terminal.say("Snoozed: the alarm rings again at \(AlarmFormat.time(snoozeDate)).")
                } else {
                    terminal.say("Can't schedule snooze because notification permissions were revoked.")
                }
            } catch {
                terminal.say("Can't schedule snooze: \(error.localizedDescription)")
            }
        case UNNotificationDefaultActionIdentifier:
            terminal.say("Alarm stopped.")
        default:
            break
        }
        terminal.handledResponse()
    }
}
