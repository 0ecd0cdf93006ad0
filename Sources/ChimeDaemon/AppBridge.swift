import ChimeCore
import ChimeEngine
import ChimeIPC
import Foundation
import Synchronization

/// Questions sent to foreground apps (`willPresent`) and waiting for their `presentationOptions` answer.
///
/// Answers are taken on the connection's reader thread, outside the daemon's request order, so an
/// answer can never wait behind a request that itself waits for the scheduler.
final class PresentationQuestions: Sendable {
    private let state = Mutex((next: 0, waiting: [Int: CheckedContinuation<PresentationOptions?, Never>]()))

    /// Sends a question with `send` and waits for the answer, at most `timeout`; `nil` when none came.
    func ask(timeout: Duration, send: (Int) -> Bool) async -> PresentationOptions? {
        let number = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        return await withCheckedContinuation { continuation in
            state.withLock { $0.waiting[number] = continuation }
            guard send(number) else {
                answer(number, with: nil)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.answer(number, with: nil)
            }
        }
    }

    /// Resumes the question's asker once; false when nobody waits for it (answered or timed out).
    @discardableResult
    func answer(_ number: Int, with options: PresentationOptions?) -> Bool {
        let waiter = state.withLock { $0.waiting.removeValue(forKey: number) }
        waiter?.resume(returning: options)
        return waiter != nil
    }
}

/// Responses sent live to apps that decide what becomes of their notifications, waiting for the app's
/// acknowledgment and the disposition it carries.
///
/// Keyed by delivery, so an acknowledgment on any of the app's connections answers; resolved with `nil`
/// at the timeout or when the connection that carried the event closes.
final class ResponseDecisions: Sendable {
    private let waiting = Mutex([String: (connection: Int, continuation: CheckedContinuation<ResponseDisposition?, Never>)]())

    /// Sends the event with `send` and waits for the app's decision, at most `timeout`.
    func wait(for delivery: String, connection: Int, timeout: Duration, send: () -> Bool) async -> ResponseDisposition? {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0[delivery] = (connection, continuation) }
            guard send() else {
                decide(delivery, with: nil)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.decide(delivery, with: nil)
            }
        }
    }

    /// Resumes the waiter of `delivery` once; false when nobody waits for it.
    @discardableResult
    func decide(_ delivery: String, with disposition: ResponseDisposition?) -> Bool {
        let waiter = waiting.withLock { $0.removeValue(forKey: delivery) }
        waiter?.continuation.resume(returning: disposition)
        return waiter != nil
    }

    /// The connection closed: its events will not be answered on it.
    func abandon(connection: Int) {
        let waiters = waiting.withLock { waiting in
            let gone = waiting.filter { $0.value.connection == connection }
            for key in gone.keys { waiting[key] = nil }
            return gone.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}

/// The engine's delegate for an app with a live, subscribed connection: responses go to the app as events
/// (queued durably first, until the app acknowledges them), and while the app is in the foreground it is
/// asked how to present its notifications.
final class AppBridge: NotificationCenterDelegate {
    /// What a foreground app that does not answer in time gets: the system's presentation.
    static let systemPresentation: PresentationOptions = [.banner, .list, .sound, .badge]

    let app: String
    let connection: ClientConnection
    let daemon: Daemon
    let questions: PresentationQuestions
    let timeout: Duration
    /// Set when the app said hello with `decidesResponses`.
    let decisions: (table: ResponseDecisions, timeout: Duration)?
    let log: DaemonLog

    init(
        app: String, connection: ClientConnection, daemon: Daemon, questions: PresentationQuestions, timeout: Duration,
        decisions: (table: ResponseDecisions, timeout: Duration)?, log: DaemonLog
    ) {
        self.app = app
        self.connection = connection
        self.daemon = daemon
        self.questions = questions
        self.timeout = timeout
        self.decisions = decisions
        self.log = log
    }

    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions {
        let (app, connection) = (app, connection)
        let answer = await questions.ask(timeout: timeout) { number in
            connection.send(EventMessage(event: .willPresent, params: WillPresentEvent(question: number, app: app, notification: notification)))
        }
        guard let answer else {
            log.warning("\(app) did not answer how to present \(notification.identifier) within \(timeout); presenting it as the system does")
            return Self.systemPresentation
        }
        return answer
    }

    /// Queues the response durably and sends it to the app. An app that decides responses (a content
    /// extension replacing buttons, keeping the notification on screen, ...) is waited for, so its decision
    /// reaches the engine; an app that does not answer in time gets the standard behaviour, so a slow app
    /// never stalls the engine. Its late acknowledgment still removes the queued response.
    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        guard let decisions else {
            await daemon.queueAndSend(response, app: app, launch: nil)
            return .standard
        }
        guard let delivery = await daemon.keep(response, app: app, launch: nil) else { return .standard }
        let (app, connection) = (app, connection)
        let event = EventMessage(event: .response, params: ResponseEvent(delivery: delivery, app: app, response: response, launch: nil))
        let decision = await decisions.table.wait(for: delivery, connection: connection.id, timeout: decisions.timeout) {
            connection.send(event)
        }
        guard let decision else {
            log.warning("\(app) did not decide about notification \(response.notification.identifier) within \(decisions.timeout); applying the standard behaviour")
            return .standard
        }
        return decision
    }
}

extension ResponseDisposition {
    /// The app's decision as the acknowledgment carried it.
    init(_ wire: WireDisposition) {
        let actions: Actions =
            switch wire.actions {
            case nil: .keep
            case let actions? where actions.isEmpty: .clear
            case let actions?: .replace(actions)
            }
        let outcome: Outcome =
            switch wire.outcome {
            case .standard: .standard
            case .keepOnScreen: .keepOnScreen
            case .dismiss: .dismiss
            case .performDefaultAction: .performDefaultAction
            }
        self.init(actions: actions, outcome: outcome)
    }
}
