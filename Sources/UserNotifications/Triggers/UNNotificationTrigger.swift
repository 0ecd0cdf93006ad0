#if !canImport(Darwin)
import ChimeCore
import ChimeEngine
public import Foundation

/// What makes a request fire (Apple's `UNNotificationTrigger`, the base of the concrete triggers).
///
/// **Invalid triggers.** Apple's initializers raise an exception (the app crashes) for a time interval
/// that is not positive, or under 60 seconds when repeating. Chime never crashes there: the trigger is
/// kept as given, `nextTriggerDate()` returns `nil`, and `add` fails with `UNError.notificationInvalidNoDate`
/// whose `chimeError` says what is wrong. Date components that can never match fail `add` the same way.
///
/// **Time.** `nextTriggerDate()` reads the clock of the center the trigger came from (pending requests),
/// or else of `UNUserNotificationCenter.current()` — the real clock, or a test's `ManualClock` inside
/// `UNUserNotificationCenter.withCurrent(_:operation:)`.
// @unchecked Sendable: immutable.
public class UNNotificationTrigger: NSObject, NSCopying, @unchecked Sendable {
    public let repeats: Bool
    /// The clock of the center this trigger was read from; `nil` for one the app made.
    let clock: (any NotificationClock)?

    init(repeats: Bool, clock: (any NotificationClock)?) {
        self.repeats = repeats
        self.clock = clock
    }

    /// The API's trigger for one the engine holds.
    static func make(_ trigger: NotificationTrigger, clock: (any NotificationClock)?) -> UNNotificationTrigger {
        switch trigger {
        case .timeInterval(let interval):
            UNTimeIntervalNotificationTrigger(timeInterval: interval.timeInterval, repeats: interval.repeats, clock: clock)
        case .calendar(let calendar):
            UNCalendarNotificationTrigger(dateMatching: calendar.dateComponents, repeats: calendar.repeats, clock: clock)
        case .push:
            UNPushNotificationTrigger(repeats: false, clock: clock)
        case .location(let location):
            UNLocationNotificationTrigger(location, clock: clock)
        }
    }

    /// - Throws: `ChimeError.invalidTimeInterval` or `.invalidDateComponents` for an invalid trigger.
    func notificationTrigger() throws(ChimeError) -> NotificationTrigger {
        .push(PushTrigger())
    }

    var now: Date {
        (clock ?? UNUserNotificationCenter.currentClock).now
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// What makes two triggers of one class equal.
    var equalityKey: AnyHashable {
        AnyHashable(repeats)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationTrigger, type(of: other) == type(of: self) else { return false }
        return other.equalityKey == equalityKey
    }

    public override var hash: Int {
        equalityKey.hashValue
    }
}

/// Fires a number of seconds after the request is added, once or repeatedly (Apple's
/// `UNTimeIntervalNotificationTrigger`).
///
/// ```swift
/// let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
/// ```
///
/// The interval must be positive, and at least 60 seconds when repeating: see `UNNotificationTrigger` for
/// what happens otherwise.
// @unchecked Sendable: immutable.
public final class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let timeInterval: TimeInterval

    init(timeInterval: TimeInterval, repeats: Bool, clock: (any NotificationClock)?) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats, clock: clock)
    }

    public convenience init(timeInterval: TimeInterval, repeats: Bool) {
        self.init(timeInterval: timeInterval, repeats: repeats, clock: nil)
    }

    /// Now plus the interval, as Apple answers (also for pending requests: the answer does not count from
    /// when the request was added); `nil` for an invalid interval.
    public func nextTriggerDate() -> Date? {
        guard (try? notificationTrigger()) != nil else { return nil }
        return now.addingTimeInterval(timeInterval)
    }

    override var equalityKey: AnyHashable {
        [AnyHashable(timeInterval), AnyHashable(repeats)]
    }

    override func notificationTrigger() throws(ChimeError) -> NotificationTrigger {
        .timeInterval(try TimeIntervalTrigger(timeInterval: timeInterval, repeats: repeats))
    }
}

/// Fires when the wall clock matches date components, once or repeatedly (Apple's
/// `UNCalendarNotificationTrigger`).
///
/// ```swift
/// let components = Calendar.current.dateComponents([.minute, .hour, .day, .month, .year], from: date)
/// let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
/// ```
///
/// Components without a time zone follow the user's current zone; with one they are pinned to it.
// @unchecked Sendable: immutable.
public final class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let dateComponents: DateComponents

    init(dateMatching dateComponents: DateComponents, repeats: Bool, clock: (any NotificationClock)?) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats, clock: clock)
    }

    public convenience init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.init(dateMatching: dateComponents, repeats: repeats, clock: nil)
    }

    /// The next date after now that matches the components, in the current time zone unless they name
    /// one; `nil` when they never match again, or cannot match at all.
    public func nextTriggerDate() -> Date? {
        guard case .calendar(let trigger)? = try? notificationTrigger() else { return nil }
        return trigger.nextTriggerDate(after: now, floatingTimeZone: .current)
    }

    override var equalityKey: AnyHashable {
        [AnyHashable(dateComponents), AnyHashable(repeats)]
    }

    override func notificationTrigger() throws(ChimeError) -> NotificationTrigger {
        .calendar(try CalendarTrigger(dateMatching: dateComponents, repeats: repeats))
    }
}

/// Marks a notification that arrived by remote push (Apple's `UNPushNotificationTrigger`). Apps never make
/// one; adding a request with it fails with `UNError.notificationInvalidNoDate`.
// @unchecked Sendable: immutable.
public final class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    override func notificationTrigger() throws(ChimeError) -> NotificationTrigger {
        .push(PushTrigger())
    }
}
#endif
