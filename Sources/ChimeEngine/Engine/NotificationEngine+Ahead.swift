import ChimeCore
import Foundation

/// Fires recorded ahead of their instants (`EngineConfiguration.fireLead`): shown at the instant from
/// memory, hidden from the delivered list until then, cancelled by a removal or replacement of their
/// request, and journaled so that a killed process's are shown by the next (`PresentationJournal`).
extension NotificationEngine {
    /// The presenting task: while the driver is busy (recording the next fires, loading a page), shows
    /// each fire of `ahead` at its instant. While the driver sleeps it leaves that to the driver, which
    /// wakes at the next instant itself, so one task alone waits on the clock then.
    func runPresenting() async {
        while !Task.isCancelled {
            guard !isDriverAsleep, let deadline = ahead.nextDate() else {
                // Nothing to do: no sleep on the clock; `armPresenting` or `stop` resumes this.
                await withCheckedContinuation { presentingIdle = $0 }
                continue
            }
            if deadline <= clock.now {
                await showAheadFires()
                continue
            }
            let task = Task { [clock] in try await clock.sleep(until: deadline) }
            presentingUntil = deadline
            presentingSleeper = task
            _ = try? await task.value  // a cancellation is a wake-up
            presentingSleeper = nil
            presentingUntil = nil
        }
    }

    /// The driver goes to sleep (it wakes for the next instant itself) or wakes up (the presenting task
    /// takes over the instants until it sleeps again).
    func driverSleeps(_ asleep: Bool) {
        isDriverAsleep = asleep
        if asleep {
            presentingSleeper?.cancel()
        } else {
            armPresenting()
        }
    }

    /// Wakes the presenting task when it idles, or sleeps past the earliest fire waiting.
    private func armPresenting() {
        guard !isDriverAsleep, let next = ahead.nextDate() else { return }
        if let idle = presentingIdle {
            presentingIdle = nil
            idle.resume()
        } else if let until = presentingUntil, next < until {
            presentingSleeper?.cancel()
        }
    }

    /// Hands the fires whose instants came to the presenter, each settled in the journal first.
    func showAheadFires() async {
        let due = ahead.removeDue(at: clock.now)
        guard !due.isEmpty else { return }
        for fire in due {
            settle([fire.sequence])
            guard let state = fire.state else { continue }
            await present(fire.notification, appIdentifier: fire.appIdentifier, app: state.app, threadCount: state.threadCount)
        }
        compactJournal()
    }

    /// Journals the fires of `records` that deliver something, before the store records them; returns the
    /// sequence given to each request.
    func journalAhead(_ records: [FireRecord]) -> [RequestKey: UInt64] {
        var sequences: [RequestKey: UInt64] = [:]
        var entries: [PresentationJournal.Entry] = []
        for record in records {
            guard let delivered = record.delivered else { continue }
            let sequence = takeSequence()
            sequences[record.key] = sequence
            entries.append(.init(sequence: sequence, appIdentifier: record.key.appIdentifier, identifier: delivered.identifier, date: delivered.date))
        }
        do {
            try journal?.ahead(entries)
        } catch {
            log.warning("presentation journal: \(error); fires recorded now are lost to a crash before they show")
        }
        return sequences
    }

    /// Leaves the recorded fires to be shown at their instants, with what their presentation needs.
    /// `pending` has each request as it was pending before its fire.
    func queueAhead(_ applied: [FireRecord], pending: [RequestKey: PendingRequest], sequences: [RequestKey: UInt64]) async {
        // Cancelled while being recorded: the fire never happened.
        let cancelled = applied.filter { recording[$0.key]?.isCancelled == true }
        if !cancelled.isEmpty { await deleteCancelled(cancelled, sequences: sequences) }
        let delivering = applied.filter { $0.delivered != nil && recording[$0.key]?.isCancelled != true }
        let batch = delivering.map { ($0.key.appIdentifier, $0.delivered!) }
        for (record, (appIdentifier, notification, state)) in zip(delivering, await presentationStates(batch)) {
            let before = pending[record.key]
                ?? PendingRequest(appIdentifier: appIdentifier, request: notification.request, addedDate: notification.date, nextFireDate: notification.date)
            ahead.insert(.init(
                sequence: sequences[record.key] ?? takeSequence(), appIdentifier: appIdentifier, notification: notification,
                pending: before, leftPending: record.nextFireDate == nil && !record.staysPending, state: state))
        }
        armPresenting()
    }

    /// Deletes the records of fires cancelled while their batch was being recorded.
    private func deleteCancelled(_ records: [FireRecord], sequences: [RequestKey: UInt64]) async {
        settle(records.compactMap { sequences[$0.key] })
        for (appIdentifier, keys) in Dictionary(grouping: records.map(\.key), by: \.appIdentifier) {
            let identifiers = keys.map(\.requestIdentifier)
            do {
                try await store.removeDelivered(appIdentifier: appIdentifier, identifiers: identifiers)
                try await removeAttachmentsNoLongerUsed(appIdentifier: appIdentifier, identifiers: identifiers)
            } catch {
                log.warning("fires of \(appIdentifier) cancelled before their instants stay in the delivered list: \(error)")
            }
        }
    }

    /// Marks fires as handed to the presenter, or cancelled.
    func settle(_ sequences: [UInt64]) {
        do {
            try journal?.settle(sequences)
        } catch {
            log.warning("presentation journal: \(error)")
        }
    }

    /// Cancels the fires waiting for their instants of these requests (the app's all when `identifiers` is
    /// `nil`): their request was removed or replaced before they showed, so they never happened. Their
    /// delivered records go; what the recording did besides (a content badge applied) stays.
    func cancelAhead(appIdentifier: String, identifiers: [String]?) async {
        if !recording.isEmpty {
            let chosen = identifiers.map(Set.init)
            for key in recording.keys where key.appIdentifier == appIdentifier && chosen?.contains(key.requestIdentifier) ?? true {
                recording[key]?.isCancelled = true
            }
        }
        guard !ahead.isEmpty else { return }
        let cancelled = ahead.cancel(appIdentifier: appIdentifier, identifiers: identifiers)
        guard !cancelled.isEmpty else { return }
        settle(cancelled.map(\.sequence))
        let removed = cancelled.map(\.notification.identifier)
        do {
            try await store.removeDelivered(appIdentifier: appIdentifier, identifiers: removed)
            try await removeAttachmentsNoLongerUsed(appIdentifier: appIdentifier, identifiers: removed)
        } catch {
            log.warning("fires of \(appIdentifier) cancelled before their instants stay in the delivered list: \(error)")
        }
        compactJournal()
    }

    /// Shows, once, the fires a previous process journaled ahead and never settled, if the store still has
    /// their delivered records as written then.
    func showUnsettled() async {
        let entries = unsettledAtStart
        unsettledAtStart = []
        guard !entries.isEmpty else { return }
        var records: [FireRecord] = []
        var sequences: [RequestKey: UInt64] = [:]
        for entry in entries {
            let key = RequestKey(appIdentifier: entry.appIdentifier, requestIdentifier: entry.identifier)
            let stored = try? await store.deliveredNotification(appIdentifier: entry.appIdentifier, identifier: entry.identifier)
            guard let stored, stored.date == entry.date, sequences[key] == nil else {
                settle([entry.sequence])
                continue
            }
            records.append(FireRecord(key: key, firedDate: entry.date, delivered: stored, nextFireDate: nil))
            sequences[key] = entry.sequence
        }
        if !records.isEmpty { log.info("showing \(records.count) notification(s) recorded but not shown before the last stop") }
        await queueAhead(records, pending: [:], sequences: sequences)
    }

    /// Rewrites the journal once nothing waits (or it grew past a megabyte), so it stays small. It keeps
    /// every fire still to be shown: those waiting for their instants, and those being recorded.
    private func compactJournal() {
        guard let journal, journal.size > 0, ahead.isEmpty && recording.isEmpty || journal.size > 1 << 20 else { return }
        var keeping: [PresentationJournal.Entry] = ahead.fires.map {
            .init(sequence: $0.sequence, appIdentifier: $0.appIdentifier, identifier: $0.notification.identifier, date: $0.date)
        }
        for (key, fire) in recording {
            keeping.append(.init(sequence: fire.sequence, appIdentifier: key.appIdentifier, identifier: key.requestIdentifier, date: fire.date))
        }
        do {
            try journal.rewrite(keeping: keeping.sorted { $0.sequence < $1.sequence })
        } catch {
            log.warning("presentation journal: \(error)")
        }
    }

    private func takeSequence() -> UInt64 {
        defer { nextJournalSequence += 1 }
        return nextJournalSequence
    }

    /// Opens the journal and reads what it holds unsettled, rewritten to hold only that.
    static func openJournal(_ url: URL?, log: any EngineLog) -> (PresentationJournal?, [PresentationJournal.Entry]) {
        guard let url else { return (nil, []) }
        do {
            let unsettled = PresentationJournal.unsettled(at: url)
            let journal = try PresentationJournal(url: url)
            try journal.rewrite(keeping: unsettled)
            return (journal, unsettled)
        } catch {
            log.warning("presentation journal: \(error); fires recorded ahead are lost to a crash before they show")
            return (nil, [])
        }
    }

    // MARK: The lists as the fires to come leave them

    /// A page of pending requests (`NotificationStore.pendingPage`) in which the requests of fires
    /// recorded ahead are still pending, at their fire dates, until the instant.
    public func pendingPage(appIdentifier: String?, after position: PendingListPosition?, limit: Int) async throws -> [PendingRequest] {
        let extra = waitingPending(appIdentifier: appIdentifier).count
        let stored = try await store.pendingPage(appIdentifier: appIdentifier, after: position, limit: limit + extra)
        let waiting = waitingPending(appIdentifier: appIdentifier)
        guard !waiting.isEmpty else { return Array(stored.prefix(limit)) }
        // A repeating request is listed at this fire's date until the instant, not also at its next.
        let waitingKeys = Set(waiting.map(\.key))
        // A full page from the store ends where the store's list was cut: nothing beyond it may join.
        let end = stored.count == limit + extra ? stored.last.map(PendingListPosition.init) : nil
        var merged = stored.filter { !waitingKeys.contains($0.key) }
        merged += waiting.filter { request in
            let place = PendingListPosition(request)
            return (position.map { $0 < place } ?? true) && (end.map { !($0 < place) } ?? true)
        }
        merged.sort { PendingListPosition($0) < PendingListPosition($1) }
        return Array(merged.prefix(limit))
    }

    /// The requests of the fires recorded ahead or being recorded (not cancelled), as they were pending
    /// before: pending still, as far as anyone can see.
    func waitingPending(appIdentifier: String?) -> [PendingRequest] {
        var waiting = ahead.pending(appIdentifier: appIdentifier)
        for (key, fire) in recording where !fire.isCancelled && (appIdentifier == nil || key.appIdentifier == appIdentifier) {
            waiting.append(fire.pending)
        }
        return waiting
    }

    /// Whether the delivered notification is a fire that has not reached its instant (recorded ahead, or
    /// being recorded).
    func isWaiting(appIdentifier: String, _ notification: DeliveredNotification) -> Bool {
        if !recording.isEmpty,
            recording[RequestKey(appIdentifier: appIdentifier, requestIdentifier: notification.identifier)]?.date == notification.date
        {
            return true
        }
        return ahead.holds(appIdentifier: appIdentifier, notification)
    }

    /// How many requests are pending (`NotificationStore.pendingTotal`), counting those whose last fire
    /// was recorded ahead and waits for its instant.
    public func pendingTotal(appIdentifier: String?) async throws -> Int {
        try await store.pendingTotal(appIdentifier: appIdentifier) + ahead.countLeftPending(appIdentifier: appIdentifier)
    }

    /// A page of delivered notifications (`NotificationStore.deliveredPage`) without the fires recorded
    /// ahead that have not reached their instants.
    public func deliveredPage(appIdentifier: String?, after position: DeliveredListPosition?, limit: Int) async throws -> [DeliveredListEntry] {
        let waiting = ahead.count(appIdentifier: appIdentifier) + recording.count
        let entries = try await store.deliveredPage(appIdentifier: appIdentifier, after: position, limit: limit + waiting)
        guard !ahead.isEmpty || !recording.isEmpty else { return Array(entries.prefix(limit)) }
        return Array(entries.lazy.filter { !self.isWaiting(appIdentifier: $0.position.appIdentifier, $0.notification) }.prefix(limit))
    }

    /// How many notifications the delivered list has (`NotificationStore.deliveredTotal`), without the
    /// fires recorded ahead that have not reached their instants.
    public func deliveredTotal(appIdentifier: String?) async throws -> Int {
        let total = try await store.deliveredTotal(appIdentifier: appIdentifier)
        return max(0, total - ahead.count(appIdentifier: appIdentifier))
    }
}

