import ChimeCore
import ChimeEngine
import Synchronization

extension DesktopPresenter {
    /// What the server reported, in the order it came; only the presenter's event task calls it.
    func handle(_ event: NotificationServerLink.Event) {
        let decisions = state.withLock { state in
            switch event {
            case .signal(let signal): state.shown.handle(signal)
            case .serverChanged: state.shown.serverChanged()
            }
        }
        shownChanged()
        carryOut(decisions)
    }

    func carryOut(_ decisions: [ShownNotifications.Decision]) {
        for decision in decisions {
            switch decision {
            case .respond(let key, let action):
                respond(action, to: key)
            case .replyNeeded(let key, let action):
                let request = ReplyRequest(
                    appIdentifier: key.appIdentifier, notificationIdentifier: key.identifier, actionIdentifier: action.identifier,
                    actionTitle: action.title, placeholder: action.placeholder)
                if let onReplyNeeded = configuration.onReplyNeeded {
                    onReplyNeeded(request)
                } else {
                    log.warning(
                        "\(key.appIdentifier)/\(key.identifier): action \(action.identifier) takes a typed reply, which this notification server cannot collect; the notification stays delivered for another front end to answer")
                }
            case .answer(let number, let allowed):
                let prompt = state.withLock { $0.prompts.removeValue(forKey: number) }
                prompt?.resume(returning: allowed)
            case .close(let serverID):
                post(.closeServerNotification(serverID))
            case .unknownKey(let key, let actionKey):
                log.warning("\(key.appIdentifier)/\(key.identifier): the notification server reported action key \(actionKey), which was not offered")
            }
        }
    }

    /// Sends the user's answer to the engine in a task of its own, so the server's next signals are not
    /// held up by the app's handler.
    private func respond(_ action: UserAction, to key: NotificationKey) {
        let engine = state.withLock { state in
            state.runningResponses += 1
            return state.engine
        }
        Task {
            defer { responseDone() }
            let name = "\(key.appIdentifier)/\(key.identifier)"
            guard let engine else {
                return log.warning("the answer (\(Self.describe(action))) to \(name) was dropped: the presenter is not connected to an engine")
            }
            do {
                let outcome = try await engine.respond(appIdentifier: key.appIdentifier, notificationIdentifier: key.identifier, action: action)
                configuration.onResponse?(key.appIdentifier, outcome)
            } catch {
                log.warning("the answer (\(Self.describe(action))) to \(name) was not taken: \(error)")
            }
        }
    }

    private func responseDone() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.runningResponses -= 1
            return Self.takeIdleWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The answer for the log, without the user's text.
    static func describe(_ action: UserAction) -> String {
        switch action {
        case .open: "open"
        case .dismiss: "dismiss"
        case .action(let identifier): "action \(identifier)"
        case .reply(let identifier, _): "reply to \(identifier)"
        }
    }
}
