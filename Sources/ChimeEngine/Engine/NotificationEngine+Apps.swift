import ChimeCore
import Foundation

extension NotificationEngine {
    func appRecord(_ appIdentifier: String) async throws -> AppRecord {
        try await store.app(appIdentifier) ?? AppRecord(appIdentifier: appIdentifier)
    }

    // MARK: Authorization and settings

    /// Asks the user, once, whether the app may notify with `options`; later calls answer from the stored
    /// decision. `.provisional` is granted at once without asking, as on iOS, and a provisional app that
    /// asks again without it is asked for real. When nobody answers, nothing is stored and the answer is no.
    ///
    /// The user may answer the question where it was asked (the desktop's prompt) or through any other door
    /// (`chime apps allow`, the web page: `updateSettings`); the first answer counts, and the question
    /// still open is withdrawn.
    func requestAuthorization(appIdentifier: String, options: AuthorizationOptions) async throws -> Bool {
        let record = try await appRecord(appIdentifier)
        let status = record.settings.authorizationStatus
        let mustAsk = status == .notDetermined || (status == .provisional && !options.contains(.provisional))
        guard mustAsk else { return status.allowsDelivery }

        let allowed: Bool
        if options.contains(.provisional) {
            allowed = true
        } else {
            guard let answer = await firstAnswer(appIdentifier: appIdentifier, options: options) else { return false }
            allowed = answer
        }
        // The answer may have been given elsewhere while the user looked at the prompt; the first wins.
        let decided = try await store.updateApp(appIdentifier) { record in
            guard record.settings.authorizationStatus == status else { return }
            record.requestedOptions = options
            record.settings = allowed ? .granted(options) : .denied(options)
        }
        return decided.settings.authorizationStatus.allowsDelivery
    }

    func settings(appIdentifier: String) async throws -> NotificationSettings {
        try await appRecord(appIdentifier).settings
    }

    /// The user changed the app's settings (from the CLI, the web center, a prompt).
    func updateSettings(appIdentifier: String, _ settings: NotificationSettings) async throws {
        try await store.updateApp(appIdentifier) { $0.settings = settings }
        guard settings.authorizationStatus != .notDetermined else { return }
        for waiter in (authorizationWaiters.removeValue(forKey: appIdentifier) ?? [:]).values {
            waiter.resume(returning: settings.authorizationStatus.allowsDelivery)
        }
    }

    /// The resolver's answer (the desktop's prompt), or a decision made meanwhile through another door,
    /// whichever comes first; `nil` when the resolver has nobody to ask.
    private func firstAnswer(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        enum Answer { case asked(Bool?), elsewhere(Bool?) }
        return await withTaskGroup(of: Answer.self) { group in
            group.addTask { .asked(await self.authorization.decide(appIdentifier: appIdentifier, options: options)) }
            group.addTask { .elsewhere(await self.decisionElsewhere(appIdentifier: appIdentifier)) }
            defer { group.cancelAll() }
            switch await group.next() {
            case .asked(let answer)?: return answer
            case .elsewhere(let answer)?: return answer
            case nil: return nil
            }
        }
    }

    /// Waits for `updateSettings` to decide the app (`nil` when cancelled first).
    private func decisionElsewhere(appIdentifier: String) async -> Bool? {
        nextAuthorizationWaiter += 1
        let number = nextAuthorizationWaiter
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(returning: nil) }
                authorizationWaiters[appIdentifier, default: [:]][number] = continuation
            }
        } onCancel: {
            Task { await self.stopWaitingForDecision(appIdentifier: appIdentifier, number) }
        }
    }

    private func stopWaitingForDecision(appIdentifier: String, _ number: Int) {
        authorizationWaiters[appIdentifier]?.removeValue(forKey: number)?.resume(returning: nil)
        if authorizationWaiters[appIdentifier]?.isEmpty == true { authorizationWaiters[appIdentifier] = nil }
    }

    // MARK: Categories and badge

    func setCategories(appIdentifier: String, _ categories: [NotificationCategory]) async throws {
        var seen: Set<String> = []
        // Registering a set: one category per identifier, the last given wins, as with Apple's Set.
        let unique = Array(categories.reversed().filter { seen.insert($0.identifier).inserted }.reversed())
        try await store.updateApp(appIdentifier) { $0.categories = unique }
    }

    func categories(appIdentifier: String) async throws -> [NotificationCategory] {
        try await appRecord(appIdentifier).categories
    }

    func setBadgeCount(appIdentifier: String, _ count: Int) async throws {
        guard count >= 0 else {
            throw ChimeError(.badgeInputInvalid, field: "badge", "the badge count must be 0 or more")
        }
        try await store.updateApp(appIdentifier) { $0.badgeCount = count }
        await presenter.updateBadge(appIdentifier: appIdentifier, count: count)
    }

    // MARK: Pending requests

    /// Validates the requests, moves their attachments into the store, and schedules them, replacing
    /// pending requests with the same identifiers. All or nothing: returns once every request is durable,
    /// or throws having scheduled none.
    ///
    /// An add made while no other is being written is written at once by its own caller: one trip to the
    /// store, no task in between. Adds made while one is being written wait and are then written together,
    /// in the order they were made, with one store call (see `writeQueuedAdds`).
    ///
    /// - Returns: The requests as they were stored (attachments moved into the store, first fire dates).
    @discardableResult
    func add(appIdentifier: String, _ requests: [NotificationRequest]) async throws -> [PendingRequest] {
        let now = clock.now
        for request in requests { try request.validateForScheduling(at: now) }
        let add = QueuedAdd(appIdentifier: appIdentifier, requests: requests, now: now)
        guard !isWritingAdds else {
            return try await withCheckedThrowingContinuation { continuation in
                queuedAdds.append((add, continuation))
            }
        }
        isWritingAdds = true
        let outcome = await write([add])[0]
        if queuedAdds.isEmpty {
            isWritingAdds = false
        } else {
            // Those that queued meanwhile are written by a task of their own, so this caller returns now.
            Task { await writeQueuedAdds() }
        }
        return try outcome.get()
    }

    /// Writes the queued adds until none is left, then lets the next add write itself.
    func writeQueuedAdds() async {
        while !queuedAdds.isEmpty {
            let batch = queuedAdds
            queuedAdds = []
            let outcomes = await write(batch.map(\.add))
            for ((_, continuation), outcome) in zip(batch, outcomes) { continuation.resume(with: outcome) }
        }
        isWritingAdds = false
    }

    /// Writes `batch` in one store call: attachments are moved into the store, then the requests of every
    /// add are written in one transaction that also checks, against the apps' records as they are then,
    /// that no app is denied. If that call fails, each add is written alone, so only one at fault fails.
    ///
    /// - Returns: Each add's stored requests or its error, in the order of `batch`.
    private func write(_ batch: [QueuedAdd]) async -> [Result<[PendingRequest], any Error>] {
        var outcomes = [Result<[PendingRequest], any Error>](repeating: .failure(CancellationError()), count: batch.count)
        var accepted: [(index: Int, pending: [PendingRequest], moved: [MovedAttachments])] = []
        var regions = RegionsPerApp()
        for (index, add) in batch.enumerated() {
            do {
                let watched = try await locationTriggers(after: add, regions)
                let (pending, moved) = try prepare(add)
                accepted.append((index, pending, moved))
                if let watched { regions[add.appIdentifier] = watched }
            } catch {
                outcomes[index] = .failure(error)
            }
        }
        guard !accepted.isEmpty else { return outcomes }
        var written: [(index: Int, pending: [PendingRequest])] = []
        do {
            // One add's requests as they are: flattening copies every request, 100,000 of them in a batch.
            try await store.addPending(accepted.count == 1 ? accepted[0].pending : accepted.flatMap(\.pending), admitting: Self.admitAdds)
            written = accepted.map { ($0.index, $0.pending) }
        } catch {
            if accepted.count == 1 {
                moveBack(accepted[0].moved)
                outcomes[accepted[0].index] = .failure(error)
                return outcomes
            }
            for (index, pending, moved) in accepted {
                do {
                    try await store.addPending(pending, admitting: Self.admitAdds)
                    written.append((index, pending))
                } catch {
                    moveBack(moved)
                    outcomes[index] = .failure(error)
                }
            }
        }
        for (_, pending) in written { schedule(pending) }
        if !ahead.isEmpty || !recording.isEmpty {
            // A replaced request's fire waiting for its instant never happens, as before a fire.
            for (index, pending) in written {
                await cancelAhead(appIdentifier: batch[index].appIdentifier, identifiers: pending.map(\.request.identifier))
            }
        }
        await keepPendingLimit(appIdentifiers: Set(written.map { batch[$0.index].appIdentifier }))
        for (index, pending) in written { outcomes[index] = .success(pending) }
        // A location trigger came, or one watched was replaced (perhaps by a timed request).
        // Most adds watch nothing: then no request's key is worth hashing (100,000 of them in a batch).
        let watchesAny = !regionStates.isEmpty || !crossedLocations.isEmpty
        let watched = { (key: RequestKey) in self.regionStates[key] != nil || self.crossedLocations[key] != nil }
        if written.contains(where: { $0.pending.contains { if case .location = $0.request.trigger { true } else { watchesAny && watched($0.key) } } }) {
            locationTriggersMayHaveChanged()
        }
        return outcomes
    }

    /// The rule for adds: an app the user denied adds nothing (an app not yet asked may add, as on iOS;
    /// its notifications are not shown until it is allowed).
    @Sendable private static func admitAdds(_ record: AppRecord) throws {
        guard record.settings.authorizationStatus != .denied else {
            throw ChimeError(.notificationsNotAllowed, field: "authorization", "the user has not allowed this app's notifications")
        }
    }

    /// With `EngineConfiguration.pendingLimitPerApp` set, removes each app's pending requests beyond it,
    /// those that fire last, as iOS drops them: silently. Before the adds return, so callers never see
    /// more. A failure here is logged, not the add's: the requests were added.
    private func keepPendingLimit(appIdentifiers: Set<String>) async {
        guard let limit = configuration.pendingLimitPerApp else { return }
        for appIdentifier in appIdentifiers.sorted() {
            do {
                let pending = try await store.pendingRequests(appIdentifier: appIdentifier)
                guard pending.count > limit else { continue }
                try await removePending(appIdentifier: appIdentifier, identifiers: pending.dropFirst(max(limit, 0)).map(\.request.identifier))
            } catch {
                log.warning("the pending requests of \(appIdentifier) beyond the limit of \(limit) could not be removed: \(error)")
            }
        }
    }

    /// Moves an add's attachments into the store and makes its pending requests; on failure, moves back
    /// what it had moved.
    private func prepare(_ add: QueuedAdd) throws -> ([PendingRequest], [MovedAttachments]) {
        var moved: [MovedAttachments] = []
        var pending: [PendingRequest] = []
        pending.reserveCapacity(add.requests.count)
        do {
            for request in add.requests {
                var stored = request
                if let vault, !request.content.attachments.isEmpty {
                    var content = request.content
                    content.attachments = try vault.moveIn(request.content.attachments, appIdentifier: add.appIdentifier, requestIdentifier: request.identifier)
                    moved.append((content.attachments, request.content.attachments))
                    stored = try NotificationRequest(
                        identifier: request.identifier, content: content, trigger: request.trigger, misfirePolicy: request.misfirePolicy)
                }
                pending.append(PendingRequest(
                    appIdentifier: add.appIdentifier, request: stored, addedDate: add.now, nextFireDate: firstFireDate(of: request, now: add.now)))
            }
        } catch {
            for (stored, original) in moved { vault?.moveBack(stored, to: original) }
            throw error
        }
        return (pending, moved)
    }

    private func schedule(_ pending: [PendingRequest]) {
        for request in pending {
            if let date = request.nextFireDate {
                schedule(ScheduledFire(date: date, key: request.key))
            }
        }
    }

    /// Moves back the attachments of an add that failed.
    private func moveBack(_ moved: [MovedAttachments]) {
        for (stored, original) in moved { vault?.moveBack(stored, to: original) }
    }

    /// The app's pending requests, with those whose last fire was recorded ahead and waits for its
    /// instant: until then they have not fired.
    func pendingRequests(appIdentifier: String) async throws -> [NotificationRequest] {
        let stored = try await store.pendingRequests(appIdentifier: appIdentifier).map(\.request)
        let waiting = waitingPending(appIdentifier: appIdentifier).sorted { PendingListPosition($0) < PendingListPosition($1) }.map(\.request)
        guard !waiting.isEmpty else { return stored }
        let waitingIdentifiers = Set(waiting.map(\.identifier))
        return waiting + stored.filter { !waitingIdentifiers.contains($0.identifier) }
    }

    func removePending(appIdentifier: String, identifiers: [String]?) async throws {
        let removed = try await store.removePending(appIdentifier: appIdentifier, identifiers: identifiers)
        for key in removed {
            timeline.didRemove(key)
        }
        if !removed.isEmpty { locationTriggersMayHaveChanged() }
        await cancelAhead(appIdentifier: appIdentifier, identifiers: identifiers)
        try await removeAttachmentsNoLongerUsed(appIdentifier: appIdentifier, identifiers: removed.map(\.requestIdentifier))
    }

    // MARK: Delivered notifications

    /// The app's delivered list: without the fires recorded ahead that have not reached their instants.
    func deliveredNotifications(appIdentifier: String) async throws -> [DeliveredNotification] {
        let listed = try await store.deliveredNotifications(appIdentifier: appIdentifier)
        guard !ahead.isEmpty || !recording.isEmpty else { return listed }
        return listed.filter { !isWaiting(appIdentifier: appIdentifier, $0) }
    }

    func removeDelivered(appIdentifier: String, identifiers: [String]?) async throws {
        let listed = try await store.removeDelivered(appIdentifier: appIdentifier, identifiers: identifiers)
        let onScreenOnly = unlisted.remove(appIdentifier: appIdentifier, identifiers: identifiers)
        let removed = Array(Set(listed + onScreenOnly))
        guard !removed.isEmpty else { return }
        await presenter.withdraw(appIdentifier: appIdentifier, identifiers: removed)
        try await removeAttachmentsNoLongerUsed(appIdentifier: appIdentifier, identifiers: removed)
    }

    func missedFires(appIdentifier: String) async throws -> [MissedFire] {
        try await store.missedFires(appIdentifier: appIdentifier)
    }

    func clearMissedFires(appIdentifier: String) async throws {
        try await store.clearMissedFires(appIdentifier: appIdentifier)
    }

    /// Deletes the attachment folders of requests that are neither pending nor delivered any more.
    func removeAttachmentsNoLongerUsed(appIdentifier: String, identifiers: [String]) async throws {
        guard let vault else { return }
        let stillPending = Set(try await store.pendingRequests(identifiers.map { RequestKey(appIdentifier: appIdentifier, requestIdentifier: $0) }).map(\.request.identifier))
        for identifier in identifiers where !stillPending.contains(identifier) {
            if try await store.deliveredNotification(appIdentifier: appIdentifier, identifier: identifier) == nil,
                unlisted.notification(appIdentifier: appIdentifier, identifier: identifier) == nil
            {
                vault.removeFolder(appIdentifier: appIdentifier, requestIdentifier: identifier)
            }
        }
    }
}
