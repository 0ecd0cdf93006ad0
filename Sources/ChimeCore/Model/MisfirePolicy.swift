/// What happens to fire dates a request missed because the process or the machine was not running.
///
/// Apple has no such setting: iOS is always running. Chime runs in an app's process or in a per-user
/// daemon, so fire dates can pass unseen. When the engine starts again and finds fire dates in the past,
/// the request's policy decides:
///
/// - `.deliverLate` (the default): deliver **once**, however many fire dates were missed; a repeating
///   trigger's missed repeats are coalesced into that one delivery. The delivered notification is
///   marked `isLate`, and its `scheduledDate` is the latest fire date missed. A repeating request then
///   continues with its next fire date after now.
/// - `.skip`: deliver nothing for the missed fire dates. A non-repeating request is finished; a repeating
///   one continues with its next fire date after now.
///
/// Either way the engine records what was missed, so the app can ask.
///
/// ```swift
/// let standup = try NotificationRequest(identifier: "standup", content: content,
///                                       trigger: .calendar(daily), misfirePolicy: .skip)
/// ```
///
/// Encoded as its name, `"deliverLate"` or `"skip"`.
public enum MisfirePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Deliver once, late, with missed repeats coalesced. The default: a reminder that comes late is
    /// usually better than one that never comes.
    case deliverLate
    /// Drop missed fire dates: for notifications that are useless late (a timer for a meeting already
    /// over, a "starting now" alert).
    case skip

    public static let `default` = MisfirePolicy.deliverLate
}
