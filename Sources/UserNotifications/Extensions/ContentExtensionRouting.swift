#if !canImport(Darwin)
import ChimeCore
import ChimeEngine
import Foundation

extension UNUserNotificationCenter {
    /// Registers the content extension of categories: `makeExtension` makes one extension object per
    /// delivered notification of those categories (Chime; on iOS an extension's Info.plist names its
    /// categories under `UNNotificationExtensionCategory`).
    ///
    /// ```swift
    /// center.registerContentExtension(forCategoryIdentifiers: ["rating"]) { NotificationViewController() }
    /// ```
    ///
    /// See `UNNotificationContentExtension` for how responses, actions and completion options map onto
    /// iOS. Registering again for a category replaces its extension for notifications loaded afterwards.
    public func registerContentExtension(
        forCategoryIdentifiers identifiers: [String], _ makeExtension: @escaping @Sendable () -> any UNNotificationContentExtension
    ) {
        state.withLock { state in
            for identifier in identifiers { state.extensionFactories[identifier] = makeExtension }
        }
        updateEngineDelegate()
    }

    /// Hands an action response to the notification's extension, loading it first, and turns what the
    /// extension did into the engine's disposition.
    func routeToExtension(
        _ response: UNNotificationResponse, delivered: DeliveredNotification, factory: @escaping @Sendable () -> any UNNotificationContentExtension
    ) async -> ResponseDisposition {
        let identifier = delivered.identifier
        let loaded: LoadedExtension
        if let existing = state.withLock({ $0.loadedExtensions[identifier] }) {
            loaded = existing
        } else {
            loaded = await loadExtension(for: delivered, notification: response.notification, factory: factory)
        }
        let option = await call(loaded, with: response, identifier: identifier)
        return await disposition(after: loaded, response: response, option: option, identifier: identifier)
    }

    /// Makes the extension, gives it its context (the notification's current actions), and calls
    /// `didReceive(_ notification:)`.
    private func loadExtension(
        for delivered: DeliveredNotification, notification: UNNotification, factory: @escaping @Sendable () -> any UNNotificationContentExtension
    ) async -> LoadedExtension {
        // The engine is calling us, so ask it directly: operations queued on the center may wait for it.
        let categories = (try? await backend.openedCenter?.notificationCategories()) ?? []
        let category = categories.first { $0.identifier == delivered.request.content.categoryIdentifier }
        let context = UNNotificationContentExtensionContext(actions: delivered.actions(in: category).map(UNNotificationAction.make))
        let object = await withCheckedContinuation { (continuation: CheckedContinuation<Unchecked<any UNNotificationContentExtension>, Never>) in
            onDelegateQueue {
                let object = factory()
                UNNotificationContentExtensionContext.attach(context, to: object)
                object.didReceive(notification)
                continuation.resume(returning: Unchecked(object))
            }
        }
        let loaded = LoadedExtension(object: object, context: context)
        state.withLock { $0.loadedExtensions[delivered.identifier] = loaded }
        return loaded
    }

    /// Calls the extension's `didReceive(_:completionHandler:)`; returns the option it completed with
    /// before returning, or `nil`. A later completion is applied when it comes.
    private func call(_ loaded: LoadedExtension, with response: UNNotificationResponse, identifier: String) async
        -> UNNotificationContentExtensionResponseOption?
    {
        let gate = CompletionGate()
        return await withCheckedContinuation { continuation in
            onDelegateQueue {
                loaded.object.value.didReceive(response) { option in
                    if gate.complete(with: option) == .late {
                        self.applyLate(option, response: response, identifier: identifier)
                    }
                }
                continuation.resume(returning: gate.close())
            }
        }
    }

    private func disposition(
        after loaded: LoadedExtension, response: UNNotificationResponse, option: UNNotificationContentExtensionResponseOption?, identifier: String
    ) async -> ResponseDisposition {
        let (actions, applied, performsDefaultAction, dismisses) = loaded.context.state.withLock {
            ($0.actions, $0.appliedActions, $0.performsDefaultAction, $0.dismisses)
        }
        var disposition = ResponseDisposition()
        var nowApplied = applied
        if actions != applied {
            do {
                let converted = try actions.map { action throws(ChimeError) in try action.notificationAction() }
                disposition.actions = converted.isEmpty ? .clear : .replace(converted)
                nowApplied = actions
            } catch {
                log.warning("UserNotifications: the content extension's actions for notification \(identifier) were not applied: \(error)")
            }
        }
        if performsDefaultAction {
            await tellDelegate(UNNotificationResponse(notification: response.notification, actionIdentifier: UNNotificationDefaultActionIdentifier))
            disposition.outcome = .performDefaultAction
        } else if option == .dismissAndForwardAction {
            await tellDelegate(response)
            disposition.outcome = .dismiss
        } else if option == .dismiss || dismisses {
            disposition.outcome = .dismiss
        } else {
            disposition.outcome = .keepOnScreen
        }

        guard disposition.outcome == .keepOnScreen else {
            unloadExtensions(for: [identifier])
            return disposition
        }
        // From now on the context's requests are applied when they are made.
        let lateRequests: @Sendable (UNNotificationContentExtensionContext.LateRequest) -> Void = { [weak self] request in
            self?.applyLate(request, response: response, identifier: identifier)
        }
        let missed = loaded.context.state.withLock { state -> UNNotificationContentExtensionContext.LateRequest? in
            state.appliedActions = nowApplied
            state.lateRequests = lateRequests
            if state.performsDefaultAction { return .performDefaultAction }
            return state.dismisses ? .dismiss : nil
        }
        if let missed { lateRequests(missed) }
        return disposition
    }

    private func applyLate(_ option: UNNotificationContentExtensionResponseOption, response: UNNotificationResponse, identifier: String) {
        switch option {
        case .doNotDismiss:
            break
        case .dismiss:
            applyLate(UNNotificationContentExtensionContext.LateRequest.dismiss, response: response, identifier: identifier)
        case .dismissAndForwardAction:
            Task {
                await tellDelegate(response)
                removeDeliveredNotifications(withIdentifiers: [identifier])
            }
        }
    }

    private func applyLate(_ request: UNNotificationContentExtensionContext.LateRequest, response: UNNotificationResponse, identifier: String) {
        switch request {
        case .dismiss:
            removeDeliveredNotifications(withIdentifiers: [identifier])
        case .performDefaultAction:
            Task {
                await tellDelegate(UNNotificationResponse(notification: response.notification, actionIdentifier: UNNotificationDefaultActionIdentifier))
                removeDeliveredNotifications(withIdentifiers: [identifier])
            }
        }
    }

    /// Lets go of the extensions of notifications that left the screen; `nil` for all.
    func unloadExtensions(for identifiers: [String]?) {
        let unloaded = state.withLock { state -> [LoadedExtension] in
            let keys = identifiers ?? Array(state.loadedExtensions.keys)
            return keys.compactMap { state.loadedExtensions.removeValue(forKey: $0) }
        }
        for loaded in unloaded {
            loaded.context.state.withLock { $0.lateRequests = nil }
            UNNotificationContentExtensionContext.detach(from: loaded.object.value)
        }
    }
}

/// Tells a completion handler called while the extension's method runs from one called after it returned.
private final class CompletionGate: Sendable {
    enum Arrival {
        case early, late, ignored
    }

    private let state = Locked<(returned: Bool, completed: Bool, option: UNNotificationContentExtensionResponseOption?)>((false, false, nil))

    /// Records a call of the completion handler; only the first call counts.
    func complete(with option: UNNotificationContentExtensionResponseOption) -> Arrival {
        state.withLock { state in
            guard !state.completed else { return .ignored }
            state.completed = true
            guard !state.returned else { return .late }
            state.option = option
            return .early
        }
    }

    /// The method returned: the option it completed with, if it did.
    func close() -> UNNotificationContentExtensionResponseOption? {
        state.withLock { state in
            state.returned = true
            return state.option
        }
    }
}
#endif
