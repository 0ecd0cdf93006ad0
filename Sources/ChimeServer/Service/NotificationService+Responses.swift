public import ChimeAPI
import ChimeCore
public import ChimeEngine
import Foundation
import Synchronization

extension NotificationService {
    /// The user acts on a delivered notification (a button, a reply, open, dismiss), from the CLI or a page.
    public func respond(_ app: String, notification: String, action: WireUserAction) async throws -> RespondResult {
        let userAction: UserAction =
            switch action {
            case .open: .open
            case .dismiss: .dismiss
            case .action(let identifier): .action(identifier)
            case .reply(let identifier, let text): .reply(action: identifier, text: text)
            }
        let outcome = try await engine.respond(appIdentifier: app, notificationIdentifier: notification, action: userAction)
        let after = await afterResponse(app: app, outcome)
        return RespondResult(
            launch: Self.launchName(outcome.launch), response: outcome.response, deliveredToApp: outcome.deliveredToApp, queued: after.queued,
            launched: after.launched)
    }

    /// What follows a user's action, wherever it came from (the API, the desktop's buttons): a response
    /// the app did not receive is queued, and the app is launched with its registered command when the
    /// action asks for it and the app is not connected. Returns whether it was queued, and — when a launch
    /// was due — whether the app's command was started.
    @discardableResult
    public func afterResponse(app: String, _ outcome: ResponseOutcome) async -> (queued: Bool, launched: Bool?) {
        statusCache.invalidate()
        if let response = outcome.response {
            events.publish(
                .responded,
                RespondedEvent(app: app, identifier: response.notification.identifier, action: response.actionIdentifier, text: response.userText),
                to: .lists)
        }
        guard let response = outcome.response, !outcome.deliveredToApp else { return (false, nil) }
        let launch = outcome.launch == .none ? nil : Self.launchName(outcome.launch)
        guard await queueAndSend(response, app: app, launch: launch) else { return (false, nil) }
        guard let launch, presence.current(app) == nil else { return (true, nil) }
        if let command = registry.entry(app)?.launchCommand, !command.isEmpty {
            launcher.launch(command, reason: launch)
            return (true, true)
        }
        log.info("a response for \(app) waits until it connects (no launch command registered)")
        return (true, false)
    }

    /// Keeps a response until the app acknowledges it, then sends it to the app's streams; false when it
    /// could not be kept.
    @discardableResult
    func queueAndSend(_ response: NotificationResponse, app: String, launch: String?) async -> Bool {
        guard let delivery = await keep(response, app: app, launch: launch) else { return false }
        events.publish(.response, ResponseEvent(delivery: delivery, app: app, response: response, launch: launch), to: .app(app))
        return true
    }

    /// Keeps a response durably; its delivery identifier, `nil` when it could not be kept.
    func keep(_ response: NotificationResponse, app: String, launch: String?) async -> String? {
        do {
            return try await queue.enqueue(app: app, response: response, launch: launch)
        } catch {
            log.warning("cannot queue a response for \(app): \(error)")
            return nil
        }
    }

    /// The app handled a response: the daemon forgets it, and applies the app's decision when it waits
    /// for one.
    ///
    /// - Throws: `APIError.notFound` when the app has no queued response with that delivery (already
    ///   acknowledged). A decision that comes after the timeout still removes the response.
    public func acknowledge(_ app: String, delivery: String, _ acknowledgment: Acknowledgment) async throws {
        presence.answered(app)
        let disposition = acknowledgment.disposition.map(ResponseDisposition.init) ?? .standard
        // A decision about a response that was replayed (its standard behaviour applied when it was queued)
        // is applied afterwards, to the notification as it is now: which one it was is in the queue.
        let queued = disposition == .standard ? nil : try await queue.entries(app: app, limit: 10_000).first { $0.delivery == delivery }
        let removed = try await queue.remove(delivery: delivery, app: app)
        let waited = decisions.decide(delivery, with: disposition)
        statusCache.invalidate()
        guard removed else { throw APIError(.notFound, field: "delivery", "no queued response of this app has that delivery identifier") }
        if !waited, let queued {
            try await engine.applyLateDecision(disposition, appIdentifier: app, notificationIdentifier: queued.response.notification.identifier)
        }
        await replayMore(to: app, acknowledged: delivery)
    }

    /// The responses waiting for `app`, oldest first, at most `limit`.
    public func queuedResponses(_ app: String, limit: Int) async throws -> QueuedResponseList {
        let entries = try await queue.entries(app: app, limit: limit)
        let total = try await queue.counts()[app] ?? 0
        return QueuedResponseList(items: entries.map(Self.event), total: max(total, entries.count))
    }

    /// A foreground app answers `willPresent`.
    ///
    /// - Throws: `APIError.notFound` when the question was answered or timed out.
    public func answer(_ app: String, question: Int, _ answer: QuestionAnswer) throws {
        presence.answered(app)
        guard questions.answer(question, app: app, with: answer.options) else {
            throw APIError(.notFound, field: "question", "the question was answered or timed out")
        }
    }

    static func launchName(_ launch: ResponseOutcome.Launch) -> String {
        switch launch {
        case .none: "none"
        case .background: "background"
        case .foreground: "foreground"
        }
    }
}

/// The engine's delegate for a connected app: responses go to its streams (queued durably first, until
/// it acknowledges them), and while it is in the foreground it is asked how to present its notifications.
///
/// Nothing here waits longer than the app's own timeouts, and an app that stops answering is treated as
/// in the background (`AppPresence`), so it can delay only its own notifications.
final class AppBridge: NotificationCenterDelegate {
    /// What a foreground app that does not answer in time gets: the system's presentation.
    static let systemPresentation: PresentationOptions = [.banner, .list, .sound, .badge]

    let app: String
    unowned let service: NotificationService

    init(app: String, service: NotificationService) {
        self.app = app
        self.service = service
    }

    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions {
        let (app, service) = (app, service)
        guard service.presence.isResponsive(app) else { return Self.systemPresentation }
        let timeout = service.configuration.presentationTimeout
        let answer = await service.questions.ask(app: app, timeout: timeout) { number in
            service.events.publish(.willPresent, WillPresentEvent(question: number, app: app, notification: notification), to: .app(app))
        }
        guard let answer else {
            let unresponsive = service.presence.missedAnswer(app)
            service.log.warning(
                "\(app) did not answer how to present \(notification.identifier) within \(timeout); presenting it as the system does"
                    + (unresponsive ? " (and treating \(app) as in the background until it answers)" : ""))
            return Self.systemPresentation
        }
        return answer
    }

    /// Queues the response durably and sends it. An app that decides its responses (a content extension
    /// replacing buttons, keeping the notification on screen, ...) is waited for, within its timeout, so
    /// its decision reaches the engine; one that does not answer gets the standard behaviour.
    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        let (app, service) = (app, service)
        guard let stream = service.presence.current(app), stream.decidesResponses, service.presence.isResponsive(app) else {
            await service.queueAndSend(response, app: app, launch: nil)
            return .standard
        }
        guard let delivery = await service.keep(response, app: app, launch: nil) else { return .standard }
        let timeout = service.configuration.responseDecisionTimeout
        let decision = await service.decisions.wait(for: delivery, app: app, timeout: timeout) {
            service.events.publish(.response, ResponseEvent(delivery: delivery, app: app, response: response, launch: nil), to: .app(app))
        }
        guard let decision else {
            service.presence.missedAnswer(app)
            service.log.warning("\(app) did not decide about notification \(response.notification.identifier) within \(timeout); applying the standard behaviour")
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
