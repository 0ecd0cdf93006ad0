public import Foundation

/// Fires a number of seconds after the request was scheduled, once or repeatedly
/// (Apple's `UNTimeIntervalNotificationTrigger`).
///
/// The interval counts from the request's *anchor*: the instant it was added. The engine persists the
/// anchor with the request, so fire dates are instants that do not move when the time zone or the wall
/// clock changes. A repeating trigger fires at `anchor + k × timeInterval` for k = 1, 2, ...
///
/// ```swift
/// let snooze = try TimeIntervalTrigger(timeInterval: 9 * 60, repeats: false)
/// snooze.nextTriggerDate(after: now, anchor: now)  // now + 9 minutes
/// ```
public struct TimeIntervalTrigger: Sendable, Hashable, Codable {
    /// Seconds from the anchor to the first fire, and between repeats.
    public let timeInterval: TimeInterval
    public let repeats: Bool

    /// Shortest interval a repeating trigger may have, as on iOS.
    public static let minimumRepeatingInterval: TimeInterval = 60

    /// - Throws: `ChimeError.invalidTimeInterval` when the interval is not a positive finite number, or
    ///   when it repeats more often than every 60 seconds.
    public init(timeInterval: TimeInterval, repeats: Bool) throws(ChimeError) {
        guard timeInterval.isFinite, timeInterval > 0 else {
            throw ChimeError(.invalidTimeInterval, field: "timeInterval", "the time interval must be greater than 0")
        }
        guard !repeats || timeInterval >= Self.minimumRepeatingInterval else {
            throw ChimeError(.invalidTimeInterval, field: "timeInterval", "a repeating time interval must be at least 60 seconds")
        }
        self.timeInterval = timeInterval
        self.repeats = repeats
    }

    /// The first fire strictly after `date` for a request anchored at `anchor`, or `nil` when a
    /// non-repeating trigger has already fired.
    public func nextTriggerDate(after date: Date, anchor: Date) -> Date? {
        let first = anchor.addingTimeInterval(timeInterval)
        if first > date { return first }
        guard repeats else { return nil }
        // Count whole intervals from the anchor instead of adding to the previous fire, so rounding
        // never accumulates over many repeats.
        var k = ((date.timeIntervalSince(anchor)) / timeInterval).rounded(.down) + 1
        while anchor.addingTimeInterval(k * timeInterval) <= date { k += 1 }
        return anchor.addingTimeInterval(k * timeInterval)
    }

    /// Up to `count` fire dates strictly after `date`, in order.
    public func nextFireDates(after date: Date, anchor: Date, count: Int) -> [Date] {
        var dates: [Date] = []
        var cursor = date
        while dates.count < count, let next = nextTriggerDate(after: cursor, anchor: anchor) {
            dates.append(next)
            cursor = next
        }
        return dates
    }

    private enum CodingKeys: String, CodingKey { case timeInterval, repeats }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            timeInterval: container.decode(TimeInterval.self, forKey: .timeInterval),
            repeats: container.decode(Bool.self, forKey: .repeats))
    }
}
