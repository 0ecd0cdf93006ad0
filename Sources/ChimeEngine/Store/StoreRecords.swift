public import ChimeCore
public import Foundation

/// What a store remembers about one app: the user's decisions and the app's registrations.
public struct AppRecord: Sendable, Hashable, Codable {
    public var appIdentifier: String
    /// The user's decisions: authorization status and every setting.
    public var settings: NotificationSettings
    /// The options the app asked for when it requested authorization.
    public var requestedOptions: AuthorizationOptions
    /// The registered categories; registering a new set replaces this one.
    public var categories: [NotificationCategory]
    /// The number on the app's badge; 0 shows none.
    public var badgeCount: Int

    public init(
        appIdentifier: String, settings: NotificationSettings = .notDetermined,
        requestedOptions: AuthorizationOptions = [], categories: [NotificationCategory] = [], badgeCount: Int = 0
    ) {
        self.appIdentifier = appIdentifier
        self.settings = settings
        self.requestedOptions = requestedOptions
        self.categories = categories
        self.badgeCount = badgeCount
    }
}

/// A request waiting to fire, as a store keeps it.
public struct PendingRequest: Sendable, Hashable, Codable {
    public var appIdentifier: String
    public var request: NotificationRequest
    /// When the request was added: the anchor a time-interval trigger counts from.
    public var addedDate: Date
    /// The next instant it fires; `nil` when no date is due (a location trigger waiting for a crossing).
    /// Stores index this field.
    public var nextFireDate: Date?

    public init(appIdentifier: String, request: NotificationRequest, addedDate: Date, nextFireDate: Date?) {
        self.appIdentifier = appIdentifier
        self.request = request
        self.addedDate = addedDate
        self.nextFireDate = nextFireDate
    }

    public var key: RequestKey {
        RequestKey(appIdentifier: appIdentifier, requestIdentifier: request.identifier)
    }
}

/// A fire date that passed while nothing was running, and what was done about it.
public struct MissedFire: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Delivered once, late, marked `isLate` (`MisfirePolicy.deliverLate`).
        case deliveredLate
        /// Not delivered (`MisfirePolicy.skip`).
        case skipped
    }

    public var requestIdentifier: String
    /// The first fire date that was missed.
    public var firstMissedDate: Date
    /// The last fire date that was missed; equal to the first unless a repeating trigger missed several.
    public var lastMissedDate: Date
    /// How many fire dates were missed (repeats coalesced into one delivery or skip).
    public var count: Int
    public var outcome: Outcome
    /// When the engine noticed, on its start.
    public var detectedDate: Date

    public init(requestIdentifier: String, firstMissedDate: Date, lastMissedDate: Date, count: Int, outcome: Outcome, detectedDate: Date) {
        self.requestIdentifier = requestIdentifier
        self.firstMissedDate = firstMissedDate
        self.lastMissedDate = lastMissedDate
        self.count = count
        self.outcome = outcome
        self.detectedDate = detectedDate
    }
}

/// One fire of a pending request, recorded atomically with the request's next state.
public struct FireRecord: Sendable, Hashable {
    public var key: RequestKey
    /// The pending request's `nextFireDate` that fired. The store applies the record only while the
    /// request still has this date, so one fire is never recorded twice (after a crash and restart, or
    /// when the request was replaced in between).
    public var firedDate: Date
    /// The notification delivered; `nil` when the fire was skipped (`MisfirePolicy.skip`).
    public var delivered: DeliveredNotification?
    /// The request's next fire date; `nil` when it is done and leaves the pending list, or waits undated
    /// (`staysPending`).
    public var nextFireDate: Date?
    /// Set when the fire date passed while nothing was running.
    public var missed: MissedFire?
    /// With no next fire date: the request stays pending without one, as a repeating location trigger
    /// waits for its region's next crossing, instead of leaving.
    public var staysPending: Bool

    public init(
        key: RequestKey, firedDate: Date, delivered: DeliveredNotification?, nextFireDate: Date?, missed: MissedFire? = nil, staysPending: Bool = false
    ) {
        self.key = key
        self.firedDate = firedDate
        self.delivered = delivered
        self.nextFireDate = nextFireDate
        self.missed = missed
        self.staysPending = staysPending
    }
}

extension NotificationRequest {
    /// Whether the request's fire dates float with the user's time zone: stores keep these apart, to
    /// re-date them when the zone changes (`floatingCalendarRequests`).
    public var hasFloatingCalendarTrigger: Bool {
        if case .calendar(let trigger) = trigger { return trigger.pinnedTimeZone == nil }
        return false
    }
}
