/// What makes a request's notification fire (Apple's `UNNotificationTrigger` subclasses, as one enum).
///
/// A request without a trigger (`nil`) is delivered at once, as on iOS.
///
/// Encoded as one flat object whose `type` names the case, followed by that trigger's own keys, so a
/// store can index the kind and the CLI prints what a person would write:
///
/// ```json
/// {"type": "timeInterval", "timeInterval": 540, "repeats": false}
/// {"type": "calendar", "dateComponents": {"hour": 7, "minute": 30}, "repeats": true}
/// {"type": "push", "repeats": false}
/// ```
public enum NotificationTrigger: Sendable, Hashable {
    case timeInterval(TimeIntervalTrigger)
    // Boxed: a calendar trigger holds `DateComponents` (nearly 400 bytes) and a location trigger a region,
    // and every request carries its trigger inline, so a copy of any request (there are hundreds of
    // thousands in a batch add) would move them; boxed, a request is half as large.
    indirect case calendar(CalendarTrigger)
    indirect case location(LocationTrigger)
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

extension NotificationTrigger: Codable {
    private enum CodingKeys: String, CodingKey { case type }

    private enum Kind: String, Codable {
        case timeInterval, calendar, location, push
    }

    /// Decodes the case named by `type` from the same object; the trigger re-validates itself.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .type) {
        case .timeInterval: self = .timeInterval(try TimeIntervalTrigger(from: decoder))
        case .calendar: self = .calendar(try CalendarTrigger(from: decoder))
        case .location: self = .location(try LocationTrigger(from: decoder))
        case .push: self = .push(PushTrigger())
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .timeInterval(let trigger):
            try container.encode(Kind.timeInterval, forKey: .type)
            try trigger.encode(to: encoder)
        case .calendar(let trigger):
            try container.encode(Kind.calendar, forKey: .type)
            try trigger.encode(to: encoder)
        case .location(let trigger):
            try container.encode(Kind.location, forKey: .type)
            try trigger.encode(to: encoder)
        case .push(let trigger):
            try container.encode(Kind.push, forKey: .type)
            try trigger.encode(to: encoder)
        }
    }
}
