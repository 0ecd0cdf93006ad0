public import ChimeCore
import Foundation

extension NotificationEngine {
    /// How many undated pending requests are read per page while looking for location triggers.
    static let locationPage = 500

    /// A new position from the location source: each pending location trigger whose region it crosses
    /// (per `CircularRegion.state(after:from:)` and the region's entry and exit flags) fires now.
    ///
    /// A crossing dates its request (`NotificationStore.dateUndated`, only while it is still the request
    /// that was crossed) and hands it to the scheduler, which fires it as any due request: recorded once,
    /// then shown; a non-repeating trigger leaves the pending list, a repeating one stays, undated, for its
    /// next crossing. A crash between the two leaves a request due in the past, which the next start fires
    /// under its misfire policy: the crossing is never lost nor fired twice.
    ///
    /// Where the device stands is kept in memory only: after a restart the first fix decides again,
    /// without firing. An invalid fix (no accuracy, off the globe) changes nothing.
    public func locationChanged(to fix: LocationFix) async throws {
        guard fix.isValid else { return }
        let crossedBefore = crossedLocations
        var crossed: [RequestKey: Date] = [:]
        var states: [RequestKey: (added: Date, state: RegionState)] = [:]
        try await forEachLocationTrigger { pending, trigger in
            let known = regionStates[pending.key]
            let previous = known?.added == pending.addedDate ? known!.state : .unknown
            let next = trigger.region.state(after: fix, from: previous)
            states[pending.key] = (pending.addedDate, next)
            if trigger.region.event(from: previous, to: next) != nil { crossed[pending.key] = pending.addedDate }
            return true
        }
        // Kept only once the crossings are stored: if that fails, the next fix sees them again. A request
        // dated by a crossing and not fired yet keeps what it had.
        let now = clock.now
        var dated: [RequestKey] = []
        if !crossed.isEmpty { dated = try await store.dateUndated(crossed, at: now) }
        // Those dated by a crossing and not recorded yet, now or when this began, keep what they had.
        for key in Set(crossedLocations.keys).union(crossedBefore.keys) where states[key] == nil { states[key] = regionStates[key] }
        regionStates = states
        for key in dated {
            log.debug("request \(key) fires: its region was crossed")
            crossedLocations[key] = crossed[key]
            schedule(ScheduledFire(date: now, key: key))
        }
    }

    /// Calls `watcher` whenever location triggers may have come or gone: after an add that holds one, and
    /// after any removal of pending requests (a location source then asks `hasLocationTriggers`).
    public func watchLocationTriggers(_ watcher: @escaping @Sendable () -> Void) {
        locationWatchers.append(watcher)
    }

    func locationTriggersMayHaveChanged() {
        for watcher in locationWatchers { watcher() }
    }

    /// Whether some location trigger waits for a crossing, or fires for one now: what a location source
    /// runs for.
    public func hasLocationTriggers() async throws -> Bool {
        if !crossedLocations.isEmpty {
            // One removed or replaced before its fire was recorded is no longer waited for; only those
            // looked at are dropped (others may have been crossed meanwhile).
            let looked = crossedLocations
            let still = Set(try await stillPending(looked).map(\.key))
            for key in looked.keys where !still.contains(key) && crossedLocations[key] == looked[key] { crossedLocations[key] = nil }
            if !crossedLocations.isEmpty { return true }
        }
        var found = false
        try await forEachLocationTrigger { _, _ in
            found = true
            return false
        }
        return found
    }

    /// The identifiers of each app's pending location triggers, read once per app while a batch of adds
    /// is checked against `EngineConfiguration.locationTriggerLimitPerApp`, and kept up to date with the
    /// adds of the batch accepted so far.
    typealias RegionsPerApp = [String: Set<String>]

    /// The identifiers of the app's pending location triggers once `add` is written, when
    /// `EngineConfiguration.locationTriggerLimitPerApp` is set and they are worth counting (the add holds
    /// a location trigger, or the batch counted the app's already); `nil` otherwise.
    ///
    /// - Throws: `valueOutOfRange` when they would be more than the limit.
    func locationTriggers(after add: QueuedAdd, _ regions: RegionsPerApp) async throws -> Set<String>? {
        guard let limit = configuration.locationTriggerLimitPerApp else { return nil }
        let located = add.requests.filter { if case .location = $0.trigger { true } else { false } }.map(\.identifier)
        let known = regions[add.appIdentifier]
        guard !located.isEmpty || known != nil else { return nil }
        var watched: Set<String>
        if let known { watched = known } else { watched = try await locationTriggerIdentifiers(appIdentifier: add.appIdentifier) }
        // A request added again replaces the one of its identifier, whatever its trigger was.
        watched.subtract(add.requests.map(\.identifier))
        watched.formUnion(located)
        guard watched.count <= max(limit, 0) else {
            throw ChimeError(
                .valueOutOfRange, field: "trigger.region",
                "the app would watch \(watched.count) regions, more than the \(limit) it may (remove some pending location triggers first)")
        }
        return watched
    }

    /// The identifiers of the app's pending requests with a location trigger: waiting, or dated by a
    /// crossing and not fired yet (and not replaced or removed since).
    private func locationTriggerIdentifiers(appIdentifier: String) async throws -> Set<String> {
        var identifiers = Set<String>()
        try await forEachLocationTrigger(appIdentifier: appIdentifier) { pending, _ in
            identifiers.insert(pending.request.identifier)
            return true
        }
        let crossed = crossedLocations.filter { $0.key.appIdentifier == appIdentifier }
        if !crossed.isEmpty {
            for pending in try await stillPending(crossed) {
                if case .location = pending.request.trigger { identifiers.insert(pending.request.identifier) }
            }
        }
        return identifiers
    }

    /// Those of `crossed` (requests dated by a crossing, with the date each was added) still pending as
    /// they were crossed: neither removed nor replaced since.
    private func stillPending(_ crossed: [RequestKey: Date]) async throws -> [PendingRequest] {
        try await store.pendingRequests(Array(crossed.keys)).filter { crossed[$0.key] == $0.addedDate }
    }

    /// Calls `body` with each pending request that waits undated on a location trigger (of one app, or of
    /// every app), page by page, until it returns false.
    private func forEachLocationTrigger(appIdentifier: String? = nil, _ body: (PendingRequest, LocationTrigger) throws -> Bool) async throws {
        var position = PendingListPosition(nextFireDate: nil, appIdentifier: appIdentifier ?? "", requestIdentifier: "")
        while true {
            // Undated requests come last in list order; a position without a date lists only them.
            let page = try await store.pendingPage(appIdentifier: appIdentifier, after: position, limit: Self.locationPage)
            for pending in page {
                guard pending.nextFireDate == nil, case .location(let trigger) = pending.request.trigger else { continue }
                guard try body(pending, trigger) else { return }
            }
            guard page.count == Self.locationPage, let last = page.last else { return }
            position = PendingListPosition(nextFireDate: nil, appIdentifier: last.appIdentifier, requestIdentifier: last.request.identifier)
        }
    }
}
