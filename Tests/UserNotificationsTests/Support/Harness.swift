import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Synchronization
import UserNotifications

/// A `UNUserNotificationCenter` on the whole notification system, deterministic: an in-memory store, a
/// manual clock, a recording presenter and a simulated user.
struct Harness {
    static let start = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z
    static let appIdentifier = "com.example.app"

    let clock: ManualClock
    let presenter = RecordingPresenter()
    let user: SimulatedUser
    let store = InMemoryNotificationStore()
    let engine: NotificationEngine
    /// The center the app's code uses.
    let center: UNUserNotificationCenter
    /// The engine's view of the same app: what the simulated user acts on.
    let appCenter: AppNotificationCenter

    init(now: Date = Harness.start, answersAuthorization: Bool? = true, timeZone: TimeZone = .current) {
        clock = ManualClock(now: now)
        user = SimulatedUser(answersAuthorization: answersAuthorization)
        engine = NotificationEngine(store: store, clock: clock, presenter: presenter, authorization: user, timeZone: timeZone, log: SilentLog())
        center = UNUserNotificationCenter(appIdentifier: Self.appIdentifier, engine: engine, clock: clock, log: SilentLog())
        appCenter = engine.center(for: Self.appIdentifier)
    }

    /// Runs the clock forward to `date`, letting the scheduler wake at each of its deadlines on the way.
    func run(until date: Date) async {
        await clock.run(until: date)
    }

    func run(for seconds: TimeInterval) async {
        await run(until: clock.now.addingTimeInterval(seconds))
    }

    /// Waits until every call made on the center so far has taken effect (calls apply in order).
    func settle() async {
        _ = await center.notificationSettings()
    }
}

/// Collects what a completion handler is called with, so a test can wait for it.
final class Completion<Value: Sendable>: Sendable {
    private let values = Mutex<(received: [Value], waiters: [CheckedContinuation<Value, Never>])>(([], []))

    var handler: @Sendable (Value) -> Void {
        { value in self.receive(value) }
    }

    func receive(_ value: Value) {
        let waiter = values.withLock { state -> CheckedContinuation<Value, Never>? in
            guard !state.waiters.isEmpty else {
                state.received.append(value)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: value)
    }

    /// The next value not yet taken, oldest first.
    func next() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = values.withLock { state -> Value? in
                guard !state.received.isEmpty else {
                    state.waiters.append(continuation)
                    return nil
                }
                return state.received.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// A small PNG (1×1 pixel) on disk, for attachments.
enum Fixtures {
    /// One folder for every file this test process makes, removed when it exits.
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-un-tests-\(ProcessInfo.processInfo.processIdentifier)")
        atexit { try? FileManager.default.removeItem(at: Fixtures.root) }
        return root
    }()

    static func png(named name: String = "hello") throws -> URL {
        let bytes: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
            0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
            0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00,
            0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        let directory = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("\(name).png")
        try Data(bytes).write(to: url)
        return url
    }

    static func temporaryDirectory() throws -> URL {
        let directory = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// A value test doubles read and write from any thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
