public import ChimeCore
public import Foundation

/// A store that keeps everything in memory: for tests, previews and apps that want no persistence.
///
/// Meets every `NotificationStore` requirement except durability across processes (nothing outlives the
/// process). `pendingFires` and the list pages scan and sort all pending requests, which is fine for
/// thousands, not for millions; use the SQLite store for scale.
public actor InMemoryNotificationStore: NotificationStore {
    private var apps: [String: AppRecord] = [:]
    private var pending: [RequestKey: PendingRequest] = [:]
    /// Delivered notifications per app, oldest first.
    private var delivered: [String: [Delivery]] = [:]
    private var missed: [String: [MissedFire]] = [:]

    /// A delivered notification with the number that orders it in the delivered list.
    private struct Delivery {
        var sequence: Int64
        var notification: DeliveredNotification
    }

    public init() {}

    public func app(_ appIdentifier: String) -> AppRecord? {
        apps[appIdentifier]
    }

    public func allApps() -> [AppRecord] {
        apps.values.sorted { $0.appIdentifier < $1.appIdentifier }
    }

    public func saveApp(_ record: AppRecord) {
        apps[record.appIdentifier] = record
    }

    @discardableResult
    public func updateApp(_ appIdentifier: String, _ change: @escaping @Sendable (inout AppRecord) throws -> Void) throws -> AppRecord {
        var record = apps[appIdentifier] ?? AppRecord(appIdentifier: appIdentifier)
        try change(&record)
        apps[appIdentifier] = record
        return record
    }

    public func addPending(_ requests: [PendingRequest], admitting admit: @escaping @Sendable (AppRecord) throws -> Void) throws {
        for appIdentifier in Set(requests.map(\.appIdentifier)) {
            try admit(apps[appIdentifier] ?? AppRecord(appIdentifier: appIdentifier))
        }
        for request in requests {
            pending[request.key] = request
        }
    }

    public func pendingRequests(appIdentifier: String) -> [PendingRequest] {
        pending.values.filter { $0.appIdentifier == appIdentifier }.sorted { lhs, rhs in
            switch (lhs.nextFireDate, rhs.nextFireDate) {
            case (let l?, let r?) where l != r: l < r
            case (nil, _?): false
            case (_?, nil): true
            default: lhs.request.identifier < rhs.request.identifier
            }
        }
    }

    public func pendingRequests(_ keys: [RequestKey]) -> [PendingRequest] {
        keys.compactMap { pending[$0] }
    }

    public func removePending(appIdentifier: String, identifiers: [String]?) -> [RequestKey] {
        let keys = pending.keys.filter { key in
            key.appIdentifier == appIdentifier && (identifiers?.contains(key.requestIdentifier) ?? true)
        }
        for key in keys { pending[key] = nil }
        return keys.sorted()
    }

    public func pendingFires(after: SchedulerTimeline.Coverage?, through: Date, limit: Int) -> [ScheduledFire] {
        let fires = pending.values.compactMap { request in
            request.nextFireDate.map { ScheduledFire(date: $0, key: request.key) }
        }
        return Array(fires.filter { $0.date <= through && after?.covers($0) != true }.sorted().prefix(limit))
    }

    public func pendingPage(appIdentifier: String?, after position: PendingListPosition?, limit: Int) -> [PendingRequest] {
        precondition(limit >= 1, "a page holds at least one request")
        let listed = pending.values.filter { request in
            (appIdentifier == nil || request.appIdentifier == appIdentifier)
                && position.map { Self.precedes($0, PendingListPosition(request)) } ?? true
        }
        return Array(listed.sorted { Self.precedes(PendingListPosition($0), PendingListPosition($1)) }.prefix(limit))
    }

    public func pendingTotal(appIdentifier: String?) -> Int {
        guard let appIdentifier else { return pending.count }
        return pending.keys.count { $0.appIdentifier == appIdentifier }
    }

    /// Whether `lhs` comes before `rhs` in the pending list: dated before undated, earlier before later,
    /// then by key in `RequestKey`'s byte order, the order the SQLite store's indexes give.
    private static func precedes(_ lhs: PendingListPosition, _ rhs: PendingListPosition) -> Bool {
        switch (lhs.nextFireDate, rhs.nextFireDate) {
        case (let l?, let r?) where l != r: l < r
        case (nil, _?): false
        case (_?, nil): true
        default:
            RequestKey(appIdentifier: lhs.appIdentifier, requestIdentifier: lhs.requestIdentifier)
                < RequestKey(appIdentifier: rhs.appIdentifier, requestIdentifier: rhs.requestIdentifier)
        }
    }

    public func floatingCalendarRequests() -> [PendingRequest] {
        pending.values.filter { request in
            if case .calendar(let trigger) = request.request.trigger { return trigger.pinnedTimeZone == nil }
            return false
        }.sorted { $0.key < $1.key }
    }

    public func updateNextFireDates(_ dates: [RequestKey: Date?]) {
        for (key, date) in dates where pending[key] != nil {
            pending[key]?.nextFireDate = date
        }
    }

    public func dateUndated(_ requests: [RequestKey: Date], at date: Date) -> [RequestKey] {
        var dated: [RequestKey] = []
        for (key, added) in requests where pending[key]?.nextFireDate == nil && pending[key]?.addedDate == added {
            pending[key]?.nextFireDate = date
            dated.append(key)
        }
        return dated
    }

    public func shiftPending(_ keys: [RequestKey], by interval: TimeInterval) {
        for key in keys where pending[key] != nil {
            pending[key]?.addedDate.addTimeInterval(interval)
            pending[key]?.nextFireDate?.addTimeInterval(interval)
        }
    }

    public func recordFires(_ records: [FireRecord]) -> [FireRecord] {
        var applied: [FireRecord] = []
        for record in records {
            guard let request = pending[record.key], request.nextFireDate == record.firedDate else { continue }
            let app = record.key.appIdentifier
            if let notification = record.delivered {
                // Numbered before the replaced one leaves, as the SQLite store does: one past the newest.
                let sequence = (delivered[app]?.last?.sequence ?? 0) + 1
                delivered[app, default: []].removeAll { $0.notification.identifier == notification.identifier }
                delivered[app, default: []].append(Delivery(sequence: sequence, notification: notification))
                if let badge = notification.request.content.badge {
                    var appRecord = apps[app] ?? AppRecord(appIdentifier: app)
                    appRecord.badgeCount = badge
                    apps[app] = appRecord
                }
            }
            if let next = record.nextFireDate {
                pending[record.key]?.nextFireDate = next
            } else if record.staysPending {
                pending[record.key]?.nextFireDate = nil
            } else {
                pending[record.key] = nil
            }
            if let missedFire = record.missed {
                missed[app, default: []].append(missedFire)
            }
            applied.append(record)
        }
        return applied
    }

    public func deliveredNotifications(appIdentifier: String) -> [DeliveredNotification] {
        (delivered[appIdentifier] ?? []).reversed().map(\.notification)
    }

    public func deliveredPage(appIdentifier: String?, after position: DeliveredListPosition?, limit: Int) -> [DeliveredListEntry] {
        precondition(limit >= 1, "a page holds at least one notification")
        let apps = delivered.keys.filter { appIdentifier == nil || $0 == appIdentifier }
        let listed = apps.flatMap { app in
            delivered[app, default: []].map { delivery in
                DeliveredListEntry(
                    position: DeliveredListPosition(appIdentifier: app, sequence: delivery.sequence), notification: delivery.notification)
            }
        }
        let after = listed.filter { entry in position.map { Self.precedes($0, entry.position) } ?? true }
        return Array(after.sorted { Self.precedes($0.position, $1.position) }.prefix(limit))
    }

    public func deliveredTotal(appIdentifier: String?) -> Int {
        guard let appIdentifier else { return delivered.values.reduce(0) { $0 + $1.count } }
        return delivered[appIdentifier]?.count ?? 0
    }

    /// Whether `lhs` comes before `rhs` in the delivered list: by app in byte order, then newest first.
    private static func precedes(_ lhs: DeliveredListPosition, _ rhs: DeliveredListPosition) -> Bool {
        if lhs.appIdentifier != rhs.appIdentifier {
            return lhs.appIdentifier.utf8.lexicographicallyPrecedes(rhs.appIdentifier.utf8)
        }
        return lhs.sequence > rhs.sequence
    }

    public func deliveredNotification(appIdentifier: String, identifier: String) -> DeliveredNotification? {
        delivered[appIdentifier]?.first { $0.notification.identifier == identifier }?.notification
    }

    public func deliveredCount(appIdentifier: String, threadIdentifier: String) -> Int {
        (delivered[appIdentifier] ?? []).count { $0.notification.request.content.threadIdentifier == threadIdentifier }
    }

    public func updateDelivered(appIdentifier: String, _ notification: DeliveredNotification) {
        let index = delivered[appIdentifier]?.firstIndex { $0.notification.identifier == notification.identifier }
        guard let index else { return }
        delivered[appIdentifier]?[index].notification = notification
    }

    public func removeDelivered(appIdentifier: String, identifiers: [String]?) -> [String] {
        let removed = (delivered[appIdentifier] ?? []).map(\.notification.identifier).filter { identifiers?.contains($0) ?? true }
        delivered[appIdentifier]?.removeAll { removed.contains($0.notification.identifier) }
        return removed
    }

    public func missedFires(appIdentifier: String) -> [MissedFire] {
        missed[appIdentifier] ?? []
    }

    public func clearMissedFires(appIdentifier: String) {
        missed[appIdentifier] = nil
    }
}
