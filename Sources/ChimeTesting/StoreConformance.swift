import ChimeCore
public import ChimeEngine
import Foundation

/// The behaviour every `NotificationStore` must have, as checks that run against any store.
///
/// Each check takes a fresh, empty store and throws `StoreConformanceFailure` when the store misbehaves.
/// Run them all from your test framework, one test per check:
///
/// ```swift
/// @Test(arguments: StoreConformance.checks)
/// func myStoreConforms(check: StoreConformance.Check) async throws {
///     try await check.run(on: MyStore(path: temporaryFile()))
/// }
/// ```
///
/// Durability across a crash cannot be checked in one process; stores that claim it need their own
/// crash test (the SQLite store has one).
public enum StoreConformance {
    /// One requirement, runnable against a fresh store.
    public struct Check: Sendable, CustomStringConvertible {
        public let name: String
        let body: @Sendable (any NotificationStore) async throws -> Void

        public func run(on store: any NotificationStore) async throws {
            try await body(store)
        }

        public var description: String { name }
    }

    public static let checks: [Check] = [
        Check(name: "apps are saved, replaced and listed", body: appsAreSavedAndListed),
        Check(name: "concurrent changes to an app's fields all survive", body: appUpdatesAreAtomic),
        Check(name: "a pending request round-trips every field", body: pendingRoundTrips),
        Check(name: "adding the same identifier replaces the pending request", body: addReplaces),
        Check(name: "pending requests are listed by fire date, undated last", body: pendingOrder),
        Check(name: "removing pending requests returns their keys", body: removePending),
        Check(name: "pending fires page by date with coverage and limit", body: pendingFiresPaging),
        Check(name: "floating calendar requests are found and re-dated", body: floatingCalendar),
        Check(name: "a fire is recorded once, only with its fired date", body: recordFiresOnce),
        Check(name: "a recorded fire delivers, badges, advances and remembers misses", body: recordFiresEffects),
        Check(name: "delivered notifications are listed, counted, updated and removed", body: deliveredLifecycle),
        Check(name: "apps do not see each other's requests", body: appsAreIsolated),
        Check(name: "a redelivery replaces the notification and moves it to its new thread", body: redeliveryMovesThread),
        Check(name: "pending pages of any size list every app's requests in order", body: pendingPagesListEveryApp),
        Check(name: "one app's pending pages hold its requests only, and totals count per app", body: pendingPagesOfOneApp),
        Check(name: "pending pages go on after the request at a page boundary is removed", body: pendingPagesSurviveRemoval),
        Check(name: "delivered pages list apps in order, newest first, with totals", body: deliveredPages),
        Check(name: "an undated request is dated only while undated and the same request", body: undatedRequestsAreDatedOnce),
        Check(name: "a fire can leave its request pending without a date", body: aFireCanLeaveTheRequestUndated),
    ]

    // MARK: Fixtures

    static let app = "com.example.conformance"
    static let t0 = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z

    static func request(_ identifier: String, thread: String = "", badge: Int? = nil, trigger: NotificationTrigger? = nil) throws -> NotificationRequest {
        var content = NotificationContent(title: "Title \(identifier)", subtitle: "Subtitle", body: .localized(key: "BODY", arguments: ["x"]))
        content.threadIdentifier = thread
        content.badge = badge
        content.sound = try .criticalNamed("alarm.caf", volume: 0.5)
        content.userInfo = ["id": .string(identifier), "n": 42, "nested": ["a": [1, 2.5, true, nil]]]
        content.categoryIdentifier = "CATEGORY"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.75
        return try NotificationRequest(identifier: identifier, content: content, trigger: trigger, misfirePolicy: .skip)
    }

    static func pending(_ identifier: String, app: String = app, at seconds: TimeInterval?, thread: String = "", badge: Int? = nil, trigger: NotificationTrigger? = nil) throws -> PendingRequest {
        PendingRequest(
            appIdentifier: app, request: try request(identifier, thread: thread, badge: badge, trigger: trigger), addedDate: t0,
            nextFireDate: seconds.map { t0.addingTimeInterval($0) })
    }

    static func key(_ identifier: String, app: String = app) -> RequestKey {
        RequestKey(appIdentifier: app, requestIdentifier: identifier)
    }

    /// Three apps' requests for the list pages: equal fire dates within and across apps, a date one
    /// representable step after another, and requests that never fire by themselves.
    static func listFixture() throws -> [PendingRequest] {
        let ten = t0.addingTimeInterval(10)
        let tenAndAStep = Date(timeIntervalSinceReferenceDate: ten.timeIntervalSinceReferenceDate.nextUp)
        let requests: [(app: String, identifier: String, date: Date?)] = [
            ("list.b", "x", ten), ("list.a", "y", ten), ("list.c", "u3", nil), ("list.a", "b", ten),
            ("list.c", "a", t0.addingTimeInterval(5)), ("list.a", "z", t0.addingTimeInterval(20)), ("list.b", "u2", nil),
            ("list.c", "f", tenAndAStep), ("list.a", "u1", nil), ("list.b", "u0", nil), ("list.b", "a", t0.addingTimeInterval(30)),
            ("list.a", "late", t0.addingTimeInterval(40)),
        ]
        return try requests.map { app, identifier, date in
            PendingRequest(appIdentifier: app, request: try request(identifier), addedDate: t0, nextFireDate: date)
        }
    }

    /// `listFixture()` in list order, written out from the rules: by date, undated last, then app, then
    /// identifier.
    static let listOrder = [
        "list.c/a",  // 5 s
        "list.a/b", "list.a/y", "list.b/x",  // 10 s
        "list.c/f",  // a step after 10 s
        "list.a/z",  // 20 s
        "list.b/a",  // 30 s
        "list.a/late",  // 40 s
        "list.a/u1", "list.b/u0", "list.b/u2", "list.c/u3",  // undated
    ]

    /// The pending list read in pages of `size` from `position` on, up to the first page that is not full.
    static func pendingPages(
        _ store: any NotificationStore, appIdentifier: String?, size: Int, after position: PendingListPosition? = nil, line: Int = #line
    ) async throws -> [PendingRequest] {
        var listed: [PendingRequest] = []
        var position = position
        for _ in 0...1000 {
            let page = try await store.pendingPage(appIdentifier: appIdentifier, after: position, limit: size)
            try expect(page.count <= size, "a page of at most \(size) holds \(page.count)", line: line)
            listed += page
            guard page.count == size, let last = page.last else { return listed }
            position = PendingListPosition(last)
        }
        throw StoreConformanceFailure(message: "pages of \(size) do not end", line: line)
    }

    /// The delivered list read in pages of `size` from `position` on, up to the first page that is not full.
    static func deliveredPages(
        _ store: any NotificationStore, appIdentifier: String?, size: Int, after position: DeliveredListPosition? = nil, line: Int = #line
    ) async throws -> [DeliveredListEntry] {
        var listed: [DeliveredListEntry] = []
        var position = position
        for _ in 0...1000 {
            let page = try await store.deliveredPage(appIdentifier: appIdentifier, after: position, limit: size)
            try expect(page.count <= size, "a page of at most \(size) holds \(page.count)", line: line)
            listed += page
            guard page.count == size, let last = page.last else { return listed }
            position = last.position
        }
        throw StoreConformanceFailure(message: "pages of \(size) do not end", line: line)
    }

    /// Delivers the app's request through a recorded fire at `seconds` after `t0`, as the engine does.
    static func deliver(_ identifier: String, app: String, at seconds: TimeInterval, to store: any NotificationStore) async throws {
        let pendingRequest = try pending(identifier, app: app, at: seconds)
        try await store.addPending([pendingRequest])
        let notification = try DeliveredNotification(request: pendingRequest.request, date: t0.addingTimeInterval(seconds))
        let fired = t0.addingTimeInterval(seconds)
        _ = try await store.recordFires([FireRecord(key: pendingRequest.key, firedDate: fired, delivered: notification, nextFireDate: nil)])
    }

    static func expect(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) throws {
        if !condition { throw StoreConformanceFailure(message: message(), line: line) }
    }

    // MARK: Checks

    static func appsAreSavedAndListed(_ store: any NotificationStore) async throws {
        try expect(try await store.app(app) == nil, "an unknown app has no record")
        var record = AppRecord(appIdentifier: app, settings: .granted([.alert, .sound]), requestedOptions: [.alert, .sound])
        record.categories = [try NotificationCategory(identifier: "CATEGORY", actions: [NotificationAction(identifier: "OK", title: "OK")], options: [.customDismissAction])]
        try await store.saveApp(record)
        record.badgeCount = 7
        try await store.saveApp(record)
        try await store.saveApp(AppRecord(appIdentifier: "a.first"))
        try expect(try await store.app(app) == record, "the saved record comes back equal, the second save replacing the first")
        try expect(try await store.allApps().map(\.appIdentifier) == ["a.first", app], "apps are listed by identifier")
    }

    static func appUpdatesAreAtomic(_ store: any NotificationStore) async throws {
        let category = try NotificationCategory(identifier: "CATEGORY", actions: [])
        // Three fields changed at once, many times over: a change made from a stale copy would lose one.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 1...20 {
                group.addTask { try await store.updateApp(app) { $0.badgeCount += 1 } }
                group.addTask { try await store.updateApp(app) { $0.categories = [category] } }
                group.addTask { try await store.updateApp(app) { $0.settings = .granted([.alert]) } }
            }
            try await group.waitForAll()
        }
        let record = try await store.app(app)
        try expect(record?.badgeCount == 20, "every badge increment survives (\(record?.badgeCount ?? -1) of 20)")
        try expect(record?.categories == [category], "the categories survive the other changes")
        try expect(record?.settings.authorizationStatus == .authorized, "the settings survive the other changes")

        struct Refused: Error {}
        do {
            try await store.updateApp(app) { record in
                record.badgeCount = 99
                throw Refused()
            }
            try expect(false, "an error thrown by the change reaches the caller")
        } catch is Refused {}
        try expect(try await store.app(app)?.badgeCount == 20, "a change that throws writes nothing")
        try expect(try await store.updateApp("new.app") { $0.badgeCount = 1 }.appIdentifier == "new.app", "an app without a record gets one")
    }

    static func pendingRoundTrips(_ store: any NotificationStore) async throws {
        let calendar = try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 30, weekday: 2), repeats: true)
        let original = try pending("round", at: 60, trigger: .calendar(calendar))
        try await store.addPending([original])
        try expect(try await store.pendingRequests([key("round")]) == [original], "every field of the request comes back equal")
    }

    static func addReplaces(_ store: any NotificationStore) async throws {
        try await store.addPending([try pending("a", at: 60)])
        let replacement = try pending("a", at: 120, thread: "new")
        try await store.addPending([replacement])
        try expect(try await store.pendingRequests(appIdentifier: app) == [replacement], "one request, the replacement")
        try expect(try await store.pendingFires(after: nil, through: t0.addingTimeInterval(1000), limit: 10).map(\.date) == [t0.addingTimeInterval(120)],
            "the index follows the replacement's fire date")
    }

    static func pendingOrder(_ store: any NotificationStore) async throws {
        try await store.addPending([try pending("c", at: 30), try pending("undated", at: nil), try pending("b", at: 10), try pending("a", at: 30)])
        let order = try await store.pendingRequests(appIdentifier: app).map(\.request.identifier)
        try expect(order == ["b", "a", "c", "undated"], "by fire date, then identifier, undated last (got \(order))")
    }

    static func removePending(_ store: any NotificationStore) async throws {
        try await store.addPending([try pending("a", at: 10), try pending("b", at: 20), try pending("c", at: 30)])
        let removed = try await store.removePending(appIdentifier: app, identifiers: ["b", "missing"])
        try expect(removed == [key("b")], "only existing requests are reported removed")
        let rest = try await store.removePending(appIdentifier: app, identifiers: nil)
        try expect(Set(rest) == [key("a"), key("c")], "removing all reports the rest")
        try expect(try await store.pendingRequests(appIdentifier: app).isEmpty, "nothing is left")
    }

    static func pendingFiresPaging(_ store: any NotificationStore) async throws {
        try await store.addPending([
            try pending("d", at: 20), try pending("a", at: 10), try pending("c", at: 10), try pending("b", at: 10),
            try pending("late", at: 5000), try pending("undated", at: nil),
        ])
        let through = t0.addingTimeInterval(100)
        let first = try await store.pendingFires(after: nil, through: through, limit: 2)
        try expect(first.map(\.key.requestIdentifier) == ["a", "b"], "the first page: earliest first, equal dates by key")
        let next = try await store.pendingFires(after: .firesThrough(first[1]), through: through, limit: 10)
        try expect(next.map(\.key.requestIdentifier) == ["c", "d"], "the next page continues after the last fire")
        let later = try await store.pendingFires(after: .datesThrough(t0.addingTimeInterval(10)), through: t0.addingTimeInterval(10_000), limit: 10)
        try expect(later.map(\.key.requestIdentifier) == ["d", "late"], "dates through a date exclude that date")
    }

    static func floatingCalendar(_ store: any NotificationStore) async throws {
        var pinnedComponents = DateComponents(hour: 8)
        pinnedComponents.timeZone = TimeZone(identifier: "Asia/Seoul")
        let floating = try pending("floating", at: 60, trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 8), repeats: true)))
        let pinned = try pending("pinned", at: 60, trigger: .calendar(CalendarTrigger(dateMatching: pinnedComponents, repeats: true)))
        let interval = try pending("interval", at: 60, trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 60, repeats: false)))
        try await store.addPending([floating, pinned, interval])
        try expect(try await store.floatingCalendarRequests().map(\.key) == [floating.key], "only the floating calendar request")
        try await store.updateNextFireDates([floating.key: t0.addingTimeInterval(999), key("missing"): t0])
        try expect(try await store.pendingRequests([floating.key]).first?.nextFireDate == t0.addingTimeInterval(999), "re-dated")
        try expect(try await store.pendingFires(after: nil, through: t0.addingTimeInterval(1000), limit: 10).last?.key == floating.key,
            "the index follows the new date")
        try await store.shiftPending([interval.key, key("missing")], by: -3600)
        let shifted = try await store.pendingRequests([interval.key]).first
        try expect(shifted?.addedDate == interval.addedDate.addingTimeInterval(-3600), "the anchor moved")
        try expect(shifted?.nextFireDate == interval.nextFireDate?.addingTimeInterval(-3600), "the fire date moved with it")
        try expect(try await store.pendingFires(after: nil, through: t0.addingTimeInterval(1000), limit: 10).first?.key == interval.key,
            "the index follows the shifted date")
    }

    static func recordFiresOnce(_ store: any NotificationStore) async throws {
        let pendingRequest = try pending("once", at: 60)
        try await store.addPending([pendingRequest])
        let delivered = try DeliveredNotification(request: pendingRequest.request, date: t0.addingTimeInterval(61), scheduledDate: t0.addingTimeInterval(60))
        let stale = FireRecord(key: pendingRequest.key, firedDate: t0.addingTimeInterval(59), delivered: delivered, nextFireDate: nil)
        try expect(try await store.recordFires([stale]).isEmpty, "a record with another fired date is not applied")
        let record = FireRecord(key: pendingRequest.key, firedDate: t0.addingTimeInterval(60), delivered: delivered, nextFireDate: nil)
        try expect(try await store.recordFires([record]) == [record], "the matching record is applied")
        try expect(try await store.recordFires([record]).isEmpty, "the same fire is not recorded twice")
        try expect(try await store.deliveredNotifications(appIdentifier: app) == [delivered], "delivered once")
        try expect(try await store.pendingRequests(appIdentifier: app).isEmpty, "a request without a next date leaves the pending list")
    }

    static func locationTrigger(repeats: Bool) throws -> NotificationTrigger {
        .location(LocationTrigger(region: try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150, identifier: "office"), repeats: repeats))
    }

    static func undatedRequestsAreDatedOnce(_ store: any NotificationStore) async throws {
        let office = try pending("office", at: nil, trigger: locationTrigger(repeats: false))
        let dated = try pending("dated", at: 60)
        try await store.addPending([office, dated])
        let armedAt = t0.addingTimeInterval(30)
        try expect(try await store.dateUndated([office.key: t0.addingTimeInterval(-1)], at: armedAt).isEmpty, "another request's added date dates nothing")
        try expect(try await store.dateUndated([dated.key: t0, key("missing"): t0], at: armedAt).isEmpty, "a dated or missing request is not dated")
        try expect(try await store.pendingRequests([dated.key]).first?.nextFireDate == t0.addingTimeInterval(60), "a dated request keeps its date")
        try expect(try await store.dateUndated([office.key: t0], at: armedAt) == [office.key], "the undated request is dated")
        try expect(try await store.pendingRequests([office.key]).first?.nextFireDate == armedAt, "with the date given")
        try expect(try await store.dateUndated([office.key: t0], at: t0.addingTimeInterval(40)).isEmpty, "a dated request is not dated again")
        try expect(try await store.pendingFires(after: nil, through: armedAt, limit: 10).map(\.key) == [office.key], "the scheduler finds it due")
    }

    static func aFireCanLeaveTheRequestUndated(_ store: any NotificationStore) async throws {
        let office = try pending("office", at: nil, trigger: locationTrigger(repeats: true))
        try await store.addPending([office])
        let armedAt = t0.addingTimeInterval(30)
        _ = try await store.dateUndated([office.key: t0], at: armedAt)
        let delivered = try DeliveredNotification(request: office.request, date: armedAt, scheduledDate: armedAt)
        let record = FireRecord(key: office.key, firedDate: armedAt, delivered: delivered, nextFireDate: nil, staysPending: true)
        try expect(try await store.recordFires([record]) == [record], "the fire is recorded")
        try expect(try await store.recordFires([record]).isEmpty, "once")
        let left = try await store.pendingRequests([office.key])
        try expect(left.count == 1 && left.first?.nextFireDate == nil, "the request stays pending, undated")
        try expect(try await store.pendingFires(after: nil, through: t0.addingTimeInterval(3600), limit: 10).isEmpty, "and is not due")
        try expect(try await store.deliveredNotifications(appIdentifier: app) == [delivered], "delivered once")
        try expect(try await store.dateUndated([office.key: t0], at: t0.addingTimeInterval(90)) == [office.key], "its next crossing dates it again")
    }

    static func recordFiresEffects(_ store: any NotificationStore) async throws {
        let repeating = try pending("repeat", at: 60, badge: 5)
        let skipped = try pending("skipped", at: 60)
        try await store.addPending([repeating, skipped])
        let first = try DeliveredNotification(request: repeating.request, date: t0.addingTimeInterval(60), scheduledDate: t0.addingTimeInterval(60))
        let missed = MissedFire(requestIdentifier: "skipped", firstMissedDate: t0.addingTimeInterval(60), lastMissedDate: t0.addingTimeInterval(60), count: 1, outcome: .skipped, detectedDate: t0.addingTimeInterval(7200))
        let applied = try await store.recordFires([
            FireRecord(key: repeating.key, firedDate: t0.addingTimeInterval(60), delivered: first, nextFireDate: t0.addingTimeInterval(120)),
            FireRecord(key: skipped.key, firedDate: t0.addingTimeInterval(60), delivered: nil, nextFireDate: nil, missed: missed),
        ])
        try expect(applied.count == 2, "both records apply")
        try expect(try await store.pendingRequests([repeating.key]).first?.nextFireDate == t0.addingTimeInterval(120), "a repeat advances")
        try expect(try await store.pendingRequests([skipped.key]).isEmpty, "a finished request leaves")
        try expect(try await store.app(app)?.badgeCount == 5, "the content badge becomes the app's badge")
        try expect(try await store.missedFires(appIdentifier: app) == [missed], "the miss is remembered")
        try expect(try await store.deliveredNotifications(appIdentifier: app) == [first], "a skipped fire delivers nothing")

        let second = try DeliveredNotification(request: repeating.request, date: t0.addingTimeInterval(120), scheduledDate: t0.addingTimeInterval(120))
        _ = try await store.recordFires([FireRecord(key: repeating.key, firedDate: t0.addingTimeInterval(120), delivered: second, nextFireDate: t0.addingTimeInterval(180))])
        try expect(try await store.deliveredNotifications(appIdentifier: app) == [second], "a new delivery replaces the one with the same identifier")
        try await store.clearMissedFires(appIdentifier: app)
        try expect(try await store.missedFires(appIdentifier: app).isEmpty, "misses are cleared")
    }

    static func deliveredLifecycle(_ store: any NotificationStore) async throws {
        var delivered: [DeliveredNotification] = []
        for (index, thread) in ["photos", "photos", "", "photos"].enumerated() {
            let pendingRequest = try pending("n\(index)", at: Double(index), thread: thread)
            try await store.addPending([pendingRequest])
            let notification = try DeliveredNotification(request: pendingRequest.request, date: t0.addingTimeInterval(Double(index)))
            _ = try await store.recordFires([FireRecord(key: pendingRequest.key, firedDate: t0.addingTimeInterval(Double(index)), delivered: notification, nextFireDate: nil)])
            delivered.append(notification)
        }
        try expect(try await store.deliveredNotifications(appIdentifier: app) == delivered.reversed(), "newest first")
        try expect(try await store.deliveredCount(appIdentifier: app, threadIdentifier: "photos") == 3, "three in the photos thread")
        try expect(try await store.deliveredCount(appIdentifier: app, threadIdentifier: "") == 1, "one in the default group")
        try expect(
            try await store.deliveredCounts(appIdentifier: app, threadIdentifiers: ["photos", "", "empty"]) == ["photos": 3, "": 1, "empty": 0],
            "several threads counted at once, an empty one as 0")

        let updated = try delivered[1].replacingActions([NotificationAction(identifier: "unlike", title: "Unlike")])
        try await store.updateDelivered(appIdentifier: app, updated)
        try expect(try await store.deliveredNotification(appIdentifier: app, identifier: "n1") == updated, "an update replaces it in place")

        try expect(try await store.removeDelivered(appIdentifier: app, identifiers: ["n1", "missing"]) == ["n1"], "only existing ones are reported removed")
        try expect(Set(try await store.removeDelivered(appIdentifier: app, identifiers: nil)) == ["n0", "n2", "n3"], "removing all reports the rest")
        try expect(try await store.deliveredNotifications(appIdentifier: app).isEmpty, "nothing is left")
    }

    static func redeliveryMovesThread(_ store: any NotificationStore) async throws {
        for (index, thread) in ["photos", "photos", "chat"].enumerated() {
            let first = try pending("same", at: Double(index), thread: thread)
            try await store.addPending([first])
            let notification = try DeliveredNotification(request: first.request, date: t0.addingTimeInterval(Double(index)))
            _ = try await store.recordFires([FireRecord(key: first.key, firedDate: t0.addingTimeInterval(Double(index)), delivered: notification, nextFireDate: nil)])
        }
        try expect(try await store.deliveredNotifications(appIdentifier: app).count == 1, "one notification per identifier")
        try expect(
            try await store.deliveredCounts(appIdentifier: app, threadIdentifiers: ["photos", "chat"]) == ["photos": 0, "chat": 1],
            "counted once, in the thread of its last delivery")
        _ = try await store.removeDelivered(appIdentifier: app, identifiers: nil)
        try expect(try await store.deliveredCount(appIdentifier: app, threadIdentifier: "chat") == 0, "removal uncounts it")
    }

    static func pendingPagesListEveryApp(_ store: any NotificationStore) async throws {
        let requests = try listFixture()
        try await store.addPending(requests)
        let whole = try await store.pendingPage(appIdentifier: nil, after: nil, limit: 1000)
        let labels = whole.map(\.key.description)
        try expect(labels == listOrder, "one page holds the whole list in order (got \(labels))")
        try expect(Set(whole) == Set(requests), "every field of every request comes back")
        for size in [1, 2, 3, 7, listOrder.count, 50] {
            let paged = try await pendingPages(store, appIdentifier: nil, size: size)
            try expect(paged == whole, "pages of \(size) give what one page gives (got \(paged.map(\.key.description)))")
        }
        try expect(try await store.pendingTotal(appIdentifier: nil) == listOrder.count, "the total counts every app's requests")
    }

    static func pendingPagesOfOneApp(_ store: any NotificationStore) async throws {
        try await store.addPending(try listFixture())
        let lists = [
            "list.a": ["list.a/b", "list.a/y", "list.a/z", "list.a/late", "list.a/u1"],
            "list.b": ["list.b/x", "list.b/a", "list.b/u0", "list.b/u2"],
            "list.c": ["list.c/a", "list.c/f", "list.c/u3"],
        ]
        for (app, order) in lists {
            for size in [1, 2, 3, 7] {
                let paged = try await pendingPages(store, appIdentifier: app, size: size).map(\.key.description)
                try expect(paged == order, "pages of \(size) of \(app) give its requests in order (got \(paged))")
            }
            try expect(try await store.pendingTotal(appIdentifier: app) == order.count, "the total of \(app) counts its requests only")
        }
        try expect(try await store.pendingTotal(appIdentifier: "list.none") == 0, "an app without requests has none")
        let none = try await store.pendingPage(appIdentifier: "list.none", after: nil, limit: 10)
        try expect(none.isEmpty, "an app without requests lists none")

        // A position from the list of every app continues one app's list at the same place.
        let ten = t0.addingTimeInterval(10)
        let positions: [(date: Date?, app: String, identifier: String, rest: [String])] = [
            (ten, "list.a", "y", ["list.b/x", "list.b/a", "list.b/u0", "list.b/u2"]),
            (ten, "list.b", "x", ["list.b/a", "list.b/u0", "list.b/u2"]),
            (ten, "list.c", "", ["list.b/a", "list.b/u0", "list.b/u2"]),
            (nil, "list.a", "u1", ["list.b/u0", "list.b/u2"]),
            (nil, "list.b", "u0", ["list.b/u2"]),
            (nil, "list.c", "u3", []),
        ]
        for (date, app, identifier, rest) in positions {
            let position = PendingListPosition(nextFireDate: date, appIdentifier: app, requestIdentifier: identifier)
            let paged = try await pendingPages(store, appIdentifier: "list.b", size: 2, after: position).map(\.key.description)
            try expect(paged == rest, "list.b after \(position) (got \(paged))")
        }
    }

    static func pendingPagesSurviveRemoval(_ store: any NotificationStore) async throws {
        try await store.addPending(try listFixture())
        // Every boundary: inside a date, between dates, between dated and undated, among undated.
        for boundary in 1...listOrder.count {
            guard let last = try await store.pendingPage(appIdentifier: nil, after: nil, limit: boundary).last else {
                throw StoreConformanceFailure(message: "a page of \(boundary) is empty", line: #line)
            }
            try await store.removePending(appIdentifier: last.appIdentifier, identifiers: [last.request.identifier])
            let rest = try await pendingPages(store, appIdentifier: nil, size: 2, after: PendingListPosition(last)).map(\.key.description)
            try expect(rest == Array(listOrder[boundary...]), "after removing \(last.key), the list goes on without it (got \(rest))")
            let appRest = try await pendingPages(store, appIdentifier: last.appIdentifier, size: 2, after: PendingListPosition(last))
                .map(\.key.description)
            try expect(
                appRest == listOrder[boundary...].filter { $0.hasPrefix(last.appIdentifier + "/") },
                "after removing \(last.key), its app's list goes on without it (got \(appRest))")
            try await store.addPending([last])
        }
    }

    static func deliveredPages(_ store: any NotificationStore) async throws {
        let deliveries = [
            ("list.b", "m1"), ("list.a", "n1"), ("list.a", "n2"), ("list.c", "k1"), ("list.b", "m2"), ("list.a", "n3"), ("list.a", "n1"),
        ]
        for (index, (app, identifier)) in deliveries.enumerated() {
            try await deliver(identifier, app: app, at: Double(index), to: store)
        }
        // By app, newest first; n1's second delivery made it list.a's newest.
        let order = ["list.a/n1", "list.a/n3", "list.a/n2", "list.b/m2", "list.b/m1", "list.c/k1"]
        func labels(_ entries: [DeliveredListEntry]) -> [String] {
            entries.map { "\($0.position.appIdentifier)/\($0.notification.identifier)" }
        }
        let whole = try await store.deliveredPage(appIdentifier: nil, after: nil, limit: 1000)
        try expect(labels(whole) == order, "one page holds the whole list in order (got \(labels(whole)))")
        let titled = whole.allSatisfy { $0.notification.request.content.title == "Title \($0.notification.identifier)" }
        try expect(titled, "entries carry their notifications")
        try expect(whole[0].notification.date == t0.addingTimeInterval(6), "a re-delivered notification is listed as delivered last")
        for size in [1, 2, 3, 7] {
            let paged = try await deliveredPages(store, appIdentifier: nil, size: size)
            try expect(paged == whole, "pages of \(size) give what one page gives (got \(labels(paged)))")
            let app = try await deliveredPages(store, appIdentifier: "list.b", size: size)
            try expect(labels(app) == ["list.b/m2", "list.b/m1"], "pages of \(size) of one app hold its own only (got \(labels(app)))")
        }
        for (app, total) in [("list.a", 3), ("list.b", 2), ("list.c", 1), ("list.none", 0)] {
            try expect(try await store.deliveredTotal(appIdentifier: app) == total, "\(app) has \(total) delivered")
        }
        try expect(try await store.deliveredTotal(appIdentifier: nil) == order.count, "the total counts every app's notifications")
        let continued = try await deliveredPages(store, appIdentifier: "list.b", size: 2, after: whole[0].position)
        try expect(labels(continued) == ["list.b/m2", "list.b/m1"], "a position of an earlier app starts one app's list at its beginning")
        let ended = try await deliveredPages(store, appIdentifier: "list.b", size: 2, after: whole[5].position)
        try expect(ended.isEmpty, "a later app's position ends it")

        // The notification at a page boundary removed, within an app and at an app's end.
        let first = try await store.deliveredPage(appIdentifier: nil, after: nil, limit: 2)
        _ = try await store.removeDelivered(appIdentifier: "list.a", identifiers: ["n3"])
        let rest = try await deliveredPages(store, appIdentifier: nil, size: 2, after: first[1].position)
        try expect(labels(rest) == ["list.a/n2", "list.b/m2", "list.b/m1", "list.c/k1"], "the list goes on after its boundary (got \(labels(rest)))")
        let second = try await store.deliveredPage(appIdentifier: nil, after: nil, limit: 2)
        _ = try await store.removeDelivered(appIdentifier: "list.a", identifiers: ["n2"])
        let next = try await deliveredPages(store, appIdentifier: nil, size: 2, after: second[1].position)
        try expect(labels(next) == ["list.b/m2", "list.b/m1", "list.c/k1"], "the next app follows a removed last one (got \(labels(next)))")
        try expect(try await store.deliveredTotal(appIdentifier: nil) == 4, "removals leave the total")
    }

    static func appsAreIsolated(_ store: any NotificationStore) async throws {
        try await store.addPending([try pending("same", app: "app.one", at: 10), try pending("same", app: "app.two", at: 20)])
        try expect(try await store.pendingRequests(appIdentifier: "app.one").map(\.nextFireDate) == [t0.addingTimeInterval(10)], "app one sees its own")
        try await store.removePending(appIdentifier: "app.one", identifiers: nil)
        try expect(try await store.pendingRequests(appIdentifier: "app.two").count == 1, "removing one app's requests leaves the other's")
    }
}

/// A store failed a conformance check.
public struct StoreConformanceFailure: Error, CustomStringConvertible {
    public let message: String
    /// The line in `StoreConformance.swift` of the failed expectation.
    public let line: Int

    public var description: String { "store conformance failed: \(message) (StoreConformance.swift:\(line))" }
}
