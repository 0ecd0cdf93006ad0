public import ChimeCore
public import Foundation

/// A store that keeps everything in memory: for tests, previews and apps that want no persistence.
///
/// Meets every `NotificationStore` requirement except durability across processes (nothing outlives the
/// process). `pendingFires` scans all pending requests, which is fine for thousands, not for millions;
/// use the SQLite store for scale.
public actor InMemoryNotificationStore: NotificationStore {
    private var apps: [String: AppRecord] = [:]
    private var pending: [RequestKey: PendingRequest] = [:]
    /// Delivered notifications per app, oldest first.
    private var delivered: [String: [DeliveredNotification]] = [:]
    private var missed: [String: [MissedFire]] = [:]

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

    public func addPending(_ requests: [PendingRequest]) {
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

    public func recordFires(_ records: [FireRecord]) -> [FireRecord] {
        var applied: [FireRecord] = []
        for record in records {
            guard let request = pending[record.key], request.nextFireDate == record.firedDate else { continue }
            let app = record.key.appIdentifier
            if let notification = record.delivered {
                delivered[app, default: []].removeAll { $0.identifier == notification.identifier }
                delivered[app, default: []].append(notification)
                if let badge = notification.request.content.badge {
                    var appRecord = apps[app] ?? AppRecord(appIdentifier: app)
                    appRecord.badgeCount = badge
                    apps[app] = appRecord
                }
            }
            if let next = record.nextFireDate {
                pending[record.key]?.nextFireDate = next
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
        (delivered[appIdentifier] ?? []).reversed()
    }

    public func deliveredNotification(appIdentifier: String, identifier: String) -> DeliveredNotification? {
        delivered[appIdentifier]?.first { $0.identifier == identifier }
    }

    public func deliveredCount(appIdentifier: String, threadIdentifier: String) -> Int {
        (delivered[appIdentifier] ?? []).count { $0.request.content.threadIdentifier == threadIdentifier }
    }

    public func updateDelivered(appIdentifier: String, _ notification: DeliveredNotification) {
        guard let index = delivered[appIdentifier]?.firstIndex(where: { $0.identifier == notification.identifier }) else { return }
        delivered[appIdentifier]?[index] = notification
    }

    public func removeDelivered(appIdentifier: String, identifiers: [String]?) -> [String] {
        let removed = (delivered[appIdentifier] ?? []).map(\.identifier).filter { identifiers?.contains($0) ?? true }
        delivered[appIdentifier]?.removeAll { removed.contains($0.identifier) }
        return removed
    }

    public func missedFires(appIdentifier: String) -> [MissedFire] {
        missed[appIdentifier] ?? []
    }

    public func clearMissedFires(appIdentifier: String) {
        missed[appIdentifier] = nil
    }
}
