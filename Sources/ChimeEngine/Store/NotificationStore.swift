public import ChimeCore
public import Foundation

/// Where the notification center keeps its state: apps, pending requests, delivered notifications and
/// missed fires, for every app of one user (or tenant).
///
/// **Requirements** every store meets (checked by `StoreConformanceSuite` in ChimeTesting):
/// - Durability: when a mutating method returns, its change survives a crash (`kill -9`) of any process.
///   A method that throws changed nothing.
/// - Atomicity: each call is all or nothing, including the batches of `addPending` and `recordFires`.
/// - `addPending` replaces the pending request with the same app and identifier.
/// - `pendingFires` answers from an index on the next fire date, so it stays fast with millions of
///   pending requests; only the page asked for is read.
/// - `recordFires` applies a record only while the pending request still has the record's `firedDate`,
///   stores the delivered notification (replacing one with the same identifier), applies its content
///   badge to the app, advances the pending request, leaves it undated (`staysPending`) or removes it,
///   and keeps the missed fire, all in one transaction. It returns the records it applied.
/// - `dateUndated` dates a request only while it is undated and still the one added at the given date.
/// - `pendingPage` and `deliveredPage` are keyset pages: a page starts after a position, not at an
///   offset, and reads about `limit` entries from an index whatever the size of the list, so listing
///   100,000 requests page by page costs the same per page as listing ten. Between pages, an entry that
///   stays where it is in the order is listed exactly once, even when the entry at the page boundary was
///   removed; an entry added, re-dated or re-delivered meanwhile moves in the order, so it may be listed
///   twice or not at all.
/// - `pendingTotal` and `deliveredTotal` count without reading the entries.
/// - Thread-safe: any task may call any method at any time.
public protocol NotificationStore: Sendable {
    // MARK: Apps

    func app(_ appIdentifier: String) async throws -> AppRecord?
    func allApps() async throws -> [AppRecord]
    /// Inserts or replaces the app's record.
    func saveApp(_ record: AppRecord) async throws
    /// Changes the app's record (a new one when it has none) in one step: nothing else writes it between
    /// the read and the write, so changes to different fields made at the same time (categories, settings,
    /// a delivery's badge) all survive. Returns the record as written; when `change` throws, nothing is
    /// written.
    @discardableResult
    func updateApp(_ appIdentifier: String, _ change: @escaping @Sendable (inout AppRecord) throws -> Void) async throws -> AppRecord

    // MARK: Pending requests

    /// Adds the requests, replacing pending ones with the same app and identifier. All or nothing.
    ///
    /// `admit` sees the record of each app the requests belong to (a new one for an app without a
    /// record), read in the same transaction as the write, and refuses the whole add by throwing: so the
    /// engine's rule (a denied app adds nothing) holds against a decision made while the add was on its
    /// way, and the add costs one trip to the store, not a read and then a write.
    func addPending(_ requests: [PendingRequest], admitting admit: @escaping @Sendable (AppRecord) throws -> Void) async throws
    /// The app's pending requests, ordered by next fire date (requests that never fire by themselves last),
    /// then identifier.
    func pendingRequests(appIdentifier: String) async throws -> [PendingRequest]
    /// The pending requests with these keys that exist, in no particular order.
    func pendingRequests(_ keys: [RequestKey]) async throws -> [PendingRequest]
    /// Removes the app's pending requests with these identifiers, or all of them when `nil`; returns the
    /// keys removed.
    @discardableResult
    func removePending(appIdentifier: String, identifiers: [String]?) async throws -> [RequestKey]
    /// The pending fires not covered by `after` and dated up to `through`, earliest first, at most `limit`.
    func pendingFires(after: SchedulerTimeline.Coverage?, through: Date, limit: Int) async throws -> [ScheduledFire]
    /// Every pending request whose trigger is a calendar trigger without a time zone (it floats with the
    /// user's zone), for recomputing fire dates when the zone changes.
    func floatingCalendarRequests() async throws -> [PendingRequest]
    /// Sets the next fire dates of pending requests (missing keys are ignored).
    func updateNextFireDates(_ dates: [RequestKey: Date?]) async throws
    /// Gives undated pending requests (location triggers whose region was crossed) the fire date `date`,
    /// each only while it has no date and is still the request added at its `addedDate` here, so a request
    /// replaced meanwhile is never dated by its predecessor's crossing. Returns the keys dated; the
    /// scheduler then fires them as any due request, exactly once.
    func dateUndated(_ requests: [RequestKey: Date], at date: Date) async throws -> [RequestKey]
    /// Moves the added date (the anchor of time-interval triggers) and the next fire date of pending
    /// requests by `interval` seconds, for keeping elapsed-time schedules when the wall clock is set
    /// (missing keys are ignored).
    func shiftPending(_ keys: [RequestKey], by interval: TimeInterval) async throws
    /// Pending requests in list order — by next fire date, requests that never fire by themselves (`nil`
    /// date) last; then app identifier, then request identifier — of one app, or of every app when
    /// `appIdentifier` is `nil`; only those after `position` (`nil`: from the start); at most `limit`
    /// (`limit >= 1`). Identifiers order by their UTF-8 bytes, as `RequestKey` does.
    ///
    /// A page shorter than `limit` is the last; the next page of a full one starts after the position of
    /// its last request. A position from the list of every app also continues one app's list.
    func pendingPage(appIdentifier: String?, after position: PendingListPosition?, limit: Int) async throws -> [PendingRequest]
    /// How many pending requests the app has (every app's when `nil`), answered without reading the
    /// requests.
    func pendingTotal(appIdentifier: String?) async throws -> Int

    // MARK: Fires and delivered notifications

    /// Records fires atomically; see the requirements above. Returns the records applied.
    func recordFires(_ records: [FireRecord]) async throws -> [FireRecord]
    /// The app's delivered notifications, newest first.
    func deliveredNotifications(appIdentifier: String) async throws -> [DeliveredNotification]
    /// Delivered notifications in list order — by app identifier (its UTF-8 bytes), then newest first
    /// (the order of `deliveredNotifications(appIdentifier:)`) — of one app, or of every app when
    /// `appIdentifier` is `nil`; only those after `position` (`nil`: from the start); at most `limit`
    /// (`limit >= 1`). Each entry carries its position, to continue from.
    func deliveredPage(appIdentifier: String?, after position: DeliveredListPosition?, limit: Int) async throws -> [DeliveredListEntry]
    /// How many delivered notifications the app has (every app's when `nil`), answered without reading
    /// them.
    func deliveredTotal(appIdentifier: String?) async throws -> Int
    func deliveredNotification(appIdentifier: String, identifier: String) async throws -> DeliveredNotification?
    /// How many of the app's delivered notifications share this thread identifier (empty: the app's
    /// default group), answered from an index.
    func deliveredCount(appIdentifier: String, threadIdentifier: String) async throws -> Int
    /// `deliveredCount` for several of the app's threads in one call (the engine asks once per batch of
    /// fires it presents); every thread asked for is in the result.
    func deliveredCounts(appIdentifier: String, threadIdentifiers: Set<String>) async throws -> [String: Int]
    /// Replaces a delivered notification (new actions, for example); does nothing if it was removed.
    func updateDelivered(appIdentifier: String, _ notification: DeliveredNotification) async throws
    /// Removes the app's delivered notifications with these identifiers, or all when `nil`; returns the
    /// identifiers removed.
    @discardableResult
    func removeDelivered(appIdentifier: String, identifiers: [String]?) async throws -> [String]

    // MARK: Missed fires

    /// What the app missed while nothing ran, oldest first.
    func missedFires(appIdentifier: String) async throws -> [MissedFire]
    /// Forgets the app's missed fires once it has looked at them.
    func clearMissedFires(appIdentifier: String) async throws

    /// How many stored records no longer decode and were set aside (0 for a store that never keeps
    /// damaged records, the default).
    func quarantinedCount() async throws -> Int
}

extension NotificationStore {
    public func quarantinedCount() async throws -> Int { 0 }

    /// Adds the requests whatever their apps' records say.
    public func addPending(_ requests: [PendingRequest]) async throws {
        try await addPending(requests, admitting: { _ in })
    }

    /// One `deliveredCount` call per thread; stores that can answer in one read do so instead.
    public func deliveredCounts(appIdentifier: String, threadIdentifiers: Set<String>) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for thread in threadIdentifiers {
            counts[thread] = try await deliveredCount(appIdentifier: appIdentifier, threadIdentifier: thread)
        }
        return counts
    }
}
