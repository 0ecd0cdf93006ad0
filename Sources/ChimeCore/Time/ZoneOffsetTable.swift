internal import Foundation
import Synchronization

/// The UTC offsets of one time zone, as a sorted table of the instants where the offset changes.
///
/// Built once per zone from Foundation's `TimeZone` (so it agrees with `Calendar` by construction) and
/// then answered by binary search without locks or allocation. The table covers 1900 through 2199;
/// callers fall back to Foundation outside `coverage`.
///
/// Instants and local times are whole seconds: an instant counts from 1970-01-01T00:00:00Z, a local time
/// counts the same way on the zone's wall clock (instant + offset).
final class ZoneOffsetTable: Sendable {
    /// Instants that the table answers for.
    static let coverage = -2_208_988_800..<7_258_118_400  // 1900-01-01Z ..< 2200-01-01Z

    let identifier: String
    /// Instants where the offset changes, ascending.
    private let transitions: [Int]
    /// `offsets[i]` is the offset before `transitions[i]` and from `transitions[i - 1]` on;
    /// `offsets.count == transitions.count + 1`.
    private let offsets: [Int]

    init(timeZone: TimeZone) {
        identifier = timeZone.identifier
        var transitions: [Int] = []
        var offsets = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.coverage.lowerBound)))]
        var cursor = Date(timeIntervalSince1970: Double(Self.coverage.lowerBound))
        let end = Date(timeIntervalSince1970: Double(Self.coverage.upperBound))
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
        offsets[period(containing: instant)]
    }

    /// The offset in effect at `instant`, and the next instant at which it changes (`Int.max` if never).
    func offsetAndNextTransition(at instant: Int) -> (offset: Int, nextTransition: Int) {
        let index = period(containing: instant)
        return (offsets[index], index < transitions.count ? transitions[index] : Int.max)
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
