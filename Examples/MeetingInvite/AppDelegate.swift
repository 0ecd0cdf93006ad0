import ExampleSupport
import Foundation
import UserNotifications

/// The seed's meeting app (seed 001): a meeting category with Accept, Decline, and Decline with a typed
/// reason (a text-input action that opens the app), and the handler that reads the reason.
final class AppDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    static let categoryIdentifier = "meetingCategory"

    let terminal: ExampleTerminal

    init(terminal: ExampleTerminal) {
        self.terminal = terminal
    }

    /// What the seed's `application(_:didFinishLaunchingWithOptions:)` does; returns whether the user
    /// allowed notifications.
    func didFinishLaunching() async throws -> Bool {
        // Define the custom actions.
        let acceptAction = UNNotificationAction(identifier: "meeting.acceptAction", title: "Accept", options: [])
        let declineAction = UNNotificationAction(identifier: "meeting.declineAction", title: "Decline", options: [.destructive])
        let reasonForDeclineInputAction = UNTextInputNotificationAction(
            identifier: "meeting.reasonForDeclineInputAction", title: "Decline with reason", options: [.destructive, .foreground],
            textInputButtonTitle: "Send", textInputPlaceholder: "Why can't you come?")

        // Define the notification type.
        let meetingCategory = UNNotificationCategory(
            identifier: Self.categoryIdentifier, actions: [acceptAction, declineAction, reasonForDeclineInputAction],
            intentIdentifiers: [], options: [])

        // Register the notification type.
        let notificationCenter = UNUserNotificationCenter.current()
        notificationCenter.setNotificationCategories([meetingCategory])
        notificationCenter.delegate = self
        // The invitation arrives while the app runs in this terminal; the system presents it as it
        // would for an app in the background.
        notificationCenter.isApplicationInForeground = false
        return try await notificationCenter.requestAuthorization(options: [.alert, .sound, .badge])
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        let meeting = response.notification.request.content.userInfo["meeting"] as? String ?? "the meeting"
        switch response.actionIdentifier {
        case "meeting.acceptAction":
            terminal.say("Accepted \(meeting).")
        case "meeting.declineAction":
            terminal.say("Declined \(meeting).")
        case "meeting.reasonForDeclineInputAction":
            if let userInput = (response as? UNTextInputNotificationResponse)?.userText {
                terminal.say("Declined \(meeting), because: \(userInput)")
            }
        case UNNotificationDefaultActionIdentifier:
            terminal.say("Opened the invitation to \(meeting).")
        default:
            return
        }
        terminal.finish()
    }
}
