import ExampleSupport
import Foundation
import UserNotifications

/// The rating content extension of the seed's WWDC 2018 notes: "Rate" turns the buttons into one, two and
/// three stars; a star thanks the user and clears the buttons; "Open App" and "Not Now" stand for the
/// custom controls of the extension's view, which open the app and dismiss the notification.
///
/// On iOS this is a view controller in an app extension; here it is an object the center makes for each
/// notification of the "rating" category (`registerContentExtension`).
final class RatingExtension: NSObject, UNNotificationContentExtension, Sendable {
    static let rateAction = "rate-action"
    static let openAppControl = "open-app"
    static let notNowControl = "not-now"

    let oneStarAction = UNNotificationAction(identifier: "one-star", title: "★", options: [])
    let twoStarAction = UNNotificationAction(identifier: "two-stars", title: "★★", options: [])
    let threeStarAction = UNNotificationAction(identifier: "three-stars", title: "★★★", options: [])

    let terminal: ExampleTerminal

    init(terminal: ExampleTerminal) {
        self.terminal = terminal
    }

    func didReceive(
        _ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        switch response.actionIdentifier {
        case Self.rateAction:
            extensionContext?.notificationActions = [oneStarAction, twoStarAction, threeStarAction]
            completion(.doNotDismiss)
        case oneStarAction.identifier, twoStarAction.identifier, threeStarAction.identifier:
            let stars = [oneStarAction, twoStarAction, threeStarAction].first { $0.identifier == response.actionIdentifier }?.title ?? ""
            Rating(stars: stars.count, date: Date()).save()
            terminal.say("Thanks! You rated the order \(stars).")
            // Nothing more to choose: the buttons go, the notification stays until the user closes it.
            extensionContext?.notificationActions = []
            completion(.doNotDismiss)
        case Self.openAppControl:
            extensionContext?.performNotificationDefaultAction()
        case Self.notNowControl:
            terminal.say("Not now: the rating request is gone.")
            extensionContext?.dismissNotificationContentExtension()
            terminal.finish()
        default:
            completion(.dismissAndForwardAction)
        }
    }
}
