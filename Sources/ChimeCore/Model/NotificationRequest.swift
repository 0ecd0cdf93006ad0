public import Foundation
/// A notification to deliver: what it says, when it fires, and what to do with fire dates missed while
/// nothing was running (Apple's `UNNotificationRequest`, plus Chime's misfire policy).
///
/// ```swift
/// var content = NotificationContent(title: "Alarm", body: "Wake up")
/// content.categoryIdentifier = "AlarmNotification"
/// let trigger = try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 0), repeats: true)
/// let request = try NotificationRequest(identifier: "alarm-1", content: content, trigger: .calendar(trigger))
/// ```
///
/// Adding a request with the identifier of a pending one replaces it (and re-alerts a delivered one with
/// that identifier), as on iOS. A `nil` trigger delivers at once.
///
/// **Push triggers.** A request whose trigger is `.push` describes a notification that arrived from a
/// remote push; Apple creates those itself and never schedules them. Chime can hold such a request, so a
/// delivered remote notification has one, but the notification center refuses to schedule it:
/// `validateForScheduling(at:)` throws for it.
public struct NotificationRequest: Sendable, Hashable {
    /// Unique among the app's pending requests, and among its delivered notifications. Never empty.
    public let identifier: String
    public let content: NotificationContent
    /// When to fire; `nil` to deliver at once.
    public let trigger: NotificationTrigger?
    /// What to do with fire dates missed while the process or machine was down.
    public let misfirePolicy: MisfirePolicy

    /// Apple's `UNNotificationRequest(identifier:content:trigger:)`, with a misfire policy.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `identifier` is empty; whatever
    ///   `NotificationContent.validate()` throws for invalid content.
    public init(
        identifier: String,
        content: NotificationContent,
        trigger: NotificationTrigger?,
        misfirePolicy: MisfirePolicy = .default
    ) throws(ChimeError) {
        guard !identifier.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "identifier", "a request identifier must not be empty")
        }
        try content.validate()
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
        self.misfirePolicy = misfirePolicy
    }

    /// Whether the request describes a notification that arrived from a remote push.
    public var isRemote: Bool {
        if case .push = trigger { return true }
        return false
    }

    /// Checks what only matters when the request is to be scheduled on this machine.
    ///
    /// - Throws: `ChimeError.notificationInvalidNoDate` for a push trigger, which never gives a fire
    ///   date: remote notifications are delivered when they arrive, not scheduled;
    ///   `ChimeError.invalidTimeInterval` for an interval that, counted from `now`, ends after the year 9999.
    public func validateForScheduling(at now: Date) throws(ChimeError) {
        if isRemote {
            throw ChimeError(.notificationInvalidNoDate, field: "trigger", "a push trigger cannot be scheduled; remote notifications are delivered when they arrive")
        }
        if case .timeInterval(let trigger) = trigger {
            try trigger.validate(anchor: now)
        }
    }
}

extension NotificationRequest: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, content, trigger, misfirePolicy }

    /// A missing trigger delivers at once, a missing misfire policy is the default; the result is
    /// validated. A missing identifier is the decoder's `impliedRequestIdentifier`, when it has one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifier =
            if !container.contains(.identifier), let implied = decoder.userInfo[.impliedRequestIdentifier] as? String {
                implied
            } else {
                try container.decode(String.self, forKey: .identifier)
            }
        try self.init(
            identifier: identifier,
            content: container.decodeIfPresent(NotificationContent.self, forKey: .content) ?? NotificationContent(),
            trigger: container.decodeIfPresent(NotificationTrigger.self, forKey: .trigger),
            misfirePolicy: container.decodeIfPresent(MisfirePolicy.self, forKey: .misfirePolicy) ?? .default)
    }
}

extension CodingUserInfoKey {
    /// The identifier of a request whose record leaves it out because it is kept beside the record: a
    /// store row keyed by the request's identifier does not hold it twice.
    public static let impliedRequestIdentifier = CodingUserInfoKey(rawValue: "impliedRequestIdentifier")!
}
