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

    /// Longest interval: the span of Chime's calendar (years 1–9999), beyond which no fire can land.
    public static let maximumInterval: TimeInterval = InstantText.supportedRange.upperBound.timeIntervalSince(InstantText.supportedRange.lowerBound)

    /// Any positive interval is accepted, as on iOS: one too short to measure (`1e-9`) fires at once.
    ///
    /// - Throws: `ChimeError.invalidTimeInterval` when the interval is not a positive finite number, when
    ///   it is longer than `maximumInterval`, or when it repeats more often than every 60 seconds.
    public init(timeInterval: TimeInterval, repeats: Bool) throws(ChimeError) {
        guard timeInterval.isFinite, timeInterval > 0 else {
            throw ChimeError(.invalidTimeInterval, field: "timeInterval", "the time interval must be greater than 0")
        }
        guard timeInterval <= Self.maximumInterval else {
            throw ChimeError(.invalidTimeInterval, field: "timeInterval", "the time interval is longer than the calendar Chime keeps (years 1–9999)")
        }
        guard !repeats || timeInterval >= Self.minimumRepeatingInterval else {
            throw ChimeError(.invalidTimeInterval, field: "timeInterval", "a repeating time interval must be at least 60 seconds")
        }
        self.timeInterval = timeInterval
        self.repeats = repeats
    }

    /// Refuses an anchor from which the first fire would lie after the year 9999.
    public func validate(anchor: Date) throws(ChimeError) {
        guard anchor.addingTimeInterval(timeInterval) <= InstantText.supportedRange.upperBound else {
            throw ChimeError(.invalidTimeInterval, field: "timeInterval", "the time interval ends after the year 9999")
        }
    }

    /// The first fire strictly after `date` for a request anchored at `anchor`, or `nil` when a
    /// non-repeating trigger has already fired or the next fire would lie after the year 9999.
    public func nextTriggerDate(after date: Date, anchor: Date) -> Date? {
        var first = anchor.addingTimeInterval(timeInterval)
        if first <= anchor {
            // Too short to change a Date this far from 2001 (1e-9 s): the next instant after the anchor.
            first = Date(timeIntervalSinceReferenceDate: anchor.timeIntervalSinceReferenceDate.nextUp)
        }
        if first > date { return first <= InstantText.supportedRange.upperBound ? first : nil }
        guard repeats else { return nil }
        // Count whole intervals from the anchor instead of adding to the previous fire, so rounding
        // never accumulates over many repeats.
        var k = ((date.timeIntervalSince(anchor)) / timeInterval).rounded(.down) + 1
        while anchor.addingTimeInterval(k * timeInterval) <= date { k += 1 }
        let next = anchor.addingTimeInterval(k * timeInterval)
        return next <= InstantText.supportedRange.upperBound ? next : nil
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
