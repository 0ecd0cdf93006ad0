import ExampleSupport
import Foundation
import UserNotifications

/// The seed's app delegate: asks for alerts, badges and sounds; registers the image-posting category
/// (Like, Dislike, Unfollow — destructive, needs unlocking — and Setting, which opens the app; a custom
/// dismiss; the title shown even when previews are hidden); shows notifications as banners while the app
/// runs; remembers what the user chose.
final class AppDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    let terminal: ExampleTerminal

    init(terminal: ExampleTerminal) {
        self.terminal = terminal
    }

    func setupCategory() {
        let likeAction = UNNotificationAction(identifier: ActionIdentifier.like, title: "Like", options: [])
        let dislikeAction = UNNotificationAction(identifier: ActionIdentifier.dislike, title: "Dislike", options: [])
        let unfollowAction = UNNotificationAction(
            identifier: ActionIdentifier.unfollow, title: "Unfollow", options: [.authenticationRequired, .destructive])
        let settingAction = UNNotificationAction(identifier: ActionIdentifier.setting, title: "Setting", options: [.foreground])

        var options = UNNotificationCategoryOptions.customDismissAction
        options.insert(.hiddenPreviewsShowTitle)
        let imagePostingCategory = UNNotificationCategory(
            identifier: CategoryIdentifier.imagePosting, actions: [likeAction, dislikeAction, unfollowAction, settingAction],
            intentIdentifiers: [], options: options)

        UNUserNotificationCenter.current().setNotificationCategories([imagePostingCategory])
    }

    /// What the seed's `application(_:didFinishLaunchingWithOptions:)` does; returns whether the user
    /// allowed notifications.
    func didFinishLaunching() async throws -> Bool {
        let granted = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge, .sound])
        if granted {
            setupCategory()
            UNUserNotificationCenter.current().delegate = self
        }
        return granted
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        [.banner]
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        switch response.actionIdentifier {
        case ActionIdentifier.like:
            terminal.say("👍 You liked the photo.")
        case ActionIdentifier.dislike:
            terminal.say("👎 You disliked the photo.")
        case ActionIdentifier.unfollow:
            terminal.say("You unfollowed Jane Doe.")
        case ActionIdentifier.setting:
            terminal.say("Opening the app's settings.")
        case UNNotificationDismissActionIdentifier:
            terminal.say("Custom dismiss: no reaction this time.")
        case UNNotificationDefaultActionIdentifier:
            terminal.say("Opening the photo.")
        default:
            terminal.say("Something else: \(response.actionIdentifier)")
        }
        LastSelection(actionIdentifier: response.actionIdentifier, date: Date()).save()
        terminal.finish()
    }
}
