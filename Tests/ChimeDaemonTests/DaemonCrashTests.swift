import ChimeClient
import ChimeCore
import ChimeEngine
import ChimeAPI
import ChimeSQLite
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

/// `kill -9` of chimed in the middle of a burst of adds and deliveries, then a restart: every add the
/// client was told succeeded is still pending or delivered, and nothing shown before alerts again.
@Suite("chimed: durability")
struct DaemonCrashTests {
    static let app = "com.example.burst"

    /// The adds the daemon said were done, from several tasks.
    final class Acknowledged: Sendable {
        let ids = Mutex<Set<String>>([])
    }

    /// The identifiers of notifications a daemon's log says it presented, in order (with repeats).
    static func presented(in lines: [String]) -> [String] {
        let marker = "chimed: info: presented \(app)/"
        return lines.compactMap { line in
            line.range(of: marker).map { String(line[$0.upperBound...].prefix { $0 != " " }) }
        }
    }

    @Test func acknowledgedAddsSurviveSIGKILLAndNothingAlertsTwice() async throws {
        let home = try DaemonHome()
        let first = try await home.start()
        let setup = try await home.connect(app: Self.app)
        #expect(try await setup.requestAuthorization(options: [.alert]))
        setup.close()

        let acknowledged = Acknowledged()
        let adders = (0..<4).map { worker in
            Task {
                guard let client = try? await home.connect(app: Self.app) else { return }
                var number = 0
                while true {
                    number += 1
                    let identifier = "w\(worker)-\(number)"
                    do {
                        // Due in 1 s: deliveries start while the burst goes on.
                        try await client.add([try request(identifier, in: 1)])
                        acknowledged.ids.withLock { _ = $0.insert(identifier) }
                    } catch {
                        return  // the daemon is gone
                    }
                }
            }
        }
        // Whatever happens below, no adder outlives the test (they stop when the daemon is gone).
        defer { kill(first.process.processIdentifier, SIGKILL) }
        try await eventually("a burst under way", within: 60) {
            acknowledged.ids.withLock { $0.count } >= 400 && Self.presented(in: first.log.lines).count >= 50
        }
        await first.killHard()
        for adder in adders { await adder.value }

        let acked = acknowledged.ids.withLock { $0 }
        let shownBefore = Self.presented(in: first.log.lines)
        #expect(Set(shownBefore).count == shownBefore.count, "a notification was presented twice before the kill")
        #expect(!first.log.lines.contains { $0.contains("chimed: info: stopped") }, "the daemon stopped before the kill")

        // The store as the killed daemon left it, before a new one changes it.
        let store = try await SQLiteNotificationStore(path: home.paths.storeFile.path)
        let pending = Set(try await store.pendingRequests(appIdentifier: Self.app).map(\.request.identifier))
        let delivered = Set(try await store.deliveredNotifications(appIdentifier: Self.app).map(\.identifier))
        await store.close()
        #expect(pending.intersection(delivered).isEmpty)
        #expect(acked.subtracting(pending.union(delivered)).isEmpty, "acknowledged adds were lost")
        #expect(Set(shownBefore).subtracting(delivered).isEmpty, "a notification was shown without being recorded")

        let second = try await home.start()
        let client = try await home.connect(app: Self.app)

        // Everything still pending fires once, and nothing shown before is shown again.
        try await eventually("the rest delivered", within: 20) { try await client.pendingRequests().isEmpty }
        let finalDelivered = Set(try await client.deliveredNotifications().map(\.notification.identifier))
        try await eventually("the last presentations logged", within: 10) {
            Set(Self.presented(in: second.log.lines)).isSuperset(of: pending)
        }
        let shownAfter = Self.presented(in: second.log.lines)
        #expect(Set(shownAfter).count == shownAfter.count, "a notification was presented twice after the restart")
        #expect(Set(shownAfter).isDisjoint(with: shownBefore), "a notification shown before the kill alerted again")
        #expect(acked.subtracting(finalDelivered).isEmpty)
        print("daemon crash test: \(acked.count) adds acknowledged and \(shownBefore.count) shown before SIGKILL; \(pending.count) pending at restart, each shown once after")
        client.close()
        #expect(await second.terminate() == 0)
    }
}
