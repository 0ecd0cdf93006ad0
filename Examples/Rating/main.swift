import ExampleSupport
import Foundation
import UserNotifications

let usage = CommandLineUsage(
    name: "rating",
    text: """
        rating — the rating notification of the iOS notes (a content extension with dynamic actions), in a
        terminal

        Usage:
          rating [--in DELAY]

        Asks to send notifications, then after DELAY (default 1s) asks how your order was, with Rate, Open
        App and Not Now. Rate turns the buttons into ★ ★★ ★★★; a star thanks you and removes the buttons
        (the notification stays until you close it with d, or open it with o). Open App opens the app from
        the notification; Not Now dismisses it. Ctrl-D quits.

        """)

let arguments = Array(CommandLine.arguments.dropFirst())
usage.handleHelp(arguments)
var remaining = arguments
let delay = usage.value(of: "--in", in: &remaining).map { usage.seconds($0, option: "--in") } ?? 1
guard remaining.isEmpty else { usage.fail("unexpected \(remaining[0])") }

let terminal = ExampleTerminal(appIdentifier: Rating.appIdentifier, appName: "Orders")
let appDelegate = AppDelegate(terminal: terminal)
do {
    guard try await appDelegate.didFinishLaunching() else {
        usage.failure("notifications are not allowed, so no rating request can arrive")
    }
    try await appDelegate.scheduleRatingRequest(after: delay)
} catch {
    usage.failure("the rating request could not be scheduled: \(error.localizedDescription)")
}
terminal.say("A rating request arrives \(delay > 0 ? "in \(delay.formatted()) s" : "now"). Ctrl-D quits.")
await terminal.run()
