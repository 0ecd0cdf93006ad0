import Foundation
import Testing

@testable import ChimeCore

@Suite("Zone offset table")
struct ZoneOffsetTableTests {
    @Test(arguments: oracleZones)
    func agreesWithTimeZoneEveryNinetyMinutes(zone identifier: String) {
        let zone = TimeZone(identifier: identifier)!
        let table = ZoneOffsetTable.table(for: zone)
        // 2015-01-01Z to 2035-01-01Z, on a step that is not a divisor of an hour or a day.
        var mismatches: [Int] = []
        for instant in stride(from: 1_420_070_400, to: 2_051_222_400, by: 5_413) {
            if table.offset(at: instant) != zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))) {
                mismatches.append(instant)
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(3))")
    }

    @Test func resolvesWallClockTimesAroundNewYorksChanges() {
        let table = ZoneOffsetTable.table(for: TimeZone(identifier: "America/New_York")!)
        // Local seconds are the wall clock read as if it were UTC.
        let springGap = 1_741_487_400  // 2025-03-09 02:30 on the wall
        let fallRepeat = 1_762_047_000  // 2025-11-02 01:30 on the wall
        let ordinary = 1_764_577_800  // 2025-12-01 08:30 on the wall
        #expect(table.resolve(local: springGap) == .skipped(transition: 1_741_503_600))  // 03:00 EDT
        #expect(table.resolve(local: fallRepeat) == .repeated(first: 1_762_061_400, second: 1_762_065_000))
        #expect(table.resolve(local: ordinary) == .unique(1_764_595_800))
    }
}
