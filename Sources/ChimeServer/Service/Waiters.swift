import ChimeCore
import ChimeEngine
import Synchronization

/// Questions sent to foreground apps (`willPresent`) that wait for the app's answer, each at most its
/// timeout. Numbered per daemon; an answer for a number nobody waits for (answered, timed out) is refused.
final class PresentationQuestions: Sendable {
    private let state = Mutex((next: 0, waiting: [Int: (app: String, continuation: CheckedContinuation<PresentationOptions?, Never>)]()))

    /// Sends a question with `send` and waits for the answer, at most `timeout`; `nil` when none came.
    func ask(app: String, timeout: Duration, send: (Int) -> Void) async -> PresentationOptions? {
        let number = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        return await withCheckedContinuation { continuation in
            state.withLock { $0.waiting[number] = (app, continuation) }
            send(number)
            Task {
                try? await Task.sleep(for: timeout)
                self.answer(number, app: app, with: nil)
            }
        }
    }

    /// Resumes the asker once; false when nobody waits for that question of that app.
    @discardableResult
    func answer(_ number: Int, app: String, with options: PresentationOptions?) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<PresentationOptions?, Never>? in
            guard state.waiting[number]?.app == app else { return nil }
            return state.waiting.removeValue(forKey: number)?.continuation
        }
        waiter?.resume(returning: options)
        return waiter != nil
    }

    /// The app's last stream closed: its questions will not be answered.
    func abandon(app: String) {
        let waiters = state.withLock { state in
            let gone = state.waiting.filter { $0.value.app == app }
            for key in gone.keys { state.waiting[key] = nil }
            return gone.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}

/// Responses sent live to apps that decide what becomes of their notifications, waiting for the app's
/// acknowledgment and the disposition it carries: keyed by delivery, resolved with `nil` at the timeout
/// or when the app's last stream closes.
final class ResponseDecisions: Sendable {
    private let waiting = Mutex([String: (app: String, continuation: CheckedContinuation<ResponseDisposition?, Never>)]())

    /// Sends the event with `send` and waits for the app's decision, at most `timeout`.
    func wait(for delivery: String, app: String, timeout: Duration, send: () -> Void) async -> ResponseDisposition? {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0[delivery] = (app, continuation) }
            send()
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

    func abandon(app: String) {
        let waiters = waiting.withLock { waiting in
            let gone = waiting.filter { $0.value.app == app }
            for key in gone.keys { waiting[key] = nil }
            return gone.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
