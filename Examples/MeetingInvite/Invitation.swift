import Foundation
import UserNotifications

/// The invitation the app receives. The seed sends it as a push with `"category": "meetingCategory"`;
/// here the app schedules the same alert.
enum Invitation {
    static func schedule(after delay: TimeInterval) async throws {
        let content = UNMutableNotificationContent()
        content.title = "Meeting invitation"
        content.body = "Design review, today at 14:00 in room 4"
        content.sound = .default
        content.categoryIdentifier = AppDelegate.categoryIdentifier
        content.userInfo = ["meeting": "the design review"]
        let trigger = delay > 0 ? UNTimeIntervalNotificationTrigger(timeInterval: delay, repeats: false) : nil
        let request = UNNotificationRequest(identifier: "design-review", content: content, trigger: trigger)
        try await UNUserNotificationCenter.current().add(request)
    }
}
