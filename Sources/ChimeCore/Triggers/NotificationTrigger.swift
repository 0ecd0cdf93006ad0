/// What makes a request's notification fire (Apple's `UNNotificationTrigger` subclasses, as one enum).
///
/// A request without a trigger (`nil`) is delivered at once, as on iOS.
public enum NotificationTrigger: Sendable, Hashable, Codable {
    case timeInterval(TimeIntervalTrigger)
    case calendar(CalendarTrigger)
    case location(LocationTrigger)
    case push(PushTrigger)

    /// Whether the trigger fires again after its first delivery.
    public var repeats: Bool {
        switch self {
        case .timeInterval(let trigger): trigger.repeats
        case .calendar(let trigger): trigger.repeats
        case .location(let trigger): trigger.repeats
        case .push(let trigger): trigger.repeats
        }
    }
}
