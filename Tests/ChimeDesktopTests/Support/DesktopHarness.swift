import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeTesting
import ChimeTestSupport
import Foundation
import Synchronization

/// A whole notification system on a desktop of the test's own: a private `dbus-daemon`, the scripted
/// notification server on it (or none), the desktop presenter connected to it, and a real engine over an
/// in-memory store and a manual clock, with an app whose delegate records what it receives.
///
/// `run` tears everything down afterwards, also when the test fails.
struct DesktopHarness {
    static let start = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z
    static let appNames = ["com.example.photos": "Photos", "com.example.meetings": "Meetings", "com.example.alarm": "Alarm"]

    let bus: PrivateBus
    /// The scripted server; `nil` for a desktop without one.
    let server: FakeNotificationServer?
    let presenter: DesktopPresenter
    let engine: NotificationEngine
    let clock = ManualClock(now: DesktopHarness.start)
    let log = RecordingLog()
    let app = RecordingApp()
    /// What `Configuration.onReplyNeeded` was called with.
    let replyRequests = Inbox<ReplyRequest>()

    /// Runs `body` with a started harness, then stops it.
    ///
    /// - Parameters:
    ///   - server: The scripted server's options, or `nil` for no server on the bus.
    ///   - callTimeout: The presenter's timeout for every call.
    ///   - handlesReplies: Whether `onReplyNeeded` is set (recorded in `replyRequests`); otherwise the
    ///     presenter logs.
    static func run(
        server options: FakeNotificationServer.Options? = FakeNotificationServer.Options(), callTimeout: Duration = .seconds(5),
        handlesReplies: Bool = true, _ body: (DesktopHarness) async throws -> Void
    ) async throws {
        let bus = try await PrivateBus.start()
        var server: FakeNotificationServer?
        do {
            if let options { server = try await FakeNotificationServer.start(on: bus, options: options) }
            let harness = DesktopHarness(bus: bus, server: server, callTimeout: callTimeout, handlesReplies: handlesReplies)
            await harness.engine.start()
            do {
                try await body(harness)
            } catch {
                await harness.engine.stop()
                throw error
            }
            await harness.engine.stop()
        } catch {
            await server?.stop()
            await bus.stop()
            throw error
        }
        await server?.stop()
        await bus.stop()
    }

    private init(bus: PrivateBus, server: FakeNotificationServer?, callTimeout: Duration, handlesReplies: Bool) {
        self.bus = bus
        self.server = server
        let replies = replyRequests
        var configuration = DesktopPresenter.Configuration(
            bus: .address(bus.address), apps: DesktopPresenter.Configuration.appNames(Self.appNames), callTimeout: callTimeout)
        if handlesReplies {
            configuration.onReplyNeeded = { request in replies.post(request) }
        }
        presenter = DesktopPresenter(configuration: configuration, log: log)
        engine = NotificationEngine(
            store: InMemoryNotificationStore(), clock: clock, presenter: presenter, authorization: presenter,
            timeZone: TimeZone(identifier: "Asia/Seoul")!, log: log)
    }

    /// The scripted server, which the test expects to be there.
    var fake: FakeNotificationServer {
        get throws {
            guard let server else { throw Timeout(description: "this harness has no notification server") }
            return server
        }
    }

    /// An app the user has allowed (set directly, as the settings screen would), with `categories` and
    /// the recording delegate attached in the background (the system presents its notifications).
    func center(
        _ appIdentifier: String = "com.example.photos", options: AuthorizationOptions = [.alert, .sound, .badge],
        categories: [NotificationCategory] = []
    ) async throws -> AppNotificationCenter {
        let center = engine.center(for: appIdentifier)
        try await center.updateSettings(.granted(options))
        try await center.setNotificationCategories(categories)
        await center.setDelegate(app, isForeground: false)
        return center
    }

    /// Delivers `content` now, as request `identifier`.
    func deliver(_ identifier: String, _ content: NotificationContent, in center: AppNotificationCenter) async throws {
        try await center.add(NotificationRequest(identifier: identifier, content: content, trigger: nil))
    }
}

/// A queue the code under test fills and the test awaits, with a deadline on every wait.
final class Inbox<Element: Sendable>: Sendable {
    private struct State {
        var all: [Element] = []
        var taken = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Element, any Error>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    func post(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, any Error>? in
            state.all.append(element)
            guard !state.waiters.isEmpty else { return nil }
            state.taken += 1
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: element)
    }

    /// The next element not taken yet, waiting up to `seconds` for it.
    func next(_ what: String, within seconds: Double = 15) async throws -> Element {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [self] in
            try await Task.sleep(for: .seconds(seconds))
            let waiter = state.withLock { state -> CheckedContinuation<Element, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: Timeout(description: "timed out waiting for \(what)"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Element? in
                guard state.taken < state.all.count else {
                    state.waiters.append((id, continuation))
                    return nil
                }
                state.taken += 1
                return state.all[state.taken - 1]
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    var all: [Element] { state.withLock { $0.all } }
}

/// The engine's and the presenter's log, kept for the test to read.
final class RecordingLog: EngineLog {
    let warnings = Inbox<String>()
    let infos = Inbox<String>()

    func warning(_ message: String) { warnings.post(message) }
    func info(_ message: String) { infos.post(message) }

    /// Waits for a warning that contains `text`, each warning for at most `seconds`.
    func nextWarning(containing text: String, within seconds: Double = 15) async throws -> String {
        while true {
            let warning = try await warnings.next("a warning containing \(text.debugDescription); warnings so far: \(warnings.all)", within: seconds)
            if warning.contains(text) { return warning }
        }
    }
}

/// An app's delegate that records every response and answers with a disposition the test sets.
final class RecordingApp: NotificationCenterDelegate {
    let responses = Inbox<NotificationResponse>()
    private let disposition = Mutex<@Sendable (NotificationResponse) -> ResponseDisposition>({ _ in .standard })

    /// What the app answers to each response from now on.
    func answer(_ disposition: @escaping @Sendable (NotificationResponse) -> ResponseDisposition) {
        self.disposition.withLock { $0 = disposition }
    }

    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        responses.post(response)
        return disposition.withLock { $0 }(response)
    }
}
