import CoreLocation
import Foundation
import Testing

/// CoreLocation's values as Apple documents them: coordinate validity, distances along the Earth, a
/// circle's containment, and regions copied with their flags.
@Suite("CoreLocation")
struct CoreLocationTests {
    @Test func coordinatesAreValidOnTheGlobeOnly() {
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.978)))
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2DMake(-90, 180)))
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
        #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90.5, longitude: 0)))
        #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
        #expect(CLLocationCoordinate2D() == CLLocationCoordinate2D(latitude: 0, longitude: 0))
    }

    /// Seoul City Hall to Busan City Hall: 324.9 km along the WGS 84 ellipsoid (GeographicLib: 324,865.897 m).
    @Test func distancesFollowTheEarth() {
        let seoul = CLLocation(latitude: 37.5665, longitude: 126.978)
        let busan = CLLocation(latitude: 35.1798, longitude: 129.0750)
        #expect(abs(seoul.distance(from: busan) - 324_865.897) < 0.001)
        #expect(seoul.distance(from: busan) == busan.distance(from: seoul))
        #expect(seoul.distance(from: seoul) == 0)
        #expect(seoul.horizontalAccuracy == 0 && seoul.verticalAccuracy < 0, "Apple's latitude/longitude initializer")
    }

    @Test func aCircleContainsWhatLiesWithinItsRadius() {
        let office = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), radius: 150, identifier: "office")
        // 0.001° of latitude at the equator is 110.57 m; 0.0014° is 154.8 m.
        #expect(office.contains(CLLocationCoordinate2D(latitude: 0.001, longitude: 0)))
        #expect(!office.contains(CLLocationCoordinate2D(latitude: 0.0014, longitude: 0)))
        #expect(office.contains(office.center))
        #expect(office.notifyOnEntry && office.notifyOnExit, "both start true")
    }

    @Test func aCopyKeepsTheFlagsAndIsEqual() throws {
        let office = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.978), radius: 150, identifier: "office")
        office.notifyOnExit = false
        let copy = try #require(office.copy() as? CLCircularRegion)
        #expect(copy !== office && copy == office)
        #expect(copy.notifyOnEntry && !copy.notifyOnExit)
        copy.notifyOnEntry = false
        #expect(office.notifyOnEntry, "the copy is its own")
        #expect(office != CLCircularRegion(center: office.center, radius: 151, identifier: "office"))
    }

    /// A new manager tells its delegate the status once, on the main queue: through
    /// `locationManagerDidChangeAuthorization` where the delegate has it, else through the older method,
    /// never through both.
    @Test @MainActor func theDelegateHearsEachChangeOnce() async {
        let both = BothCallbacks(), older = OlderCallbackOnly()
        let first = CLLocationManager(), second = CLLocationManager()
        first.delegate = both
        second.delegate = older
        // Queued after the managers' own calls on the main queue: when it runs, theirs have.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { done.resume() } }
        #expect(both.calls == ["didChangeAuthorization"], "the iOS 14 method only")
        #expect(older.calls == ["didChangeAuthorization status: \(CLAuthorizationStatus.notDetermined)"], "the older method, once")
    }
}

private final class BothCallbacks: CLLocationManagerDelegate, @unchecked Sendable {
    var calls: [String] = []
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { calls.append("didChangeAuthorization") }
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) { calls.append("older") }
}

private final class OlderCallbackOnly: CLLocationManagerDelegate, @unchecked Sendable {
    var calls: [String] = []
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        calls.append("didChangeAuthorization status: \(status)")
    }
}
