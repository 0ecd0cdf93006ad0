public import Foundation

/// One pending request's next fire: which app, which request, when.
///
/// Ordered by date, then app, then request identifier, so the timeline and the store page through equal
/// dates in the same stable order.
public struct ScheduledFire: Hashable, Sendable, Comparable {
    public var date: Date
    public var key: RequestKey

    public init(date: Date, key: RequestKey) {
        self.date = date
        self.key = key
    }

    public static func < (lhs: ScheduledFire, rhs: ScheduledFire) -> Bool {
        (lhs.date, lhs.key) < (rhs.date, rhs.key)
    }
}

/// A request across all apps of a store: the app's identifier and the request's.
public struct RequestKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var appIdentifier: String
    public var requestIdentifier: String

    public init(appIdentifier: String, requestIdentifier: String) {
        self.appIdentifier = appIdentifier
        self.requestIdentifier = requestIdentifier
    }

    /// Orders by the UTF-8 bytes of the app, then of the request identifier: the order SQLite's
    /// `BINARY` collation and most databases' byte orders give, so stores page in exactly this order.
    public static func < (lhs: RequestKey, rhs: RequestKey) -> Bool {
        if lhs.appIdentifier != rhs.appIdentifier {
            return lhs.appIdentifier.utf8.lexicographicallyPrecedes(rhs.appIdentifier.utf8)
        }
        return lhs.requestIdentifier.utf8.lexicographicallyPrecedes(rhs.requestIdentifier.utf8)
    }

    public var description: String { "\(appIdentifier)/\(requestIdentifier)" }
}
