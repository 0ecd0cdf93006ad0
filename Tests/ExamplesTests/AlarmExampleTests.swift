import Foundation
import Testing

/// `alarm` (seed 003) run as a user would: set it, let it ring, snooze it, look at it, remove it.
@Suite("Examples: alarm")
struct AlarmExampleTests {
    struct StoredAlarm: Decodable {
        var date: Date
        var notificationId: String
    }

    struct Status: Decodable {
        var set: Bool
        var date: String?
        var pending: Bool?
    }

    @Test func theAlarmRingsAndSnoozeSetsItAgainNineMinutesLater() async throws {
        let data = try DataFolder()
        let alarm = try ExampleRun("alarm", ["set", "--in", "2s"], data: data)
        try await alarm.expect("Allow “Alarm” to send notifications? [y/n] ")
        alarm.type("y")
        try await alarm.expect("Alarm set for ")
        let ringing = try await alarm.expect("Choice: ")
        #expect(ringing.contains("\u{7}\n[Alarm] "))  // with its sound: the bell
        #expect(ringing.contains("  Alarm\n  Beep Beep\n  1) Snooze\n  o) open   d) dismiss   Enter) later\n"))

        let before = Date()
        alarm.type("1")
        try await alarm.expect("→ “Snooze” chosen.")
        try await alarm.expect("Snoozed: the alarm rings again at ")
        let after = Date()
        let stored = try JSONDecoder().decode(
            StoredAlarm.self, from: Data(contentsOf: data.file("ScheduledAlarm.json", app: "com.example.alarm")))
        #expect(stored.date >= before.addingTimeInterval(9 * 60) && stored.date <= after.addingTimeInterval(9 * 60))
        alarm.endInput()
        #expect(try await alarm.exit() == 0)

        // After the app quit, the snoozed alarm is still set and its notification pending.
        let status = try await ExampleRun.capture("alarm", ["status", "--json"], data: data)
        #expect(status.status == 0)
        let decoded = try JSONDecoder().decode(Status.self, from: Data(status.output.utf8))
        #expect(decoded.set && decoded.pending == true)
        let snoozed = try #require(decoded.date.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(abs(snoozed.timeIntervalSince(stored.date)) < 1)
    }

    @Test func anAlarmForAClockTimeIsListedAndRemoved() async throws {
        let data = try DataFolder()
        let alarm = try ExampleRun("alarm", ["set", "07:30"], data: data)
        try await alarm.expect("[y/n] ")
        alarm.type("y")
        let set = try await alarm.expect("Ctrl-D quits and keeps it set.")
        #expect(set.contains("07:30:00"))
        alarm.endInput()
        #expect(try await alarm.exit() == 0)

        let status = try await ExampleRun.capture("alarm", ["status"], data: data)
        #expect(status.output.hasPrefix("Alarm set for ") && status.output.contains(" 07:30:00."))
        let removed = try await ExampleRun.capture("alarm", ["remove"], data: data)
        #expect(removed.status == 0 && removed.output.contains("removed"))
        #expect(try await ExampleRun.capture("alarm", ["status"], data: data).output == "No alarm is set.\n")
        #expect(!FileManager.default.fileExists(atPath: data.file("ScheduledAlarm.json", app: "com.example.alarm").path))
    }

    @Test func aTimeThatIsNotOneIsAUsageError() async throws {
        let data = try DataFolder()
        let result = try await ExampleRun.capture("alarm", ["set", "25:00"], data: data)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("alarm: error: '25:00' is not a time of day such as 07:30"))
        #expect(try await ExampleRun.capture("alarm", ["--help"], data: data).output.contains("alarm set HH:MM"))
    }
}
