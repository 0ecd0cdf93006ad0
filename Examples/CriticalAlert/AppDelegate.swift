import ExampleSupport
import Foundation
import UserNotifications

/// The seed's health app (WWDC 2018 notes): provisional authorization first, so photos arrive quietly in
/// the list, grouped in one thread; then critical-alert authorization, and a low-glucose alert with a
/// critical sound at full volume, which alerts even through Do Not Disturb.
final class AppDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    static let photoCategory = "new-photo"
    static let glucoseCategory = "low-glucose-alert"

    let terminal: ExampleTerminal

    init(terminal: ExampleTerminal) {
        self.terminal = terminal
    }

    func didFinishLaunching() {
        let center = UNUserNotificationCenter.current()
        center.setNotificationCategories([
            UNNotificationCategory(
                identifier: Self.photoCategory, actions: [], intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: nil,
                categorySummaryFormat: "%u more photos from %@"),
            UNNotificationCategory(identifier: Self.glucoseCategory, actions: [], intentIdentifiers: [], options: [.customDismissAction]),
        ])
        center.delegate = self
        // Notifications arrive as for an app in the background: the system presents them.
        center.isApplicationInForeground = false
    }

    /// The seed's provisional request: granted at once, without asking; notifications arrive quietly.
    func requestProvisional() async throws -> Bool {
        try await UNUserNotificationCenter.current().requestAuthorization(options: [.badge, .sound, .alert, .provisional])
    }

    /// The seed's critical-alert request: this one asks the user.
    func requestCritical() async throws -> Bool {
        try await UNUserNotificationCenter.current().requestAuthorization(options: [.badge, .sound, .alert, .criticalAlert])
    }

    /// The seed's grouped notifications: three photos from Jane Doe in one thread.
    func sendPhotos() async throws {
        for number in 1...3 {
            let content = UNMutableNotificationContent()
            content.title = "New Photo"
            content.body = "Jane Doe Posted a new Photo"
            content.threadIdentifier = "thread-identifier"
            content.summaryArgument = "Jane Doe"
            content.categoryIdentifier = Self.photoCategory
            try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "photo-\(number)", content: content, trigger: nil))
        }
    }

    /// Waits (at most five seconds) until the photos are in the list: delivered while the app is still
    /// provisional, so they arrive quietly whatever the user answers next.
    func waitForPhotos() async {
        for _ in 0..<100 {
            let delivered = await UNUserNotificationCenter.current().deliveredNotifications()
            if delivered.filter({ $0.request.identifier.hasPrefix("photo-") }).count == 3 { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The seed's low-glucose alert with its custom critical sound at volume 1.0.
    func sendLowGlucoseAlert() async throws {
        let content = UNMutableNotificationContent()
        content.title = "WARNING: LOW BLOOD SUGAR"
        content.body = "Glucose level at 57"
        content.categoryIdentifier = Self.glucoseCategory
        content.sound = .criticalSoundNamed(UNNotificationSoundName("warning-sound"), withAudioVolume: 1.0)
        try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "low-glucose", content: content, trigger: nil))
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        guard response.notification.request.content.categoryIdentifier == Self.glucoseCategory else { return }
        switch response.actionIdentifier {
        case UNNotificationDefaultActionIdentifier:
            terminal.say("Opening the glucose log: 57 mg/dL.")
        case UNNotificationDismissActionIdentifier:
            terminal.say("Alert dismissed. The app checks again in 15 minutes.")
        default:
            return
        }
        terminal.finish()
    }
}
