import CoreLocation
import Foundation
import UserNotifications

/// A geofenced reminder, as iOS code sets one: a `CLCircularRegion` around the place, and a
/// `UNLocationNotificationTrigger` that fires when the device arrives (or leaves).
enum Geofence {
    static let appIdentifier = "com.example.geofence"
    static let requestIdentifier = "office-reminder"

    /// Whether the app may notify, asking the user the first time.
    static func authorizeIfNeeded() async throws -> Bool {
        let center = UNUserNotificationCenter.current()
        switch await center.notificationSettings().authorizationStatus {
        case .authorized, .provisional, .ephemeral: return true
        case .notDetermined: return try await center.requestAuthorization(options: [.alert, .sound])
        case .denied: return false
        }
    }

    static func remind(at place: CLLocationCoordinate2D, radius: CLLocationDistance, onExit: Bool) async throws {
        let content = UNMutableNotificationContent()
        content.title = onExit ? "Leaving the office" : "Welcome to the office"
        content.body = onExit ? "Don't forget your umbrella." : "Check in at the front desk."
        content.sound = .default

        let region = CLCircularRegion(center: place, radius: radius, identifier: "office")
        region.notifyOnEntry = !onExit
        region.notifyOnExit = onExit
        let trigger = UNLocationNotificationTrigger(region: region, repeats: false)
        try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: requestIdentifier, content: content, trigger: trigger))
    }
}
