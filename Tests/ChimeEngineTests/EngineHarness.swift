import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation

/// An engine over an in-memory store, a manual clock, a recording presenter and a simulated user: the
/// whole notification system, deterministic and without waiting.
struct EngineHarness {
    static let start = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    let clock: ManualClock
    let presenter = RecordingPresenter()
    let user: SimulatedUser
    let store: any NotificationStore
    let engine: NotificationEngine
    let center: AppNotificationCenter

    init(
        store: any NotificationStore = InMemoryNotificationStore(),
        now: Date = EngineHarness.start,
        answersAuthorization: Bool? = true,
        timeZone: TimeZone = TimeZone(identifier: "Asia/Seoul")!,
        configuration: EngineConfiguration = EngineConfiguration()
    ) {
        self.store = store
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

    /// Runs the clock forward to `date`, letting the scheduler wake at each of its deadlines on the way
    /// (and at `date` itself, when it has one there).
    func run(until date: Date) async {
        while true {
            let deadline = await clock.nextWakeUp()
            if deadline > date {
                clock.advance(to: date)
                return
            }
            clock.advance(to: deadline)
            if deadline == date { return }
        }
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
