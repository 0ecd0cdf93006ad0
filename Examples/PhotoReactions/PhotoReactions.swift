import ExampleSupport
import Foundation
import UserNotifications

enum PhotoReactions {
    static let appIdentifier = "com.example.photoreactions"

    static let usage = CommandLineUsage(
        name: "photo-reactions",
        text: """
            photo-reactions — the actionable photo notification of the iOS lesson, in a terminal

            Usage:
              photo-reactions [--in DELAY] [--previews always|never|when-unlocked]

            Asks to send notifications, then a photo arrives after DELAY (default 5s) with Like, Dislike,
            Unfollow (destructive, needs an unlocked session) and Setting (opens the app). Type a number to
            react, d to dismiss (the app hears it), o to open it. The app remembers your reaction and shows it
            the next time it starts. Ctrl-D quits.

            --previews sets the app's show-previews setting as the user would in Settings: with `never`, the
            notification shows its title (the category asks for it) and "Notification" instead of its text.

            """)

    struct Options {
        var delay: TimeInterval = 5
        var previews: UNShowPreviewsSetting?
    }

    static func parse(_ arguments: [String]) -> Options {
        usage.handleHelp(arguments)
        var arguments = arguments
        var options = Options()
        if let delay = usage.value(of: "--in", in: &arguments) {
            options.delay = usage.seconds(delay, option: "--in")
        }
        if let previews = usage.value(of: "--previews", in: &arguments) {
            switch previews {
            case "always": options.previews = .always
            case "never": options.previews = .never
            case "when-unlocked": options.previews = .whenAuthenticated
            default: usage.fail("--previews takes always, never or when-unlocked, not '\(previews)'")
            }
        }
        guard arguments.isEmpty else { usage.fail("unexpected \(arguments[0])") }
        return options
    }

    /// The seed's `schedule(_:)`: "Hello / Shared some photo" with the image attached, after `delay`.
    static func schedule(after delay: TimeInterval) async throws {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.body = "Shared some photo"
        content.sound = UNNotificationSound.default
        content.categoryIdentifier = CategoryIdentifier.imagePosting

        // The center moves an attachment's file into its store, as iOS does: attach a copy of the
        // bundled image.
        guard let bundled = Bundle.module.url(forResource: "hello", withExtension: "png") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString).png")
        try FileManager.default.copyItem(at: bundled, to: copy)
        let imageAttachment = try UNNotificationAttachment(identifier: "logo-image", url: copy, options: nil)
        content.attachments = [imageAttachment]

        let trigger = delay > 0 ? UNTimeIntervalNotificationTrigger(timeInterval: delay, repeats: false) : nil
        let request = UNNotificationRequest(identifier: "Image Attachment", content: content, trigger: trigger)
        try await UNUserNotificationCenter.current().add(request)
    }
}
