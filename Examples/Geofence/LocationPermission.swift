import CoreLocation
import Foundation

/// Asks for location permission as an iOS app does before it sets a location trigger: a
/// `CLLocationManager` whose delegate hears the answer.
final class LocationPermission: NSObject, CLLocationManagerDelegate, @unchecked Sendable {  // used on the main queue only
    private let manager = CLLocationManager()
    private var answer: CheckedContinuation<Bool, Never>?

    /// Whether the app may use location, asking the user (through GeoClue) the first time.
    @MainActor
    func request() async -> Bool {
        switch manager.authorizationStatus {
        case .authorizedWhenInUse, .authorizedAlways: return true
        case .denied, .restricted: return false
        case .notDetermined:
            return await withCheckedContinuation { continuation in
                answer = continuation
                manager.delegate = self
                manager.requestWhenInUseAuthorization()
            }
        }
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        switch manager.authorizationStatus {
        case .notDetermined: return  // the first call, when the manager is made
        case .authorizedWhenInUse, .authorizedAlways: finish(true)
        case .denied, .restricted: finish(false)
        }
    }

    private func finish(_ allowed: Bool) {
        answer?.resume(returning: allowed)
        answer = nil
    }
}
