import ChimeCore
import Foundation

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

    /// The heap holds dates and sequences only: swapping whole fires would copy (and retain) every field.
    private struct Entry: Comparable, Sendable {
        let date: Date
        let sequence: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.date, lhs.sequence) < (rhs.date, rhs.sequence) }
    }

    private var heap = MinHeap<Entry>()
    /// The live fires by sequence; a heap entry without one here was cancelled.
    private var bySequence: [UInt64: Fire] = [:]
    /// The live fires' sequences per request.
    private var byKey: [RequestKey: [UInt64]] = [:]

    var count: Int { bySequence.count }
    var isEmpty: Bool { bySequence.isEmpty }

    mutating func insert(_ fire: Fire) {
        heap.insert(Entry(date: fire.date, sequence: fire.sequence))
        bySequence[fire.sequence] = fire
        byKey[fire.key, default: []].append(fire.sequence)
    }

    /// The date of the earliest live fire.
    mutating func nextDate() -> Date? {
        dropCancelled()
        return heap.minimum?.date
    }

    /// Takes out the live fires dated at or before `now`, earliest first.
    mutating func removeDue(at now: Date) -> [Fire] {
        var due: [Fire] = []
        while true {
            dropCancelled()
            guard let minimum = heap.minimum, minimum.date <= now else { return due }
            heap.removeMinimum()
            if let fire = take(minimum.sequence) { due.append(fire) }
        }
    }

    /// The live fires, in no particular order.
    var fires: some Collection<Fire> { bySequence.values }

    /// Cancels the app's fires of these requests (all of the app's when `nil`) and returns them.
    mutating func cancel(appIdentifier: String, identifiers: [String]?) -> [Fire] {
        let keys = identifiers.map { $0.map { RequestKey(appIdentifier: appIdentifier, requestIdentifier: $0) } }
            ?? byKey.keys.filter { $0.appIdentifier == appIdentifier }
        var cancelled: [Fire] = []
        for key in Set(keys) {
            for sequence in byKey[key] ?? [] {
                if let fire = take(sequence) { cancelled.append(fire) }
            }
        }
        return cancelled
    }

    /// Whether the delivered notification is one of these fires, recorded but not shown yet.
    func holds(appIdentifier: String, _ notification: DeliveredNotification) -> Bool {
        let key = RequestKey(appIdentifier: appIdentifier, requestIdentifier: notification.identifier)
        return byKey[key]?.contains { bySequence[$0]?.date == notification.date } ?? false
    }

    /// How many fires wait, of one app or of every app (`nil`).
    func count(appIdentifier: String?) -> Int {
        guard let appIdentifier else { return count }
        return byKey.lazy.filter { $0.key.appIdentifier == appIdentifier }.reduce(0) { $0 + $1.value.count }
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

    private mutating func dropCancelled() {
        while let minimum = heap.minimum, bySequence[minimum.sequence] == nil {
            heap.removeMinimum()
        }
    }

    /// Takes a live fire out of the maps (its heap entry, if still there, is then skipped).
    private mutating func take(_ sequence: UInt64) -> Fire? {
        guard let fire = bySequence.removeValue(forKey: sequence) else { return nil }
        byKey[fire.key]?.removeAll { $0 == sequence }
        if byKey[fire.key]?.isEmpty == true { byKey[fire.key] = nil }
        return fire
    }
}

/// A fire whose record is being committed while the driver reads the next batch: not shown, not listed
/// as delivered, still pending as far as anyone can see; a removal or replacement of its request marks
/// it cancelled, and its record is then deleted once committed.
struct FireInFlight: Sendable {
    let pending: PendingRequest
    let date: Date
    /// Its place in the presentation journal.
    let sequence: UInt64
    var isCancelled = false
}
