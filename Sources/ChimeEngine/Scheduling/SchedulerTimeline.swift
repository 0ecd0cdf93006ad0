public import Foundation

/// The scheduler's state machine: which fires are due, what to load from the store, how long to sleep.
///
/// Pure: it reads no clock and does no I/O. The driver asks `nextStep(now:)` and does what it says —
/// load a page from the store, deliver due fires, or sleep — then reports back (`didLoad`, `didAdd`,
/// `didRemove`). Only the near future lives in memory: the fires up to `coverage`, which reaches at most
/// one `window` past the time of the last load, at most `pageSize` fires per load. Everything later stays
/// in the store, which pages it in by its index on the next fire date as time moves on. This keeps memory
/// flat with millions of pending requests (cf. dunst's `queues_update(now)` and
/// `queues_get_next_datachange(now)`).
///
/// Invariant: the fires in memory are exactly the pending fires that `coverage` covers.
///
/// ```swift
/// var timeline = SchedulerTimeline()
/// timeline.nextStep(now: now)    // .load(after: nil, through: now + 10 min, limit: 1000)
/// timeline.didLoad(page, after: nil, through: now + 10 min)
/// timeline.nextStep(now: now)    // .sleep(until: first fire), or .fire([...]) when some are due
/// ```
public struct SchedulerTimeline: Sendable {
    /// Which pending fires memory holds.
    public enum Coverage: Equatable, Sendable {
        /// Every fire dated at or before this date.
        case datesThrough(Date)
        /// Every fire ordered at or before this one (a page was cut short by `pageSize`).
        case firesThrough(ScheduledFire)

        public func covers(_ fire: ScheduledFire) -> Bool {
            switch self {
            case .datesThrough(let date): fire.date <= date
            case .firesThrough(let last): fire <= last
            }
        }

        var date: Date {
            switch self {
            case .datesThrough(let date): date
            case .firesThrough(let last): last.date
            }
        }
    }

    /// What the driver should do next.
    public enum Step: Equatable, Sendable {
        /// Read from the store the pending fires not covered by `after` (all when `nil`) and dated up to
        /// and including `through`, earliest first, at most `limit`; then call `didLoad`.
        case load(after: Coverage?, through: Date, limit: Int)
        /// These fires are due (dated at or before now), earliest first. They have left the timeline; the
        /// driver records each delivery and reports a repeating request's next fire with `didAdd`.
        case fire([ScheduledFire])
        /// Nothing is due before `until`; sleep until then, or until `didAdd` says to wake up.
        case sleep(until: Date)
    }

    /// How far ahead of the last load fires are held in memory.
    public let window: TimeInterval
    /// The most fires one load brings in.
    public let pageSize: Int

    /// A fire as the heap holds it: `generation` tells a live entry from a stale one left by a removal,
    /// even when the request was added again with the same date.
    private struct Entry: Comparable, Sendable {
        var fire: ScheduledFire
        var generation: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.fire, lhs.generation) < (rhs.fire, rhs.generation) }
    }

    private var heap = MinHeap<Entry>()
    /// The generation of each request's live heap entry; entries of other generations are stale.
    private var current: [RequestKey: UInt64] = [:]
    private var nextGeneration: UInt64 = 0
    public private(set) var coverage: Coverage?

    public init(window: TimeInterval = 600, pageSize: Int = 1000) {
        precondition(window > 0 && pageSize > 0, "window and pageSize must be positive")
        self.window = window
        self.pageSize = pageSize
    }

    /// The number of fires held in memory.
    public var count: Int { current.count }

    /// Decides the next step at `now`.
    public mutating func nextStep(now: Date) -> Step {
        guard let coverage else {
            return .load(after: nil, through: now.addingTimeInterval(window), limit: pageSize)
        }
        var due: [ScheduledFire] = []
        while let minimum = popMinimum(ifDueAt: now) {
            due.append(minimum)
        }
        if !due.isEmpty { return .fire(due) }

        // Reload once half the window has passed, so loads are rare even when they find nothing; hold off
        // while a full page is still in memory.
        let canLoad = count < pageSize
        let reloadAt = coverage.date.addingTimeInterval(-window / 2)
        if canLoad && reloadAt <= now {
            return .load(after: coverage, through: now.addingTimeInterval(window), limit: pageSize)
        }
        let nextFire = liveMinimum()?.date ?? .distantFuture
        return .sleep(until: canLoad ? min(nextFire, reloadAt) : nextFire)
    }

    /// Takes in the page the driver loaded for a `.load(after:through:limit:)` step.
    public mutating func didLoad(_ fires: [ScheduledFire], after: Coverage?, through: Date) {
        for fire in fires where after?.covers(fire) != true {
            insert(fire)
        }
        if fires.count >= pageSize, let last = fires.last {
            coverage = .firesThrough(last)
        } else {
            coverage = .datesThrough(through)
        }
    }

    /// A request was added or replaced, or a repeating request got its next fire.
    ///
    /// - Returns: whether the driver must wake up because the new fire comes before the one it sleeps for.
    @discardableResult
    public mutating func didAdd(_ fire: ScheduledFire) -> Bool {
        let earliest = liveMinimum()
        current[fire.key] = nil
        // Beyond what memory covers: the store pages it in when its time comes.
        guard let coverage, coverage.covers(fire) else { return false }
        insert(fire)
        return earliest.map { fire < $0 } ?? true
    }

    /// A pending request was removed.
    public mutating func didRemove(_ key: RequestKey) {
        current[key] = nil  // its heap entry is now stale and is dropped when it reaches the top
    }

    /// Forgets everything in memory, for example when the time zone changed and floating calendar
    /// triggers have new fire dates; the next step reloads from the store.
    public mutating func reset() {
        heap.removeAll()
        current.removeAll()
        coverage = nil
    }

    private mutating func insert(_ fire: ScheduledFire) {
        nextGeneration += 1
        current[fire.key] = nextGeneration
        heap.insert(Entry(fire: fire, generation: nextGeneration))
    }

    /// The earliest fire in memory, dropping stale heap entries on the way.
    private mutating func liveMinimum() -> ScheduledFire? {
        while let minimum = heap.minimum {
            if current[minimum.fire.key] == minimum.generation { return minimum.fire }
            heap.removeMinimum()
        }
        return nil
    }

    private mutating func popMinimum(ifDueAt now: Date) -> ScheduledFire? {
        guard let minimum = liveMinimum(), minimum.date <= now else { return nil }
        heap.removeMinimum()
        current[minimum.key] = nil
        return minimum
    }
}
