internal import Foundation
import Synchronization

/// The UTC offsets of one time zone over Chime's whole calendar, years 1 through 9999, as a sorted table
/// of the instants where the offset changes.
///
/// Built once per zone from Foundation's `TimeZone` (tzdata) and then answered by binary search without
/// locks or allocation. Before a zone's first transition its first offset (local mean time) holds. After
/// tzdata's explicit transitions (none later than 2087 today) every zone follows a fixed yearly rule
/// ("second Sunday of March"), and such rules repeat exactly every 400 Gregorian years (146,097 days, a
/// whole number of weeks). So the table is built through `tableEnd` (2500) and an instant after it is
/// answered from the same instant 400, 800, … years earlier, inside [2100, 2500).
///
/// Instants and local times are whole seconds: an instant counts from 1970-01-01T00:00:00Z, a local time
/// counts the same way on the zone's wall clock (instant + offset).
final class ZoneOffsetTable: Sendable {
    /// Instants that the table answers for: 0001-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z.
    static let coverage = -62_135_596_800..<253_402_300_800
    /// 400 Gregorian years in seconds: the period after which a yearly rule repeats.
    static let cycle = 146_097 * 86_400
    /// Where the built table ends and the cycle takes over: 2500-01-01T00:00:00Z.
    static let tableEnd = 16_725_225_600

    let identifier: String
    /// Instants where the offset changes, ascending; built a little past `tableEnd`, so a period that
    /// starts before it knows where it ends.
    private let transitions: [Int]
    /// `offsets[i]` is the offset before `transitions[i]` and from `transitions[i - 1]` on;
    /// `offsets.count == transitions.count + 1`.
    private let offsets: [Int]

    init(timeZone: TimeZone) {
        identifier = timeZone.identifier
        var transitions: [Int] = []
        var offsets = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.coverage.lowerBound)))]
        var cursor = Date(timeIntervalSince1970: Double(Self.coverage.lowerBound))
        let end = Date(timeIntervalSince1970: Double(Self.tableEnd + 2 * 366 * 86_400))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            let instant = Int(next.timeIntervalSince1970.rounded(.down))
            let offset = timeZone.secondsFromGMT(for: next)
            if offset != offsets[offsets.count - 1] {
                transitions.append(instant)
                offsets.append(offset)
            }
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// How many whole cycles to take off `instant` (a local time works the same way) so that it falls
    /// before `tableEnd`: 0 for every instant up to 2500.
    @inline(__always)
    private static func cycles(_ instant: Int) -> Int {
        instant < tableEnd ? 0 : (instant - tableEnd) / cycle + 1
    }

    /// The table for `timeZone`, built on first use and shared afterwards.
    static func table(for timeZone: TimeZone) -> ZoneOffsetTable {
        let identifier = timeZone.identifier
        if let table = cache.withLock({ $0[identifier] }) {
            return table
        }
        // Built outside the lock: two threads may both build the first time; both results are equal.
        let table = ZoneOffsetTable(timeZone: timeZone)
        return cache.withLock { cache in
            if let existing = cache[identifier] { return existing }
            cache[identifier] = table
            return table
        }
    }

    private static let cache = Mutex<[String: ZoneOffsetTable]>([:])

    /// Index into `offsets` of the period that contains `instant`: the number of transitions at or before it.
    @inline(__always)
    private func period(containing instant: Int) -> Int {
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low &+ high) >> 1
            if transitions[mid] <= instant {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return low
    }

    /// The offset from UTC, in seconds, in effect at `instant`.
    func offset(at instant: Int) -> Int {
        offsets[period(containing: instant - Self.cycles(instant) * Self.cycle)]
    }

    /// The offset in effect at `instant`, and the next instant at which it changes (`Int.max` if never).
    func offsetAndNextTransition(at instant: Int) -> (offset: Int, nextTransition: Int) {
        let shift = Self.cycles(instant) * Self.cycle
        let index = period(containing: instant - shift)
        return (offsets[index], index < transitions.count ? transitions[index] + shift : Int.max)
    }

    /// How a wall-clock time maps back to instants.
    enum Resolution: Equatable {
        /// The local time occurs once.
        case unique(Int)
        /// The local time occurs twice (the clock was set back); `first < second`.
        case repeated(first: Int, second: Int)
        /// The local time does not occur (the clock jumped over it); `transition` is the first instant after the gap.
        case skipped(transition: Int)

        /// The instant Chime fires at: the only occurrence, the first of two, or the first instant after a gap.
        var firingInstant: Int {
            switch self {
            case .unique(let instant), .repeated(let instant, _), .skipped(let instant): instant
            }
        }
    }

    /// The instants at which the zone's wall clock shows `local`.
    func resolve(local: Int) -> Resolution {
        let shift = Self.cycles(local) * Self.cycle
        guard shift == 0 else {
            switch resolve(local: local - shift) {
            case .unique(let instant): return .unique(instant + shift)
            case .repeated(let first, let second): return .repeated(first: first + shift, second: second + shift)
            case .skipped(let transition): return .skipped(transition: transition + shift)
            }
        }
        // The true instant lies within a day of `local - offset(at: local)`, and periods between
        // transitions last weeks or months, so the neighbouring periods hold every candidate.
        let guess = period(containing: local - offset(at: local))
        var first = Int.max
        var second = Int.max
        for index in max(0, guess - 2)...min(offsets.count - 1, guess + 2) {
            let instant = local - offsets[index]
            let start = index == 0 ? Int.min : transitions[index - 1]
            let end = index == transitions.count ? Int.max : transitions[index]
            guard instant >= start && instant < end else { continue }
            if instant < first {
                (first, second) = (instant, first)
            } else if instant != first && instant < second {
                second = instant
            }
        }
        if first != Int.max {
            return second == Int.max ? .unique(first) : .repeated(first: first, second: second)
        }
        for index in max(0, guess - 2)..<min(transitions.count, guess + 3) {
            let transition = transitions[index]
            if local >= transition + offsets[index] && local < transition + offsets[index + 1] {
                return .skipped(transition: transition)
            }
        }
        preconditionFailure("local time \(local) neither occurs nor falls in a gap of \(identifier)")
    }
}
