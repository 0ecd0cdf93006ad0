import ChimeCore
public import Foundation

extension NotificationEngine {
    /// The scheduler's driver: asks the timeline what to do, does it, and repeats until stopped.
    ///
    /// It runs `fireLead` ahead of the clock: it asks the timeline as if it were that much later, so each
    /// fire is recorded and prepared before its instant. It shows the fires whose instants came, and
    /// sleeps until the next instant at the latest; while it is busy recording, the presenting task shows
    /// them instead (`runPresenting`).
    func runScheduler() async {
        let lead = configuration.fireLead
        while !Task.isCancelled {
            await noticeClockStep()
            reportUnfinishedResponses(now: clock.now)
            await showAheadFires()
            do {
                switch timeline.nextStep(now: clock.now.addingTimeInterval(lead)) {
                case .load where recordingTask != nil, .sleep where recordingTask != nil:
                    // The batch being recorded comes first: it may schedule repeats, and adds made
                    // meanwhile may change the step.
                    try await finishRecording()
                case .load(let after, let through, let limit):
                    isLoading = true
                    defer { isLoading = false }
                    let page = try await store.pendingFires(after: after, through: through, limit: limit)
                    timeline.didLoad(page, after: after, through: through)
                    let replay = addedWhileLoading
                    addedWhileLoading = []
                    for fire in replay { timeline.didAdd(fire) }
                case .fire(let due):
                    try await fire(due)
                case .sleep(let nextStep):
                    // Also wake for the next fire recorded ahead, and when a response handler would
                    // overrun, to report it on time.
                    let deadline = min(
                        nextStep.addingTimeInterval(-lead), ahead.nextDate() ?? .distantFuture, unfinishedResponseDeadline ?? .distantFuture)
                    let task = Task { [clock] in try await clock.sleep(until: deadline) }
                    sleeper = task
                    driverSleeps(true)
                    _ = try? await task.value  // a cancellation is a wake-up
                    sleeper = nil
                    driverSleeps(false)
                }
            } catch {
                log.warning("scheduler: \(error); retrying in 1 s")
                try? await clock.sleep(until: clock.now.addingTimeInterval(1))
            }
        }
    }

    /// Tells the scheduler about a request's new fire date (added, replaced, or a repeat).
    func schedule(_ fire: ScheduledFire) {
        if isLoading { addedWhileLoading.append(fire) }
        if timeline.didAdd(fire) { wakeScheduler() }
    }

    /// Records the fires the timeline says are due within the lead: each in the store with the request's
    /// next fire date, in one transaction, journaled first; then leaves what was recorded to be shown at
    /// its instant. A fire whose request was removed or moved in the meantime is dropped; the store
    /// refuses to record one fire twice.
    ///
    /// The recording goes on while the driver reads the next batch (`recordingTask`); one batch at a
    /// time, so batches commit in order. A fire recorded before its instant is recorded as delivered at
    /// its instant, so its record and its presentation say the same date.
    private func fire(_ due: [ScheduledFire]) async throws {
        let now = clock.now
        let pending = try await store.pendingRequests(due.map(\.key))
        let byKey = Dictionary(pending.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var records: [FireRecord] = []
        for fire in due {
            guard let request = byKey[fire.key] else { continue }  // removed
            guard request.nextFireDate == fire.date else {
                // Replaced while this fire was on its way: follow the request's real date.
                if let date = request.nextFireDate { schedule(ScheduledFire(date: date, key: fire.key)) }
                continue
            }
            do {
                records.append(try fireRecord(for: request, firedDate: fire.date, now: max(now, fire.date)))
            } catch {
                log.warning("request \(fire.key) could not be delivered: \(error)")
            }
        }
        try await finishRecording()
        guard !records.isEmpty else { return }
        let sequences = journalAhead(records)
        for record in records where record.delivered != nil {
            recording[record.key] = FireInFlight(pending: byKey[record.key]!, date: record.delivered!.date, sequence: sequences[record.key]!)
        }
        recordingTask = Task { await self.record(records, pending: byKey, sequences: sequences) }
    }

    /// Waits for the batch being recorded; rethrows what its recording failed with.
    func finishRecording() async throws {
        await recordingTask?.value
        recordingTask = nil
        if let error = recordingError {
            recordingError = nil
            throw error
        }
    }

    /// Commits a batch of fire records, schedules the repeats, and leaves the fires to be shown at their
    /// instants. On failure nothing was recorded: the fires are read again from the store.
    private func record(_ records: [FireRecord], pending: [RequestKey: PendingRequest], sequences: [RequestKey: UInt64]) async {
        let applied: [FireRecord]
        do {
            applied = try await store.recordFires(records)
        } catch {
            settle(Array(sequences.values))
            for record in records { recording[record.key] = nil }
            timeline.reset()
            recordingError = error
            return
        }
        var locationFired = false
        for record in applied {
            if let next = record.nextFireDate {
                schedule(ScheduledFire(date: next, key: record.key))
            }
            if crossedLocations.removeValue(forKey: record.key) != nil || record.staysPending { locationFired = true }
        }
        // A location trigger fired: it waits for its next crossing, or it was the last one.
        if locationFired { locationTriggersMayHaveChanged() }
        if applied.count < records.count {
            let recorded = Set(applied.map(\.key))
            settle(sequences.filter { !recorded.contains($0.key) }.map(\.value))
        }
        await queueAhead(applied, pending: pending, sequences: sequences)
        for record in records { recording[record.key] = nil }
    }

    /// The rules of fire dates as they stand: the configured misfire tolerance and the user's zone now.
    var fireRules: FireRules {
        FireRules(misfireTolerance: configuration.misfireTolerance, timeZone: timeZone)
    }

    func fireRecord(for pending: PendingRequest, firedDate: Date, now: Date) throws(ChimeError) -> FireRecord {
        try fireRules.fireRecord(for: pending, firedDate: firedDate, now: now)
    }

    /// The request's coming fire dates, from its next one (`FireRules.upcomingFireDates`).
    public func upcomingFireDates(of pending: PendingRequest, count: Int) -> [Date] {
        fireRules.upcomingFireDates(of: pending, count: count)
    }

    func firstFireDate(of request: NotificationRequest, now: Date) -> Date? {
        fireRules.firstFireDate(of: request, now: now)
    }

    /// Recomputes the fire dates of calendar triggers that float with the user's zone, and reloads the
    /// scheduler's window.
    func refloatCalendarTriggers() async throws {
        let now = clock.now
        let rules = fireRules
        var dates: [RequestKey: Date?] = [:]
        for pending in try await store.floatingCalendarRequests() {
            dates[pending.key] = rules.refloatedFireDate(of: pending, now: now)
        }
        try await store.updateNextFireDates(dates)
        timeline.reset()
        wakeScheduler()
    }
}
