#if !canImport(Darwin)
public import ChimeCore
import ChimeEngine
public import Foundation

/// A notification to schedule: an identifier, its content, and what makes it fire (Apple's
/// `UNNotificationRequest`).
///
/// ```swift
/// let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
/// let request = UNNotificationRequest(identifier: "FiveSecond", content: content, trigger: trigger)
/// ```
///
/// The request keeps an immutable copy of `content`: changing the mutable content afterwards does not
/// change the request. A `nil` trigger delivers at once.
// @unchecked Sendable: immutable, and its content is an immutable copy.
public final class UNNotificationRequest: NSObject, NSCopying, @unchecked Sendable {
    public let identifier: String
    public let content: UNNotificationContent
    public let trigger: UNNotificationTrigger?
    /// What to do with fire dates missed while nothing ran (Chime; Apple has no such setting). Defaults to
    /// delivering once, late.
    public let misfirePolicy: MisfirePolicy

    public convenience init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.init(identifier: identifier, content: content, trigger: trigger, misfirePolicy: .default)
    }

    /// Apple's initializer with Chime's misfire policy.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?, misfirePolicy: MisfirePolicy) {
        self.identifier = identifier
        self.content = UNNotificationContent(fields: content.snapshot)
        self.trigger = trigger
        self.misfirePolicy = misfirePolicy
    }

    /// A request the engine holds; its trigger reads `clock`.
    init(_ request: NotificationRequest, clock: (any NotificationClock)?) {
        identifier = request.identifier
        content = UNNotificationContent(request.content)
        trigger = request.trigger.map { UNNotificationTrigger.make($0, clock: clock) }
        misfirePolicy = request.misfirePolicy
    }

    /// - Throws: `ChimeError` for an empty identifier, invalid content or an invalid trigger.
    func notificationRequest() throws(ChimeError) -> NotificationRequest {
        try NotificationRequest(
            identifier: identifier, content: content.notificationContent(), trigger: trigger?.notificationTrigger(), misfirePolicy: misfirePolicy)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationRequest else { return false }
        return other.identifier == identifier && other.content == content && other.trigger == trigger && other.misfirePolicy == misfirePolicy
    }

    public override var hash: Int {
        identifier.hashValue
    }

    public override var description: String {
        "<UNNotificationRequest identifier: \"\(identifier)\", content: \(content), trigger: \(trigger.map { "\(Swift.type(of: $0))" } ?? "nil")>"
    }
}

/// A delivered notification: its request and when it was delivered (Apple's `UNNotification`).
///
/// Apple gives no initializer; Chime has `init(request:date:)`, so tests can call a delegate directly.
// @unchecked Sendable: immutable.
public final class UNNotification: NSObject, NSCopying, @unchecked Sendable {
    public let date: Date
    public let request: UNNotificationRequest
    /// The engine's record, when the notification came from it: responses need its exact form.
    let delivered: DeliveredNotification?

    /// A notification of `request` delivered at `date` (Chime; for tests).
    public init(request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
        delivered = nil
    }

    init(_ delivered: DeliveredNotification, clock: (any NotificationClock)?) {
        request = UNNotificationRequest(delivered.request, clock: clock)
        date = delivered.date
        self.delivered = delivered
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotification else { return false }
        return other.request == request && other.date == date
    }

    public override var hash: Int {
        request.hash
    }
}

/// What the user did with a delivered notification (Apple's `UNNotificationResponse`).
///
/// ```swift
/// switch response.actionIdentifier {
/// case UNNotificationDefaultActionIdentifier: openPhoto()
/// case UNNotificationDismissActionIdentifier: markSeen()
/// case "ACTION_LIKE": like()
/// default: break
/// }
/// ```
///
/// Apple gives no initializer; Chime has `init(notification:actionIdentifier:)`, so tests can call a
/// delegate directly. In a running app, responses come from the user through the engine.
// @unchecked Sendable: immutable.
public class UNNotificationResponse: NSObject, NSCopying, @unchecked Sendable {
    public let notification: UNNotification
    /// The chosen action's identifier, or `UNNotificationDefaultActionIdentifier` /
    /// `UNNotificationDismissActionIdentifier`.
    public let actionIdentifier: String

    /// A response to `notification` (Chime; for tests).
    public init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }

    /// The API's response for one the engine routes: a `UNTextInputNotificationResponse` when it carries
    /// text.
    static func make(_ response: NotificationResponse, clock: (any NotificationClock)?) -> UNNotificationResponse {
        let notification = UNNotification(response.notification, clock: clock)
        if let text = response.userText {
            return UNTextInputNotificationResponse(notification: notification, actionIdentifier: response.actionIdentifier, userText: text)
        }
        return UNNotificationResponse(notification: notification, actionIdentifier: response.actionIdentifier)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}

/// The response to a text-input action, with what the user typed (Apple's
/// `UNTextInputNotificationResponse`).
///
/// ```swift
/// if let userInput = (response as? UNTextInputNotificationResponse)?.userText { ... }
/// ```
// @unchecked Sendable: immutable.
public final class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    public let userText: String

    /// A text response to `notification` (Chime; for tests).
    public init(notification: UNNotification, actionIdentifier: String, userText: String) {
        self.userText = userText
        super.init(notification: notification, actionIdentifier: actionIdentifier)
    }
}
#endif
