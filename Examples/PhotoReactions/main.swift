import ExampleSupport
import Foundation
import UserNotifications

let options = PhotoReactions.parse(Array(CommandLine.arguments.dropFirst()))
let terminal = ExampleTerminal(appIdentifier: PhotoReactions.appIdentifier, appName: "Photos")
let appDelegate = AppDelegate(terminal: terminal)

if let last = LastSelection.load() {
    terminal.say("Your reaction last time: \(last.summary).")
} else {
    terminal.say("No reaction yet.")
}

do {
    guard try await appDelegate.didFinishLaunching() else {
        PhotoReactions.usage.failure("notifications are not allowed, so no photo can arrive")
    }
    if let previews = options.previews {
        try await terminal.setShowPreviews(previews)
    }
    try await PhotoReactions.schedule(after: options.delay)
} catch {
    PhotoReactions.usage.failure("the photo could not be scheduled: \(error.localizedDescription)")
}
terminal.say(options.delay > 0 ? "A photo arrives in \(options.delay.formatted()) s. Ctrl-D quits." : "A photo arrives now. Ctrl-D quits.")
await terminal.run()
