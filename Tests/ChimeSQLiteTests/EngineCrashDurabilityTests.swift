import ChimeCore
import ChimeEngine
import ChimeSQLite
import ChimeTesting
import Foundation
import Testing

/// Kills a process with SIGKILL in the middle of a burst of adds and deliveries, then checks the store
/// it left: every add that had returned is there, every notification shown is recorded as delivered,
/// nothing is half-written, and a new engine delivers the rest without alerting anything twice.
@Suite("Engine on SQLite: durability")
struct EngineCrashDurabilityTests {
    /// The child's lines so far, read as they arrive.
    final class LineReader {
        let handle: FileHandle
        var lines: [String] = []
        private var partial = Data()

        init(_ handle: FileHandle) { self.handle = handle }

        /// Reads until `condition` holds or the stream ends; returns whether it held.
        func read(until condition: ([String]) -> Bool) -> Bool {
            while !condition(lines) {
                let data = handle.availableData
                if data.isEmpty { return false }
                partial.append(data)
                while let newline = partial.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                    partial = Data(partial[(newline + 1)...])
                }
            }
            return true
        }
    }

    @Test func acknowledgedAddsAndRecordedDeliveriesSurviveSIGKILL() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chime.sqlite")
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("chime-crash-probe")
        probe.arguments = [path, "50000"]
        let output = Pipe()
        probe.standardOutput = output
        try probe.run()

        let reader = LineReader(output.fileHandleForReading)
        let reachedMidBurst = reader.read { lines in
            lines.count(where: { $0.hasPrefix("added ") }) >= 2000 && lines.count(where: { $0.hasPrefix("shown ") }) >= 200
        }
        kill(probe.processIdentifier, SIGKILL)
        probe.waitUntilExit()
        _ = reader.read { _ in false }  // whatever it printed before dying
        #expect(reachedMidBurst, "the probe stopped before the burst was under way")
        #expect(probe.terminationReason == .uncaughtSignal)
        #expect(!reader.lines.contains("done"), "the burst finished before the kill; nothing was tested mid-burst")

        let acknowledged = Set(reader.lines.filter { $0.hasPrefix("added ") }.map { String($0.dropFirst(6)) })
        let shownBefore = Set(reader.lines.filter { $0.hasPrefix("shown ") }.map { String($0.dropFirst(6)) })

        // Nothing half-written: SQLite's own check, on the file as the killed process left it.
        let check = try SQLiteConnection(path: path, flags: [.readWrite])
        #expect(try check.query("PRAGMA integrity_check") == [[.text("ok")]])

        let store = try await SQLiteNotificationStore(path: path)
        let pending = Set(try await store.pendingRequests(appIdentifier: "probe").map(\.request.identifier))
        let delivered = Set(try await store.deliveredNotifications(appIdentifier: "probe").map(\.identifier))
        #expect(pending.isDisjoint(with: delivered))
        #expect(acknowledged.subtracting(pending.union(delivered)).isEmpty, "acknowledged adds were lost")
        #expect(shownBefore.isSubset(of: delivered), "a notification was shown without being recorded")

        // A new engine, a day later: everything still pending fires once; nothing shown before alerts again.
        let presenter = RecordingPresenter()
        let engine = NotificationEngine(
            store: store, clock: ManualClock(now: Date().addingTimeInterval(86_400)), presenter: presenter, log: SilentLog())
        await engine.start()
        var shownAfter: [String] = []
        for _ in 0..<pending.count {
            shownAfter.append(await presenter.nextPresentation().notificationIdentifier)
        }
        await engine.stop()
        #expect(Set(shownAfter) == pending)
        #expect(shownAfter.count == pending.count)
        #expect(Set(shownAfter).isDisjoint(with: shownBefore))
        #expect(try await store.pendingRequests(appIdentifier: "probe").isEmpty)
        print("crash test: \(acknowledged.count) adds acknowledged and \(shownBefore.count) shown before SIGKILL; \(pending.count) still pending, delivered once after restart")
        await store.close()
    }
}
