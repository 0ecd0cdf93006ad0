import ChimeClient
import ChimeCore
import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

/// The daemon's side of `decidesResponses`: a decision is waited for, but never longer than the timeout
/// or than the app's connection lives.
@Suite("chimed: apps that decide their responses", .serialized)
struct ResponseDecisionTests {
    static let app = "com.example.rating"

    static func delivered(_ home: DaemonHome, _ daemon: RunningDaemon) async throws -> DaemonClient {
        let app = try await DaemonClient.connect(appIdentifier: Self.app, paths: home.paths)
        _ = try await app.requestAuthorization(options: [.alert])
        let rate = try NotificationAction(identifier: "rate", title: "Rate")
        try await app.setCategories([try NotificationCategory(identifier: "rating", actions: [rate])])
        var content = NotificationContent(title: "Rate us")
        content.categoryIdentifier = "rating"
        try await app.add([try NotificationRequest(identifier: "r1", content: content, trigger: nil)])
        try await daemon.presented(Self.app, "r1")
        return app
    }

    @Test func anAppThatNeverDecidesGetsTheStandardBehaviourAfterTheTimeout() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = try await Self.delivered(home, daemon)
        let silent = try await DaemonClient.connect(appIdentifier: Self.app, subscribe: true, decidesResponses: true, paths: home.paths)
        let user = try await home.connectAsUser()
        let started = ContinuousClock.now
        let result = try await user.respond(app: Self.app, notification: "r1", action: .action("rate"))
        #expect(result.deliveredToApp)
        #expect(ContinuousClock.now - started < .seconds(15))
        _ = try await daemon.log.take("the timeout warning", within: 1) { $0.contains("did not decide about notification r1") }
        let delivered = try #require(try await user.deliveredNotifications(app: Self.app).first?.notification)
        #expect(delivered.actions(in: try await user.categories(app: Self.app).first).map(\.identifier) == ["rate"])
        for client in [app, silent, user] { client.close() }
        #expect(await daemon.terminate() == 0)
    }

    @Test func anAppThatLeavesWhileDecidingStallsNothing() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = try await Self.delivered(home, daemon)
        let leaving = try await DaemonClient.connect(appIdentifier: Self.app, subscribe: true, decidesResponses: true, paths: home.paths)
        let user = try await home.connectAsUser()
        async let result = user.respond(app: Self.app, notification: "r1", action: .action("rate"))
        guard case .response = try await nextEvent(leaving) else { Issue.record("expected the response event"); return }
        let left = ContinuousClock.now
        leaving.close()
        #expect(try await result.deliveredToApp)
        #expect(ContinuousClock.now - left < .seconds(4))  // well before the 5 s timeout
        // Still queued for the app's next subscription.
        #expect(try await user.apps().first { $0.entry.identifier == Self.app }?.queuedResponses == 1)
        for client in [app, user] { client.close() }
        #expect(await daemon.terminate() == 0)
    }

    @Test func aDecisionIsApplied() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = try await Self.delivered(home, daemon)
        let deciding = try await DaemonClient.connect(appIdentifier: Self.app, subscribe: true, decidesResponses: true, paths: home.paths)
        let user = try await home.connectAsUser()
        async let result = user.respond(app: Self.app, notification: "r1", action: .action("rate"))
        guard case .response(let event) = try await nextEvent(deciding) else { Issue.record("expected the response event"); return }
        try await deciding.acknowledge(event, disposition: WireDisposition(outcome: .dismiss))
        #expect(try await result.deliveredToApp)
        #expect(try await user.deliveredNotifications(app: Self.app).isEmpty)
        #expect(try await user.apps().first { $0.entry.identifier == Self.app }?.queuedResponses == 0)
        for client in [app, deciding, user] { client.close() }
        #expect(await daemon.terminate() == 0)
    }
}
