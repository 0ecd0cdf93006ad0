import ExampleSupport
import Foundation
import UserNotifications

let command = AlarmCommand.parse(Array(CommandLine.arguments.dropFirst()))
// With chimed, a Snooze chosen while alarm is not running launches `alarm run` to handle it.
let terminal = ExampleTerminal(appIdentifier: Alarm.appIdentifier, appName: "Alarm", launchArguments: ["run"])
let whereItRings =
    terminal.usesDaemon
    ? "chimed rings it on the desktop, whether or not alarm runs; Ctrl-D quits."
    : "It rings here; Ctrl-D quits and keeps it set."

let appDelegate = AppDelegate(terminal: terminal)
appDelegate.didFinishLaunching()

switch command {
case .set(let time):
    if let previous = Alarm.scheduled { await previous.unschedule() }
    let date: Date
    do {
        guard try await Alarm.authorizeIfNeeded() else {
            AlarmCommand.usage.failure("notifications are not allowed, so the alarm cannot ring")
        }
        date = time.date(after: Date())
        guard try await Alarm(date: date).schedule() else {
            AlarmCommand.usage.failure("notifications are not allowed, so the alarm cannot ring")
        }
    } catch {
        AlarmCommand.usage.failure("the alarm could not be set: \(error.localizedDescription)")
    }
    terminal.say("Alarm set for \(AlarmFormat.dateAndTime(date)). \(whereItRings)")
    await terminal.run()

case .run:
    if let alarm = Alarm.scheduled {
        terminal.say("Alarm set for \(AlarmFormat.dateAndTime(alarm.date)). \(whereItRings)")
    } else {
        terminal.say("No alarm is set. Waiting for notifications still due; Ctrl-D quits.")
    }
    await terminal.run()

case .status(let json):
    let pending = await UNUserNotificationCenter.current().pendingNotificationRequests().map(\.identifier)
    let alarm = Alarm.scheduled
    let isPending = alarm.map { pending.contains($0.notificationId) } ?? false
    if json {
        let status = AlarmStatus(
            set: alarm != nil, date: alarm.map { AlarmFormat.iso8601($0.date) }, identifier: alarm?.notificationId,
            pending: alarm.map { _ in isPending })
        print(status.json)
    } else if let alarm {
        print("Alarm set for \(AlarmFormat.dateAndTime(alarm.date))" + (isPending ? "." : " (it has rung)."))
    } else {
        print("No alarm is set.")
    }

case .remove:
    if let alarm = Alarm.scheduled {
        await alarm.unschedule()
        print("Alarm for \(AlarmFormat.dateAndTime(alarm.date)) removed.")
    } else {
        print("No alarm is set.")
    }
}
