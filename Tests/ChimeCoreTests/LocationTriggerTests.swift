import ChimeCore
import Foundation
import Testing

@Suite("Location trigger")
struct LocationTriggerTests {
    @Test func keepsAValidRegion() throws {
        let office = try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150, identifier: "office", notifyOnExit: false)
        let trigger = LocationTrigger(region: office, repeats: true)
        #expect(trigger.region.notifyOnEntry && !trigger.region.notifyOnExit)
        #expect(try JSONDecoder().decode(LocationTrigger.self, from: JSONEncoder().encode(trigger)) == trigger)
    }

    @Test(arguments: [
        (91.0, 0.0, 10.0, "x", true, ChimeError.Code.invalidRegion),
        (0, -180.5, 10, "x", true, .invalidRegion),
        (0, 0, 0, "x", true, .invalidRegion),
        (0, 0, .nan, "x", true, .invalidRegion),
        (0, 0, 10, "", true, .invalidIdentifier),
        (0, 0, 10, "x", false, .invalidRegion),
    ])
    func rejectsInvalidRegions(latitude: Double, longitude: Double, radius: Double, identifier: String, notifies: Bool, code: ChimeError.Code) {
        #expect {
            _ = try CircularRegion(
                latitude: latitude, longitude: longitude, radius: radius, identifier: identifier,
                notifyOnEntry: notifies, notifyOnExit: notifies)
        } throws: { ($0 as? ChimeError)?.code == code }
    }
}
