import ChimeAPI
import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
@testable import UserNotifications

@Suite("current(): app identity, data directory, the embedded engine")
struct EmbeddedCenterTests {
    // MARK: App identity

    @Test func anExplicitIdentifierComesFirst() {
        #expect(AppIdentity.resolve(explicit: "com.example.tea", environment: [:], bundleIdentifier: "com.example.bundle", executablePath: "/usr/bin/tea") == "com.example.tea")
    }

    @Test func thenTheBundleIdentifier() {
        #expect(AppIdentity.resolve(explicit: nil, environment: [:], bundleIdentifier: "com.example.bundle", executablePath: "/usr/bin/tea") == "com.example.bundle")
    }

    @Test func thenTheExecutablesName() {
        #expect(AppIdentity.resolve(explicit: nil, environment: [:], bundleIdentifier: nil, executablePath: "/usr/local/bin/tea-timer") == "tea-timer")
        #expect(AppIdentity.resolve(explicit: "", environment: ["CHIME_APP_ID": ""], bundleIdentifier: "", executablePath: "tea-timer") == "tea-timer")
    }

    @Test func chimeAppIDOverridesEverything() {
        #expect(
            AppIdentity.resolve(
                explicit: "com.example.tea", environment: ["CHIME_APP_ID": "com.example.override"], bundleIdentifier: "com.example.bundle",
                executablePath: "/usr/bin/tea") == "com.example.override")
    }

    @Test func aProcessWithoutABundleStillHasAnIdentity() {
        #expect(!AppIdentity.current(explicit: nil).isEmpty)
    }

    // MARK: Data directory

    /// Embedded apps and the daemon share one rule (`DaemonPaths.dataDirectory`), so an app and chimed
    /// run with the same environment keep their data in the same folder.
    @Test func theDataDirectoryFollowsXDGDataHome() {
        let rule = { (environment: [String: String]) in DaemonPaths.dataDirectory(environment: environment, homeDirectory: "/home/account").path }
        #expect(rule(["XDG_DATA_HOME": "/data/jane", "HOME": "/home/jane"]) == "/data/jane/chime")
        #expect(rule(["HOME": "/home/jane"]) == "/home/jane/.local/share/chime")
        // A relative XDG_DATA_HOME is invalid and ignored, as the specification says; so is a relative or
        // empty HOME, which would put the data wherever the process happens to start.
        #expect(rule(["XDG_DATA_HOME": "data", "HOME": "/home/jane"]) == "/home/jane/.local/share/chime")
        #expect(rule(["XDG_DATA_HOME": "", "HOME": "jane"]) == "/home/account/.local/share/chime")
        #expect(rule(["HOME": ""]) == "/home/account/.local/share/chime")
        #expect(rule([:]) == "/home/account/.local/share/chime")
        for environment in [["HOME": "relative"], ["HOME": "/h"], ["XDG_DATA_HOME": "/x"], [:]] {
            #expect(DaemonPaths(environment: environment).dataDirectory == DaemonPaths.dataDirectory(environment: environment))
        }
        #expect(DaemonPaths.accountHomeDirectory().hasPrefix("/"))
        #expect(EmbeddedPaths.store(in: URL(fileURLWithPath: "/d/chime"), appIdentifier: "com.example.alarm").path == "/d/chime/apps/com.example.alarm.sqlite")
        #expect(EmbeddedPaths.store(in: URL(fileURLWithPath: "/d/chime"), appIdentifier: "../x y").path == "/d/chime/apps/%2E.%2Fx%20y.sqlite")
        #expect(EmbeddedPaths.attachments(in: URL(fileURLWithPath: "/d/chime")).path == "/d/chime/attachments")
    }

    // MARK: The embedded engine

    @Test func theEmbeddedCenterKeepsItsDataInASQLiteFileAndMovesAttachmentsBesideIt() async throws {
        let directory = try Fixtures.temporaryDirectory().appendingPathComponent("data/chime")
        let presenter = RecordingPresenter()
        let center = EmbeddedCenter.make(
            EmbeddedCenter.Configuration(presenter: presenter, authorization: FixedAuthorization.allowAll, dataDirectory: directory),
            appIdentifier: "com.example.embedded")
        #expect(try await center.requestAuthorization(options: [.alert]))
        let content = UNMutableNotificationContent()
        content.title = "Embedded"
        content.attachments = [try UNNotificationAttachment(identifier: "logo", url: Fixtures.png(), options: nil)]
        try await center.add(UNNotificationRequest(identifier: "e", content: content, trigger: nil))

        let shown = await presenter.nextPresentation()  // the real clock: delivered at once
        #expect(shown.appIdentifier == "com.example.embedded")
        #expect(shown.title == "Embedded")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("apps/com.example.embedded.sqlite").path))
        let stored = try #require(shown.attachments.first?.url.path)
        #expect(stored.hasPrefix(directory.appendingPathComponent("attachments").path))
        // Private to the user from creation: the data folder, each folder under it, the store and its log.
        for (path, mode) in [("", 0o700), ("apps", 0o700), ("attachments", 0o700), ("apps/com.example.embedded.sqlite", 0o600),
                             ("apps/com.example.embedded.sqlite-wal", 0o600)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
    }

    @Test func anUnusableDataDirectoryFailsTheCallsNotTheProcess() async throws {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("occupied")
        try Data("a file where the directory should be".utf8).write(to: file)
        let center = EmbeddedCenter.make(
            EmbeddedCenter.Configuration(presenter: RecordingPresenter(), dataDirectory: file.appendingPathComponent("chime")),
            appIdentifier: "com.example.broken")
        await #expect(throws: (any Error).self) { try await center.requestAuthorization(options: [.alert]) }
        #expect(await center.pendingNotificationRequests().isEmpty)
        #expect(await center.notificationSettings().authorizationStatus == .notDetermined)
    }

    @Test func currentIsOneCenterForTheProcessAndCannotBeReconfiguredAfterwards() {
        let first = UNUserNotificationCenter.current()
        #expect(UNUserNotificationCenter.current() === first)
        #expect(first.appIdentifier == AppIdentity.current(explicit: nil))
        #expect(UNUserNotificationCenter.configureEmbedded(appIdentifier: "too.late") == false)
        #expect(UNUserNotificationCenter.current().appIdentifier != "too.late" || ProcessInfo.processInfo.environment["CHIME_APP_ID"] == "too.late")
    }
}
