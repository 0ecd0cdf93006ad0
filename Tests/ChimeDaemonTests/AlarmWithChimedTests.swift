import ChimeClient
import ChimeCore
import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

/// The alarm example on chimed: the daemon rings it, and Snooze reaches the app whether it runs or not —
/// when it does not, chimed launches `alarm run` to handle it.
@Suite("Examples on chimed: the alarm")
struct AlarmWithChimedTests {
    struct StoredAlarm: Decodable {
        var date: Date
        var notificationId: String
    }

    static var alarmExecutable: String {
        URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("alarm").path
    }

    func storedAlarm(_ home: DaemonHome) throws -> StoredAlarm {
        let file = home.root.appendingPathComponent("data/com.example.alarm/ScheduledAlarm.json")
        return try JSONDecoder().decode(StoredAlarm.self, from: Data(contentsOf: file))
    }

    /// The identifier of the next alarm chimed presents, from its log. (The file would not do: the running
    /// app forgets its alarm as soon as it rings, which may be before the test reads it.)
    func nextPresentedAlarm(_ daemon: RunningDaemon) async throws -> String {
        let marker = "chimed: info: presented com.example.alarm/"
        let line = try await daemon.log.take("an alarm presented") { $0.contains(marker) }
        return String(line[line.range(of: marker)!.upperBound...].prefix { $0 != " " })
    }

    @Test func snoozeReachesTheRunningAlarmAndLaunchesItWhenItIsNotRunning() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let cli = try await home.connect()
        defer { cli.close() }

        // Running: the app sets the alarm through chimed, which rings it; the user snoozes on the desktop.
        let running = try ChildProcess(Self.alarmExecutable, ["set", "--in", "1s"], environment: home.environment, name: "alarm")
        _ = try await running.output.take("set") { $0.hasPrefix("Alarm set for ") && $0.contains("chimed rings it") }
        let first = try await nextPresentedAlarm(daemon)
        let before = Date()
        let answered = try await cli.respond(app: "com.example.alarm", notification: first, action: .action("snooze"))
        #expect(answered.deliveredToApp)
        _ = try await running.output.take("snoozed") { $0.hasPrefix("Snoozed: the alarm rings again at ") }
        let snoozed = try storedAlarm(home)
        #expect(snoozed.date >= before.addingTimeInterval(9 * 60 - 1) && snoozed.date <= Date().addingTimeInterval(9 * 60 + 1))
        running.closeInput()
        #expect(await running.exitStatus() == 0)

        // Not running: the alarm rings with no app; Snooze is queued and chimed launches `alarm run`,
        // which receives it and sets the alarm nine minutes later.
        let setter = try ChildProcess(Self.alarmExecutable, ["set", "--in", "1s"], environment: home.environment, name: "alarm")
        _ = try await setter.output.take("set") { $0.hasPrefix("Alarm set for ") }
        setter.closeInput()
        #expect(await setter.exitStatus() == 0)
        let second = try await nextPresentedAlarm(daemon)
        let queued = try await cli.respond(app: "com.example.alarm", notification: second, action: .action("snooze"))
        #expect(!queued.deliveredToApp && queued.queued)
        try await eventually("the launched alarm to snooze", within: 20) {
            guard let stored = try? storedAlarm(home) else { return false }
            return stored.notificationId != second && stored.date > Date().addingTimeInterval(8 * 60)
        }
        let relaunched = try storedAlarm(home)
        try await eventually("the snoozed alarm to be pending") {
            try await cli.pendingRequests(app: "com.example.alarm").contains { $0.request.identifier == relaunched.notificationId }
        }
        #expect(await daemon.terminate() == 0)
    }
}
