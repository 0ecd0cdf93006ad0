import ChimeCore
import ChimeEngine
import ChimeSQLite
import Foundation

/// Adds requests to an engine over a SQLite store as fast as it can, from several tasks at once, while the
/// engine delivers them; prints `added <id>` when an add has returned (is durable) and `shown <id>` when a
/// notification was presented. Fires are recorded ahead of their instants, journaled beside the store
/// (`<path>-presented`), as the daemon does. Runs until killed: a parent kills it with SIGKILL mid-burst and checks the
/// store.
enum CrashProbe {
    static func run(path: String, count: Int) async throws {
        let store = try await SQLiteNotificationStore(path: path)
        var configuration = EngineConfiguration()
        configuration.presentationJournal = URL(fileURLWithPath: path + "-presented")
        let engine = NotificationEngine(
            store: store, clock: SystemClock(maximumChunk: 0.05), presenter: PrintingPresenter(), log: SilentLog(), configuration: configuration)
        let center = engine.center(for: "probe")
        _ = try await center.requestAuthorization(options: [.alert, .sound])
        await engine.start()
        ProbeOutput.line("ready")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in stride(from: worker, to: count, by: 8) {
                        // Every third request is due at once, the others within half a second.
                        let trigger: NotificationTrigger? = index % 3 == 0
                            ? nil : .timeInterval(try TimeIntervalTrigger(timeInterval: Double(index % 50) / 100 + 0.01, repeats: false))
                        let request = try NotificationRequest(
                            identifier: "r\(index)", content: NotificationContent(title: "Burst \(index)", body: "Crash probe"),
                            trigger: trigger)
                        try await center.add(request)
                        ProbeOutput.line("added r\(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        ProbeOutput.line("done")
        while true { try await Task.sleep(for: .seconds(60)) }
    }
}
