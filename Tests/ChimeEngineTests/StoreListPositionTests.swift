import ChimeEngine
import Foundation
import Testing

/// Positions travel as cursors (an HTTP API hands them out and takes them back), and a page starts
/// exactly after its position: a date that came back one step off would skip or repeat requests.
@Suite("Store list positions")
struct StoreListPositionTests {
    static let date = Date(timeIntervalSince1970: 1_764_547_200.123_456)  // 2025-12-01T00:00:00.123456Z

    @Test(arguments: [date, Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp), nil])
    func aPendingPositionRoundTripsThroughJSONExactly(nextFireDate: Date?) throws {
        let position = PendingListPosition(nextFireDate: nextFireDate, appIdentifier: "com.example.app", requestIdentifier: "alarm 🔔")
        let decoded = try JSONDecoder().decode(PendingListPosition.self, from: JSONEncoder().encode(position))
        #expect(decoded == position)
        #expect(decoded.nextFireDate?.timeIntervalSinceReferenceDate.bitPattern == nextFireDate?.timeIntervalSinceReferenceDate.bitPattern)
    }

    @Test func aDeliveredPositionRoundTripsThroughJSON() throws {
        let position = DeliveredListPosition(appIdentifier: "com.example.app", sequence: Int64.max)
        #expect(try JSONDecoder().decode(DeliveredListPosition.self, from: JSONEncoder().encode(position)) == position)
    }
}
