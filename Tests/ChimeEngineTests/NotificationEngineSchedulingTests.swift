import ChimeCore
import ChimeEngine
import ChimePostgres
import ChimeSQLite
import ChimeTesting
import Foundation
import Synchronization
import Testing

@Suite("Engine: scheduling and delivery")
struct NotificationEngineSchedulingTests {
    @Test func theEngineRunsOnTheStoreTheTestRunAskedFor() async throws {
        let h = try await EngineHarness.make()
        if EngineHarness.onPostgres {
            #expect(h.store is PostgresNotificationStore)
        } else {
            #expect(h.store is SQLiteNotificationStore)
        }
    }

    @Test func aRequestFiresAtItsDateAndIsPresentedAndListedAsDelivered() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("tea", title: "Tea is ready", trigger: h.after(300)))
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["tea"])

        await h.run(until: EngineHarness.start.addingTimeInterval(300))
        let shown = await h.presenter.nextPresentation()
        #expect(shown.notificationIdentifier == "tea")
        #expect(shown.title == "Tea is ready")
        #expect(shown.destinations.contains(.banner))
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
        let delivered = try await h.center.deliveredNotifications()
        #expect(delivered.map(\.identifier) == ["tea"])
        #expect(delivered.first?.date == EngineHarness.start.addingTimeInterval(300))
        #expect(delivered.first?.isLate == false)
    }

    @Test func aRequestWithoutTriggerIsDeliveredAtOnce() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("now"))
        let shown = await h.presenter.nextPresentation()
        #expect(shown.notificationIdentifier == "now")
        #expect(shown.date == EngineHarness.start)
    }

    /// `add --in 1e-9` used to get no fire date and stay pending forever; as on iOS, any positive interval
    /// fires, this one at once.
    @Test func anIntervalTooShortToMeasureFiresAtOnce() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("blink", trigger: h.after(1e-9)))
        await h.run(for: 0.001)
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "blink")
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
    }

    @Test func anIntervalEndingAfterTheYear9999IsRefusedAndNothingIsStored() async throws {
        let h = try await EngineHarness.make().started()
        await #expect { try await h.center.add(h.request("far", trigger: h.after(3e11))) } throws: {
            ($0 as? ChimeError)?.code == .invalidTimeInterval
        }
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
    }

    @Test func theSameIdentifierReplacesThePendingRequest() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("alarm", title: "First", trigger: h.after(60)))
        try await h.center.add(h.request("alarm", title: "Second", trigger: h.after(120)))
        #expect(try await h.center.pendingNotificationRequests().map(\.content.title) == ["Second"])

        await h.run(until: EngineHarness.start.addingTimeInterval(120))
        #expect(await h.presenter.nextPresentation().title == "Second")
        #expect(h.presenter.presentations.count == 1)  // nothing fired at 60 s
    }

    /// No cap by default; with iOS's limit set (here 3 instead of 64), only the soonest pending
    /// requests stay, and one added later than them is dropped at once, silently.
    @Test func aPendingLimitKeepsTheSoonestRequests() async throws {
        let unlimited = try await EngineHarness.make().started()
        try await unlimited.center.add(contentsOf: (1...80).map { try unlimited.request("r\($0)", trigger: unlimited.after(Double($0) * 60)) })
        #expect(try await unlimited.center.pendingNotificationRequests().count == 80)

        var configuration = EngineConfiguration()
        configuration.pendingLimitPerApp = 3
        let h = try await EngineHarness.make(configuration: configuration).started()
        try await h.center.add(contentsOf: [h.request("d", trigger: h.after(400)), h.request("a", trigger: h.after(100)), h.request("c", trigger: h.after(300)), h.request("b", trigger: h.after(200))])
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["a", "b", "c"])
        try await h.center.add(h.request("late", trigger: h.after(500)))
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["a", "b", "c"])
        try await h.center.add(h.request("soon", trigger: h.after(50)))
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["soon", "a", "b"])

        // What was dropped never fires.
        await h.run(until: EngineHarness.start.addingTimeInterval(600))
        for expected in ["soon", "a", "b"] { #expect(await h.presenter.nextPresentation().notificationIdentifier == expected) }
        #expect(h.presenter.presentations.count == 3)
    }

    @Test func aBatchIsAddedWholeOrNotAtAll() async throws {
        let h = try await EngineHarness.make().started()
        let push = try NotificationRequest(identifier: "push", content: NotificationContent(title: "Remote"), trigger: .push(PushTrigger()))
        await #expect {
            try await h.center.add(contentsOf: [h.request("a", trigger: h.after(60)), push])
        } throws: { ($0 as? ChimeError)?.code == .notificationInvalidNoDate }
        #expect(try await h.center.pendingNotificationRequests().isEmpty)

        try await h.center.add(contentsOf: [h.request("a", trigger: h.after(60)), h.request("b", trigger: h.after(30))])
        #expect(try await h.center.pendingNotificationRequests().map(\.identifier) == ["b", "a"])
        await h.run(until: EngineHarness.start.addingTimeInterval(60))
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "b")
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "a")
    }

    @Test func aRemovedRequestNeverFires() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("gone", trigger: h.after(60)))
        try await h.center.add(h.request("kept", trigger: h.after(90)))
        try await h.center.removePendingNotificationRequests(withIdentifiers: ["gone"])
        await h.run(until: EngineHarness.start.addingTimeInterval(90))
        #expect(await h.presenter.nextPresentation().notificationIdentifier == "kept")
        #expect(h.presenter.presentations.map(\.notificationIdentifier) == ["kept"])
    }

    @Test func aRepeatingIntervalFiresEveryIntervalFromItsAnchor() async throws {
        let h = try await EngineHarness.make().started()
        try await h.center.add(h.request("stretch", trigger: h.after(3600, repeats: true)))
        for hour in 1...3 {
            await h.run(until: EngineHarness.start.addingTimeInterval(Double(hour) * 3600))
            #expect(await h.presenter.nextPresentation().date == EngineHarness.start.addingTimeInterval(Double(hour) * 3600))
        }
        // Still pending, and delivered once: each delivery replaced the one before.
        #expect(try await h.center.pendingNotificationRequests().count == 1)
        #expect(try await h.center.deliveredNotifications().count == 1)
    }

    @Test func aDailyCalendarTriggerFiresAtTheWallClockTimeOfTheUsersZone() async throws {
        let h = try await EngineHarness.make(timeZone: TimeZone(identifier: "Asia/Seoul")!).started()
        let alarm = try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 30), repeats: true)
        try await h.center.add(h.request("alarm", trigger: .calendar(alarm)))
        // 2025-12-01T07:30:00+09:00 is 2025-11-30T22:30:00Z, already past at the start; next is Dec 2 07:30+09.
        let firstFire = Date(timeIntervalSince1970: 1_764_628_200)
        await h.run(until: firstFire)
        #expect(await h.presenter.nextPresentation().date == firstFire)
        await h.run(until: firstFire.addingTimeInterval(86_400))
        #expect(await h.presenter.nextPresentation().date == firstFire.addingTimeInterval(86_400))
    }

    @Test func aTimeZoneChangeMovesFloatingCalendarTriggers() async throws {
        let h = try await EngineHarness.make(timeZone: TimeZone(identifier: "Asia/Seoul")!).started()
        let alarm = try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 30), repeats: true)
        try await h.center.add(h.request("alarm", trigger: .calendar(alarm)))
        // The user flies to New York: 07:30 there is 2025-12-01T12:30:00Z.
        try await h.engine.updateTimeZone(TimeZone(identifier: "America/New_York")!)
        let newYorkFire = Date(timeIntervalSince1970: 1_764_592_200)
        await h.run(until: newYorkFire)
        #expect(await h.presenter.nextPresentation().date == newYorkFire)
    }

    @Test func aDeliveredBadgeBecomesTheAppsBadge() async throws {
        let h = try await EngineHarness.make().started()
        var content = NotificationContent(title: "Mail")
        content.badge = 3
        try await h.center.add(NotificationRequest(identifier: "mail", content: content, trigger: nil))
        #expect(await h.presenter.nextPresentation().badge == 3)
        #expect(try await h.store.app("com.example.app")?.badgeCount == 3)
        try await h.center.setBadgeCount(0)
        #expect(h.presenter.badges["com.example.app"] == 0)
        await #expect(throws: ChimeError.self) { try await h.center.setBadgeCount(-1) }
    }

    @Test func localizedTextIsResolvedAtDeliveryInTheLanguageOfThatMoment() async throws {
        let h = try await EngineHarness.make().started()
        await h.engine.setLocalizer(NotificationLocalizer(tables: [
            "en": StringsTable(entries: ["TEA": "Your %@ is ready"]),
            "ko": StringsTable(entries: ["TEA": "%@ 준비 완료"]),
        ]), for: "com.example.app")
        await h.engine.updateEnvironment(UserEnvironment(preferredLanguages: ["en"]))
        try await h.center.add(h.request("tea", body: .localized(key: "TEA", arguments: ["녹차"]), trigger: h.after(60)))
        await h.engine.updateEnvironment(UserEnvironment(preferredLanguages: ["ko-KR"]))  // changed before the fire
        await h.run(until: EngineHarness.start.addingTimeInterval(60))
        #expect(await h.presenter.nextPresentation().body == "녹차 준비 완료")
    }

    @Test func theForegroundAppChoosesHowItsNotificationsArePresented() async throws {
        let h = try await EngineHarness.make().started()
        let app = ForegroundApp(options: [.list, .sound])
        await h.center.setDelegate(app)
        try await h.center.add(h.request("chat"))
        let shown = await h.presenter.nextPresentation()
        #expect(!shown.destinations.contains(.banner))
        #expect(shown.destinations.contains(.list))
        #expect(app.presented == ["chat"])
    }
}

/// An app in the foreground that answers `willPresent` with fixed options, answers responses with the
/// disposition a test sets, and records what it saw.
final class ForegroundApp: NotificationCenterDelegate {
    private struct State {
        var presented: [String] = []
        var responses: [NotificationResponse] = []
        var disposition: ResponseDisposition = .standard
        var settingsOpened: [String?] = []
    }

    let options: PresentationOptions
    private let state = Mutex(State())

    init(options: PresentationOptions = [.banner, .list, .sound]) {
        self.options = options
    }

    var presented: [String] { state.withLock { $0.presented } }
    var responses: [NotificationResponse] { state.withLock { $0.responses } }
    var settingsOpened: [String?] { state.withLock { $0.settingsOpened } }
    var disposition: ResponseDisposition {
        get { state.withLock { $0.disposition } }
        set { state.withLock { $0.disposition = newValue } }
    }

    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions {
        state.withLock { $0.presented.append(notification.identifier) }
        return options
    }

    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        state.withLock { state in
            state.responses.append(response)
            return state.disposition
        }
    }

    func openSettings(for notification: DeliveredNotification?) async {
        state.withLock { $0.settingsOpened.append(notification?.identifier) }
    }
}
