import ExampleSupport
import Foundation
import UserNotifications

/// The app around the rating extension: registers the "rating" category and the extension, asks for
/// permission, sends the rating request, and handles what the extension hands on (opening the app; the
/// user closing the notification).
final class AppDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    static let categoryIdentifier = "rating"

    let terminal: ExampleTerminal

    init(terminal: ExampleTerminal) {
        self.terminal = terminal
    }

    func didFinishLaunching() async throws -> Bool {
        let center = UNUserNotificationCenter.current()
        let rate = UNNotificationAction(identifier: RatingExtension.rateAction, title: "Rate", options: [])
        let openApp = UNNotificationAction(identifier: RatingExtension.openAppControl, title: "Open App", options: [.foreground])
        let notNow = UNNotificationAction(identifier: RatingExtension.notNowControl, title: "Not Now", options: [])
        center.setNotificationCategories([
            UNNotificationCategory(
                identifier: Self.categoryIdentifier, actions: [rate, openApp, notNow], intentIdentifiers: [], options: [.customDismissAction])
        ])
        let terminal = terminal
        center.registerContentExtension(forCategoryIdentifiers: [Self.categoryIdentifier]) { RatingExtension(terminal: terminal) }
        center.delegate = self
        center.isApplicationInForeground = false
        return try await center.requestAuthorization(options: [.alert, .sound])
    }

    func scheduleRatingRequest(after delay: TimeInterval) async throws {
        let content = UNMutableNotificationContent()
        content.title = "How was your order?"
        content.body = "Two flat whites and a cinnamon roll, delivered at 09:12"
        content.categoryIdentifier = Self.categoryIdentifier
        let trigger = delay > 0 ? UNTimeIntervalNotificationTrigger(timeInterval: delay, repeats: false) : nil
        try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "order-1042", content: content, trigger: trigger))
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        switch response.actionIdentifier {
        case UNNotificationDefaultActionIdentifier:
            let rating = Rating.load().map { String(repeating: "★", count: $0.stars) } ?? "not rated yet"
            terminal.say("The app opens on the order (your rating: \(rating)).")
        case UNNotificationDismissActionIdentifier:
            terminal.say("Closed the rating request.")
        default:
            return
        }
        terminal.finish()
    }
}
