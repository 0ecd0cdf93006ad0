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
    let log: DaemonLog

    init(app: String, connection: ClientConnection, daemon: Daemon, questions: PresentationQuestions, timeout: Duration, log: DaemonLog) {
        self.app = app
        self.connection = connection
        self.daemon = daemon
        self.questions = questions
        self.timeout = timeout
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

    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        await daemon.queueAndSend(response, app: app, launch: nil)
        return .standard
    }
}
