import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeTestSupport
import ChimeTesting
import Foundation
import Testing

/// An engine's location feed against a scripted GeoClue on a private system bus: when GeoClue goes away
/// while triggers wait, the feed says so, asks again by itself, and the positions of the GeoClue that
/// comes back fire the triggers.
// The limit only turns a missing presentation into a failure instead of a hang: it is generous, because
// a full test run keeps the shared pool busy for tens of seconds and a test can wait that long to run.
@Suite("Location feed", .timeLimit(.minutes(5)))
struct LocationFeedTests {
    @Test func aGeoClueThatGoesAwayIsAskedAgainAndItsPositionsFire() async throws {
        let bus = try await PrivateBus.start(.system)
        let first = try await GeoCluePeer.start(on: bus)
        let presenter = RecordingPresenter()
        let engine = NotificationEngine(store: InMemoryNotificationStore(), clock: SystemClock(), presenter: presenter, log: SilentLog())
        let feed = await LocationFeed(engine: engine, desktopID: "chimed", bus: .address(bus.address), log: SilentLog(), retryInterval: .milliseconds(300))
        await engine.start()
        let region = try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150, identifier: "office")
        try await engine.center(for: "com.example.app").add(
            NotificationRequest(identifier: "office", content: NotificationContent(title: "Office"), trigger: .location(LocationTrigger(region: region, repeats: true))))
        _ = try await first.next("Start")
        try await eventually("the feed runs GeoClue") { await feed.status == "running" }

        await first.stop()
        try await eventually("the feed says GeoClue is gone") { await feed.status?.hasPrefix("unavailable") == true }
        let second = try await GeoCluePeer.start(on: bus)
        _ = try await second.next("Start")
        try await eventually("the feed runs the new GeoClue") { await feed.status == "running" }
        try await second.move(latitude: 37.58, longitude: 126.978, accuracy: 20)  // 1.5 km north: the first fix, outside
        try await second.move(latitude: 37.5665, longitude: 126.978, accuracy: 20)
        #expect(await presenter.nextPresentation().notificationIdentifier == "office")

        await feed.stop()
        _ = try await second.next("Stop")
        await engine.stop()
        await second.stop()
        await bus.stop()
    }

    /// A feed stopping while GeoClue's `Start` waits for the user (its agent's prompt, up to two minutes)
    /// does not wait it out: a program shutting down stops at once.
    @Test func stoppingDoesNotWaitForAStartThatWaitsForTheUser() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus, holdingStart: true)
        let engine = NotificationEngine(store: InMemoryNotificationStore(), clock: SystemClock(), presenter: RecordingPresenter(), log: SilentLog())
        let feed = await LocationFeed(engine: engine, desktopID: "chimed", bus: .address(bus.address), log: SilentLog())
        await engine.start()
        let region = try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150, identifier: "office")
        try await engine.center(for: "com.example.app").add(
            NotificationRequest(identifier: "office", content: NotificationContent(title: "Office"), trigger: .location(LocationTrigger(region: region, repeats: false))))
        _ = try await geoclue.next("Start")  // held
        let asked = ContinuousClock.now
        await feed.stop()
        let waited = ContinuousClock.now - asked
        #expect(waited < .seconds(30), "stopped after \(waited), not at the end of the two minutes Start may take")
        #expect(await feed.status?.hasPrefix("running") != true)
        await engine.stop()
        await geoclue.stop()
        await bus.stop()
    }
}
