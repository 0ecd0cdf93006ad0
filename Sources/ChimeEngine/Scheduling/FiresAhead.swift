public import ChimeCore
public import Foundation

/// Fires recorded in the store ahead of their instants, waiting in memory to be shown at them.
///
/// The scheduler records each fire up to `EngineConfiguration.fireLead` before its date, reads what its
/// presentation needs, and leaves it here; at the instant it is shown from memory, with nothing between
/// the clock and the presenter. Until then the fire is not delivered as far as anyone can see: the
/// engine leaves it out of the delivered list, and a removal or replacement of its request cancels it.
///
/// Ordered by date, then by the order recorded. Cancelled entries stay in the heap and are skipped when
/// they reach the top, as `SchedulerTimeline` does.
struct FiresAhead: Sendable {
    /// One fire waiting for its instant, with what its presentation needs as read after it was recorded.
    struct Fire: Sendable {
        /// Its place in the presentation journal, and the tie-break between equal dates.
        let sequence: UInt64
        let appIdentifier: String
        let notification: DeliveredNotification
        /// The request as it was pending before this fire (its next fire date is this fire's), and
        /// whether the fire took it out of the store's pending list (it does not repeat).
        let pending: PendingRequest
        let leftPending: Bool
        /// The app's record and the size of the stack the notification joins, read after the batch it
        /// belongs to was recorded; `nil` when they could not be read (the fire is then only logged).
        let state: (app: AppRecord, threadCount: Int)?

        var date: Date { notification.date }
        var key: RequestKey { RequestKey(appIdentifier: appIdentifier, requestIdentifier: notification.identifier) }
    }

    private struct Entry: Comparable, Sendable {
        let fire: Fire

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.fire.date, lhs.fire.sequence) < (rhs.fire.date, rhs.fire.sequence) }
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.fire.sequence == rhs.fire.sequence }
    }

    private var heap = MinHeap<Entry>()
    /// The live entries per request, by sequence, with their dates; an entry missing here was cancelled.
    private var live: [RequestKey: [UInt64: Date]] = [:]
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ fire: Fire) {
        heap.insert(Entry(fire: fire))
        live[fire.key, default: [:]][fire.sequence] = fire.date
        count += 1
    }

    /// The date of the earliest live fire.
    mutating func nextDate() -> Date? {
        dropCancelled()
        return heap.minimum?.fire.date
    }

    /// Takes out the live fires dated at or before `now`, earliest first.
    mutating func removeDue(at now: Date) -> [Fire] {
        var due: [Fire] = []
        while true {
            dropCancelled()
            guard let minimum = heap.minimum, minimum.fire.date <= now else { return due }
            heap.removeMinimum()
            forget(minimum.fire)
            due.append(minimum.fire)
        }
    }

    /// Takes out every live fire, earliest first.
    mutating func removeAll() -> [Fire] {
        removeDue(at: .distantFuture)
    }

    /// The live fires, in no particular order.
    var fires: [Fire] {
        heap.elements.lazy.map(\.fire).filter { live[$0.key]?[$0.sequence] != nil }
    }

    /// Cancels the app's fires of these requests (all of the app's when `nil`) and returns them.
    mutating func cancel(appIdentifier: String, identifiers: [String]?) -> [Fire] {
        let keys = identifiers.map { $0.map { RequestKey(appIdentifier: appIdentifier, requestIdentifier: $0) } }
            ?? live.keys.filter { $0.appIdentifier == appIdentifier }
        var cancelled: [Fire] = []
        for key in Set(keys) {
            guard let sequences = live.removeValue(forKey: key) else { continue }
            count -= sequences.count
            cancelled += heap.elements.lazy.map(\.fire).filter { $0.key == key && sequences[$0.sequence] != nil }
        }
        return cancelled
    }

    /// Whether the delivered notification is one of these fires, recorded but not shown yet.
    func holds(appIdentifier: String, _ notification: DeliveredNotification) -> Bool {
        let key = RequestKey(appIdentifier: appIdentifier, requestIdentifier: notification.identifier)
        return live[key]?.values.contains(notification.date) ?? false
    }

    /// The requests of the waiting fires of one app (every app's when `nil`), as they were pending before
    /// the fire: as far as anyone can see they still are.
    func pending(appIdentifier: String?) -> [PendingRequest] {
        guard !isEmpty else { return [] }
        return fires.filter { appIdentifier == nil || $0.appIdentifier == appIdentifier }.map(\.pending)
    }

    /// How many waiting fires of one app (every app's when `nil`) took their request out of the store's
    /// pending list.
    func countLeftPending(appIdentifier: String?) -> Int {
        guard !isEmpty else { return 0 }
        return fires.count { $0.leftPending && (appIdentifier == nil || $0.appIdentifier == appIdentifier) }
    }

    /// How many fires wait, of one app or of every app (`nil`).
    func count(appIdentifier: String?) -> Int {
        guard let appIdentifier else { return count }
        return live.lazy.filter { $0.key.appIdentifier == appIdentifier }.reduce(0) { $0 + $1.value.count }
    }

    private mutating func dropCancelled() {
        while let minimum = heap.minimum, live[minimum.fire.key]?[minimum.fire.sequence] == nil {
            heap.removeMinimum()
        }
    }

    private mutating func forget(_ fire: Fire) {
        live[fire.key]?[fire.sequence] = nil
        if live[fire.key]?.isEmpty == true { live[fire.key] = nil }
        count -= 1
    }
}
