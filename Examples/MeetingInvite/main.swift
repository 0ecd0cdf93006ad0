import ExampleSupport
import Foundation
import UserNotifications

let usage = CommandLineUsage(
    name: "meeting-invite",
    text: """
        meeting-invite — the meeting invitation of the iOS notes, with a typed reply, in a terminal

        Usage:
          meeting-invite [--in DELAY]

        Asks to send notifications, then an invitation arrives after DELAY (default 1s) with Accept,
        Decline, and Decline with reason, which asks you to type why. The app says what it received.
        Ctrl-D quits.

        """)

let arguments = Array(CommandLine.arguments.dropFirst())
usage.handleHelp(arguments)
var remaining = arguments
let delay = usage.value(of: "--in", in: &remaining).map { usage.seconds($0, option: "--in") } ?? 1
guard remaining.isEmpty else { usage.fail("unexpected \(remaining[0])") }

let terminal = ExampleTerminal(appIdentifier: "com.example.meetings", appName: "Meetings")
let appDelegate = AppDelegate(terminal: terminal)
do {
    guard try await appDelegate.didFinishLaunching() else {
        usage.failure("notifications are not allowed, so no invitation can arrive")
    }
    try await Invitation.schedule(after: delay)
} catch {
    usage.failure("the invitation could not be scheduled: \(error.localizedDescription)")
}
terminal.say("An invitation arrives \(delay > 0 ? "in \(delay.formatted()) s" : "now"). Ctrl-D quits.")
await terminal.run()
