public import ChimeCore
import Foundation

/// What the user did with a delivered notification, as a presenter reports it.
public enum UserAction: Sendable, Hashable {
    /// Opened the notification (clicked its body): the default action.
    case open
    /// Closed it explicitly. Reaches the app only when the category has `customDismissAction`.
    case dismiss
    /// Chose a button.
    case action(String)
    /// Typed a reply into a text-input button.
    case reply(action: String, text: String)
}

/// What became of a user's action.
public struct ResponseOutcome: Sendable, Hashable {
    /// How the app should be brought in to handle the response.
    public enum Launch: Sendable, Hashable {
        /// Not at all: the response needs no app (a dismissal the app did not ask for).
        case none
        /// In the background: a custom action without `.foreground`.
        case background
        /// To the front: the default action and `.foreground` actions.
        case foreground
    }

    /// The response handed to the app; `nil` when none was due (a plain dismissal).
    public var response: NotificationResponse?
    public var launch: Launch
    /// Whether the app's delegate received the response now. When it did not (the app is not running),
    /// the daemon queues the response and launches the app.
    public var deliveredToApp: Bool
    /// What the app decided for the notification (or the standard behaviour).
    public var disposition: ResponseDisposition

    public init(response: NotificationResponse?, launch: Launch, deliveredToApp: Bool, disposition: ResponseDisposition) {
        self.response = response
        self.launch = launch
        self.deliveredToApp = deliveredToApp
        self.disposition = disposition
    }
}

extension NotificationEngine {
    /// Routes the user's action on a delivered notification to its app and applies the app's decision.
    ///
    /// Rules: opening is the default action and launches the app to the front; a dismissal removes the
    /// notification from the delivered list and reaches the app only when the category has
    /// `customDismissAction`; a button must be one the notification offers now
    /// (its category's, or those the app put in their place); `.foreground` buttons launch the app to the
    /// front, others in the background; `.authenticationRequired` buttons are refused while the session is
    /// locked; a text-input button needs the user's text.
    ///
    /// - Throws: `ChimeError.notificationNotFound` when the notification is not delivered (any more);
    ///   `.actionNotAvailable` for a button it does not offer, or a reply to a button without text input;
    ///   `.sessionLocked` for an `.authenticationRequired` button while locked. Nothing changes then.
    public func respond(appIdentifier: String, notificationIdentifier: String, action: UserAction) async throws -> ResponseOutcome {
        guard let notification = try await store.deliveredNotification(appIdentifier: appIdentifier, identifier: notificationIdentifier)
            ?? unlisted.notification(appIdentifier: appIdentifier, identifier: notificationIdentifier)
        else {
            throw ChimeError(.notificationNotFound, field: "notification", "no delivered notification has that identifier")
        }
        let category = try await appRecord(appIdentifier).categories.first { $0.identifier == notification.request.content.categoryIdentifier }

        let response: NotificationResponse?
        let launch: ResponseOutcome.Launch
        switch action {
        case .open:
            response = .defaultAction(for: notification)
            launch = .foreground
        case .dismiss:
            let wanted = category?.options.contains(.customDismissAction) == true
            response = wanted ? .dismiss(for: notification) : nil
            launch = wanted ? .background : .none
        case .action(let identifier), .reply(let identifier, _):
            guard let button = notification.actions(in: category).first(where: { $0.identifier == identifier }) else {
                throw ChimeError(.actionNotAvailable, field: "action", "the notification does not offer that action")
            }
            if button.options.contains(.authenticationRequired) && environment.isLocked {
                throw ChimeError(.sessionLocked, field: "action", "this action needs the session to be unlocked")
            }
            if case .reply(_, let text) = action {
                guard button.isTextInput else {
                    throw ChimeError(.actionNotAvailable, field: "userText", "this action does not take a reply")
                }
                response = try .textInput(text, action: identifier, for: notification)
            } else {
                guard !button.isTextInput else {
                    throw ChimeError(.actionNotAvailable, field: "userText", "this action needs the user's reply")
                }
                response = try .action(identifier, for: notification)
            }
            launch = button.options.contains(.foreground) ? .foreground : .background
        }

        var disposition = ResponseDisposition.standard
        var deliveredToApp = false
        if let response, let delegate = delegates[appIdentifier]?.delegate {
            disposition = await handle(response, with: delegate, appIdentifier: appIdentifier)
            deliveredToApp = true
        }
        try await apply(disposition, to: notification, appIdentifier: appIdentifier, userAction: action)
        let finalLaunch = disposition.outcome == .performDefaultAction ? .foreground : launch
        return ResponseOutcome(response: response, launch: finalLaunch, deliveredToApp: deliveredToApp, disposition: disposition)
    }

    /// The user asked, from a notification or the system's settings, for the app's own notification
    /// settings screen: tells the app's delegate (only apps that asked for
    /// `.providesAppNotificationSettings` get this). Returns whether an app delegate was told.
    @discardableResult
    public func openSettings(appIdentifier: String, notificationIdentifier: String?) async throws -> Bool {
        guard try await appRecord(appIdentifier).settings.providesAppNotificationSettings,
            let delegate = delegates[appIdentifier]?.delegate
        else { return false }
        var notification: DeliveredNotification?
        if let notificationIdentifier {
            notification = try await store.deliveredNotification(appIdentifier: appIdentifier, identifier: notificationIdentifier)
                ?? unlisted.notification(appIdentifier: appIdentifier, identifier: notificationIdentifier)
        }
        await delegate.openSettings(for: notification)
        return true
    }

    /// Hands a response to the app's handler, noting when it started so a handler that never completes is
    /// reported (`reportUnfinishedResponses`).
    private func handle(_ response: NotificationResponse, with delegate: any NotificationCenterDelegate, appIdentifier: String) async -> ResponseDisposition {
        let token = UUID()
        unfinishedResponses[token] = (appIdentifier, response.notification.identifier, clock.now)
        wakeScheduler()  // so it sleeps no longer than this handler's deadline
        defer { unfinishedResponses[token] = nil }
        return await delegate.didReceive(response)
    }

    /// When the oldest running response handler overruns `responseHandlerTimeout`, if one runs.
    var unfinishedResponseDeadline: Date? {
        unfinishedResponses.values.map(\.started).min().map { $0.addingTimeInterval(configuration.responseHandlerTimeout) }
    }

    /// Logs response handlers that have run longer than `responseHandlerTimeout`, once each.
    func reportUnfinishedResponses(now: Date) {
        for (token, entry) in unfinishedResponses where now.timeIntervalSince(entry.started) >= configuration.responseHandlerTimeout {
            log.warning("the response handler of \(entry.appIdentifier) for notification \(entry.notificationIdentifier) has not completed after \(Int(configuration.responseHandlerTimeout)) s")
            unfinishedResponses[token]?.started = .distantFuture
        }
    }

    /// Applies an app's decision that came after the response's standard behaviour was applied (the app
    /// was away; its response was queued and replayed when it came back), to the notification as it is
    /// now. Nothing happens when the notification is no longer delivered.
    ///
    /// - New or cleared buttons are the notification's from now on (in the list, and the next time it
    ///   shows).
    /// - `.dismiss` takes it out of the list, as the app wanted.
    /// - `.keepOnScreen` cannot bring back what the standard behaviour took off the screen without
    ///   alerting the user again, so it keeps the notification where it is (in the list); and
    ///   `.performDefaultAction` changes nothing: the app is running, it is the one that answered.
    public func applyLateDecision(_ disposition: ResponseDisposition, appIdentifier: String, notificationIdentifier: String) async throws {
        guard let notification = try await store.deliveredNotification(appIdentifier: appIdentifier, identifier: notificationIdentifier)
            ?? unlisted.notification(appIdentifier: appIdentifier, identifier: notificationIdentifier)
        else { return }
        let current = try notification.applying(disposition.actions)
        if disposition.outcome == .dismiss {
            try await removeDelivered(appIdentifier: appIdentifier, identifiers: [notificationIdentifier])
        } else if current != notification {
            try await store.updateDelivered(appIdentifier: appIdentifier, current)
        }
    }

    private func apply(_ disposition: ResponseDisposition, to notification: DeliveredNotification, appIdentifier: String, userAction: UserAction) async throws {
        let current = try notification.applying(disposition.actions)
        switch disposition.outcome {
        case .dismiss, .performDefaultAction:
            try await removeDelivered(appIdentifier: appIdentifier, identifiers: [notification.identifier])
        case .keepOnScreen:
            if current != notification { try await store.updateDelivered(appIdentifier: appIdentifier, current) }
            await present(current, appIdentifier: appIdentifier)
        case .standard where userAction == .dismiss:
            // The user cleared it: gone from the screen and from the list, as on iOS.
            try await removeDelivered(appIdentifier: appIdentifier, identifiers: [notification.identifier])
        case .standard:
            if current != notification { try await store.updateDelivered(appIdentifier: appIdentifier, current) }
            // The user's action took the notification off the screen; it stays in the delivered list.
            await presenter.withdraw(appIdentifier: appIdentifier, identifiers: [notification.identifier])
        }
    }
}

extension DeliveredNotification {
    /// The notification with the buttons an app's decision gives it.
    fileprivate func applying(_ actions: ResponseDisposition.Actions) throws(ChimeError) -> DeliveredNotification {
        switch actions {
        case .keep: self
        case .replace(let actions): try replacingActions(actions)
        case .clear: try replacingActions([])
        }
    }
}
