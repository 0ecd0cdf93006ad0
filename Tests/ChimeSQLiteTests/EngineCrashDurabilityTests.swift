import ChimeCore
import ChimeEngine
import ChimeSQLite
import ChimeTestSupport
import ChimeTesting
import Foundation
import Synchronization
import Testing

/// Kills a process with SIGKILL in the middle of a burst of adds and deliveries, then checks the store
/// it left: every add that had returned is there, every notification shown is recorded as delivered,
/// nothing is half-written, and a new engine delivers the rest without alerting anything twice.
@Suite("Engine on SQLite: durability")
struct EngineCrashDurabilityTests {
    @Test func acknowledgedAddsAndRecordedDeliveriesSurviveSIGKILL() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("chime-crash-probe")
        let probe = try ChildProcess(executable.path, [path, "50000"], name: "chime-crash-probe")
        // The kill comes from a thread of its own, not from the test's tasks: with the whole suite running,
        // the shared pool can be busy for tens of seconds, long enough for the probe to finish its burst.
        let midBurst = Mutex<Bool?>(nil)
        let killer = Thread {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline && !probe.output.hasEnded {
                let lines = probe.output.lines
                if lines.count(where: { $0.hasPrefix("added ") }) >= 2000 && lines.count(where: { $0.hasPrefix("shown ") }) >= 200 {
                    probe.signal(SIGKILL)
                    midBurst.withLock { $0 = true }
                    return
                }
                usleep(2_000)
            }
            probe.signal(SIGKILL)
            midBurst.withLock { $0 = false }
        }
        killer.start()
        try await eventually("the probe killed", within: 180) { midBurst.withLock { $0 } != nil }
        let reachedMidBurst = midBurst.withLock { $0 } == true
        let termination = await probe.termination()
        let lines = try await probe.output.allLines(within: 30)
        #expect(reachedMidBurst, "the probe stopped before the burst was under way")
        #expect(termination == .signaled(SIGKILL))
        #expect(!lines.contains("done"), "the burst finished before the kill; nothing was tested mid-burst")
        let whole = probe.output.wholeLines

        let acknowledged = Set(whole.filter { $0.hasPrefix("added ") }.map { String($0.dropFirst(6)) })
        let shownBefore = Set(whole.filter { $0.hasPrefix("shown ") }.map { String($0.dropFirst(6)) })

        // Nothing half-written: SQLite's own check, on the file as the killed process left it.
        let check = try SQLiteConnection(path: path, flags: [.readWrite])
        #expect(try check.query("PRAGMA integrity_check") == [[.text("ok")]])

        let store = try await SQLiteNotificationStore(path: path)
        let pending = Set(try await store.pendingRequests(appIdentifier: "probe").map(\.request.identifier))
        let delivered = Set(try await store.deliveredNotifications(appIdentifier: "probe").map(\.identifier))
        #expect(pending.isDisjoint(with: delivered))
        #expect(acknowledged.subtracting(pending.union(delivered)).isEmpty, "acknowledged adds were lost")
        #expect(shownBefore.isSubset(of: delivered), "a notification was shown without being recorded")

        // Recorded before the kill but not shown: fires recorded ahead of their instants, left to the next
        // process by the presentation journal.
        let unshown = delivered.subtracting(shownBefore)

        // A new engine, a day later: everything still pending fires once, and so does what was recorded but
        // not shown; nothing shown before alerts again.
        let presenter = RecordingPresenter()
        var configuration = EngineConfiguration()
        configuration.presentationJournal = URL(fileURLWithPath: path + "-presented")
        let engine = NotificationEngine(
            store: store, clock: ManualClock(now: Date().addingTimeInterval(86_400)), presenter: presenter, log: SilentLog(),
            configuration: configuration)
        await engine.start()
        // Only a kill between a fire's settle line and the presenter loses its banner: at most one fire per
        // task that shows (the driver and the presenting task).
        let lostAtMost = 2
        try await eventually("the rest shown", within: 60) {
            presenter.presentations.count >= pending.count + unshown.count - lostAtMost
        }
        try await Task.sleep(for: .milliseconds(300))
        await engine.stop()
        let shownAfter = presenter.presentations.map(\.notificationIdentifier)
        #expect(Set(shownAfter).count == shownAfter.count, "a notification was shown twice after the restart")
        #expect(pending.isSubset(of: Set(shownAfter)))
        #expect(Set(shownAfter).isSubset(of: pending.union(unshown)))
        #expect(Set(shownAfter).isDisjoint(with: shownBefore))
        let neverShown = unshown.subtracting(shownAfter)
        #expect(neverShown.count <= lostAtMost, "recorded but never shown: \(neverShown.sorted())")
        #expect(try await store.pendingRequests(appIdentifier: "probe").isEmpty)
        print("crash test: \(acknowledged.count) adds acknowledged and \(shownBefore.count) shown before SIGKILL; \(pending.count) still pending and \(unshown.count) recorded but not shown, shown once after restart (\(neverShown.count) never shown)")
        await store.close()
    }
}
