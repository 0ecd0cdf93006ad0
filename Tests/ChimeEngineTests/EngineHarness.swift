import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeSQLite
import ChimeTestSupport
import ChimeTesting
import Foundation

/// An engine over a real store — SQLite in a temporary folder, or with `CHIME_TEST_STORE=postgres` a
/// tenant of its own in the tests' PostgreSQL cluster — a manual clock, a recording presenter and a
/// simulated user: the whole notification system, deterministic and without waiting.
struct EngineHarness {
    /// Whether the harness's stores are PostgreSQL's (`CHIME_TEST_STORE=postgres`) rather than SQLite's.
    static let onPostgres = ProcessInfo.processInfo.environment["CHIME_TEST_STORE"] == "postgres"

    /// A temporary folder, removed when the last harness using it goes away.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-engine-\(UUID().uuidString)")
        var databasePath: String { url.appendingPathComponent("chime.sqlite").path }
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let start = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    let clock: ManualClock
    let presenter = RecordingPresenter()
    let user: SimulatedUser
    let store: any NotificationStore
    let engine: NotificationEngine
    let center: AppNotificationCenter
    /// The folder of the SQLite store, when the harness made one.
    let folder: Folder?
    let configuration: EngineConfiguration

    /// A harness over `store`, or over a new store of the tests' kind (see `onPostgres`).
    static func make(
        store: (any NotificationStore)? = nil,
        now: Date = EngineHarness.start,
        answersAuthorization: Bool? = true,
        timeZone: TimeZone = TimeZone(identifier: "Asia/Seoul")!,
        configuration: EngineConfiguration = EngineConfiguration()
    ) async throws -> EngineHarness {
        if let store {
            return EngineHarness(store: store, folder: nil, now: now, answersAuthorization: answersAuthorization, timeZone: timeZone, configuration: configuration)
        }
        if onPostgres {
            let postgres = try await PostgresTestDatabase.freshStore("engine")
            return EngineHarness(store: postgres, folder: nil, now: now, answersAuthorization: answersAuthorization, timeZone: timeZone, configuration: configuration)
        }
        let folder = try Folder()
        let sqlite = try await SQLiteNotificationStore(path: folder.databasePath)
        return EngineHarness(store: sqlite, folder: folder, now: now, answersAuthorization: answersAuthorization, timeZone: timeZone, configuration: configuration)
    }

    /// A new process, as it were: stops this engine, closes its store, and opens a new engine on the same
    /// data (the SQLite file, or the tenant's rows) at `now`.
    func restarted(at now: Date) async throws -> EngineHarness {
        await engine.stop()
        let reopened: any NotificationStore
        if let postgres = store as? PostgresNotificationStore {
            reopened = PostgresNotificationStore(database: try await PostgresTestDatabase.database(), tenant: postgres.tenant)
        } else {
            guard let folder, let sqlite = store as? SQLiteNotificationStore else { preconditionFailure("a harness over a given store does not restart") }
            await sqlite.close()
            reopened = try await SQLiteNotificationStore(path: folder.databasePath)
        }
        return EngineHarness(store: reopened, folder: folder, now: now, answersAuthorization: true, timeZone: TimeZone(identifier: "Asia/Seoul")!, configuration: configuration)
    }

    private init(
        store: any NotificationStore,
        folder: Folder?,
        now: Date,
        answersAuthorization: Bool? = true,
        timeZone: TimeZone = TimeZone(identifier: "Asia/Seoul")!,
        configuration: EngineConfiguration = EngineConfiguration()
    ) {
        self.store = store
        self.folder = folder
        self.configuration = configuration
        clock = ManualClock(now: now)
        user = SimulatedUser(answersAuthorization: answersAuthorization)
        engine = NotificationEngine(
            store: store, clock: clock, presenter: presenter, authorization: user, timeZone: timeZone, log: SilentLog(),
            configuration: configuration)
        center = engine.center(for: "com.example.app")
    }

    /// Authorizes the app for alerts, sounds and badges, and starts the scheduler.
    func started() async throws -> EngineHarness {
        _ = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        await engine.start()
        return self
    }

    /// Runs the clock forward to `date`, letting the scheduler wake at each of its deadlines on the way.
    func run(until date: Date) async {
        await clock.run(until: date)
    }

    /// Runs the clock `seconds` past its current time.
    func run(for seconds: TimeInterval) async {
        await run(until: clock.now.addingTimeInterval(seconds))
    }

    func request(
        _ identifier: String, title: String = "Hello", body: LocalizableText = "World", category: String = "",
        trigger: NotificationTrigger? = nil, misfirePolicy: MisfirePolicy = .default
    ) throws -> NotificationRequest {
        var content = NotificationContent(title: .literal(title), body: body)
        content.categoryIdentifier = category
        return try NotificationRequest(identifier: identifier, content: content, trigger: trigger, misfirePolicy: misfirePolicy)
    }

    func after(_ seconds: TimeInterval, repeats: Bool = false) throws -> NotificationTrigger {
        .timeInterval(try TimeIntervalTrigger(timeInterval: seconds, repeats: repeats))
    }
}
