import ExampleSupport
import Foundation
import UserNotifications

let usage = CommandLineUsage(
    name: "critical-alert",
    text: """
        critical-alert — provisional authorization, grouped notifications and a critical alert, from the
        iOS notes, in a terminal

        Usage:
          critical-alert

        Asks for provisional authorization (granted without a question), so three photos from Jane Doe
        arrive quietly, grouped in one thread. Then asks you for critical alerts; allowed, a low-glucose
        alert arrives with a critical sound at full volume (three bells). Open it with o or dismiss it with
        d. Ctrl-D quits.

        """)

usage.handleHelp(Array(CommandLine.arguments.dropFirst()))
guard CommandLine.arguments.count == 1 else { usage.fail("unexpected \(CommandLine.arguments[1])") }

let terminal = ExampleTerminal(appIdentifier: "com.example.health", appName: "Health")
let appDelegate = AppDelegate(terminal: terminal)
appDelegate.didFinishLaunching()
do {
    if try await appDelegate.requestProvisional() {
        terminal.say("Provisional authorization: notifications arrive quietly, in the list only.")
        try await appDelegate.sendPhotos()
        await appDelegate.waitForPhotos()
    }
    terminal.say("Now the app asks for critical alerts.")
    guard try await appDelegate.requestCritical() else {
        usage.failure("critical alerts are not allowed, so the low-glucose alert is not sent")
    }
    try await appDelegate.sendLowGlucoseAlert()
} catch {
    usage.failure("a notification could not be sent: \(error.localizedDescription)")
}
await terminal.run()
