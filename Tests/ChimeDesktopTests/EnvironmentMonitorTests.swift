import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeTestSupport
import Foundation
import Testing

/// Do Not Disturb and the screen lock, read from a notification server's `Inhibited` property and a
/// stand-in logind on a private bus (the same private bus stands for the system bus).
@Suite("Environment monitor: Do Not Disturb and the screen lock")
struct EnvironmentMonitorTests {
    /// Runs `body` with a private bus and the scripted server (with `Inhibited` and logind when asked).
    func withServer(
        inhibitedProperty: Bool = true, logind: Bool = true, _ body: (PrivateBus, FakeNotificationServer) async throws -> Void
    ) async throws {
        let bus = try await PrivateBus.start()
        var options = FakeNotificationServer.Options()
        options.inhibitedProperty = inhibitedProperty
        options.logind = logind
        do {
            let server = try await FakeNotificationServer.start(on: bus, options: options)
            do {
                try await body(bus, server)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        } catch {
            await bus.stop()
            throw error
        }
        await bus.stop()
    }

    @Test func inhibitedAndTheLockedHintAreReadThenFollowed() async throws {
        try await withServer { bus, server in
            let monitor = EnvironmentMonitor(
                sessionBus: .address(bus.address), systemBus: .address(bus.address), sessionID: "7", log: RecordingLog())
            await monitor.start()
            #expect(await monitor.state == DesktopEnvironmentState(notificationsInhibited: false, sessionLocked: false))
            #expect(try server.calls("GetSession").first?["session_id"]?.stringValue == "7")

            let updates = Inbox<DesktopEnvironmentState>()
            let reader = Task { for await state in await monitor.updates() { updates.post(state) } }
            #expect(try await updates.next("the current state") == DesktopEnvironmentState(notificationsInhibited: false, sessionLocked: false))
            try await server.setInhibited(true)
            #expect(try await updates.next("Do Not Disturb on") == DesktopEnvironmentState(notificationsInhibited: true, sessionLocked: false))
            try await server.setLocked(true)
            #expect(try await updates.next("the lock") == DesktopEnvironmentState(notificationsInhibited: true, sessionLocked: true))
            try await server.setInhibited(false)
            #expect(try await updates.next("Do Not Disturb off") == DesktopEnvironmentState(notificationsInhibited: false, sessionLocked: true))
            await monitor.stop()
            await reader.value  // the stream ends with the monitor
        }
    }

    @Test func withoutASessionIDTheUsersDisplaySessionIsUsed() async throws {
        try await withServer { bus, server in
            let monitor = EnvironmentMonitor(
                sessionBus: .address(bus.address), systemBus: .address(bus.address), sessionID: nil, log: RecordingLog())
            await monitor.start()
            #expect(await monitor.state.sessionLocked == false)
            #expect(try server.calls("GetSessionByPID").count == 1)  // this process is in no session
            #expect(try server.calls("GetUser").first?["uid"]?.intValue == Int(getuid()))
            try await server.setLocked(true)
            try await eventually("the lock is seen") { await monitor.state.sessionLocked == true }
            await monitor.stop()
        }
    }

    @Test func aServerWithoutInhibitedAndNoSystemBusSayNothing() async throws {
        try await withServer(inhibitedProperty: false, logind: false) { bus, _ in
            let log = RecordingLog()
            let monitor = EnvironmentMonitor(
                sessionBus: .address(bus.address), systemBus: .address("unix:path=/nonexistent/chime-system-bus"), log: log)
            await monitor.start()
            #expect(await monitor.state == DesktopEnvironmentState(notificationsInhibited: nil, sessionLocked: nil))
            #expect(log.infos.all.contains { $0.contains("cannot reach the bus at unix:path=/nonexistent/chime-system-bus") })
            #expect(log.infos.all.contains { $0.contains("does not say whether its Do Not Disturb is on") })
            #expect(log.warnings.all.isEmpty)
            // What the desktop does not say leaves the engine's environment as it was.
            let locked = UserEnvironment(focus: .on(allowsTimeSensitive: false), isLocked: true)
            #expect(await monitor.state.applied(to: locked) == locked)
            await monitor.stop()
        }
    }

    /// GNOME Shell has no `Inhibited`: its Do Not Disturb is the `show-banners` setting. The real dconf
    /// service, started by the private bus as the session bus starts it, keeps the setting in a temporary
    /// home; `gsettings set` there, as GNOME's switch does, is followed through dconf's change signal.
    /// Outside GNOME the same setting means nothing and is not read.
    @Test func gnomesShowBannersSettingIsItsDoNotDisturb() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("chime-gnome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("run"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        chmod(home.appendingPathComponent("run").path, 0o700)
        let user = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_RUNTIME_DIR": home.appendingPathComponent("run").path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        ]
        let dconf = "/usr/libexec/dconf-service"
        let gsettings = try Tool.path("gsettings", package: "libglib2.0-bin")
        #expect(FileManager.default.isExecutableFile(atPath: dconf), "dconf-service is not installed")
        let launch = user.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let bus = try await PrivateBus.start(services: [
            "ca.desrt.dconf.service": "[D-BUS Service]\nName=ca.desrt.dconf\nExec=/usr/bin/env \(launch) \(dconf)\n"
        ])
        var environment = user
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        environment["GSETTINGS_BACKEND"] = "dconf"
        func setBanners(_ shown: Bool) async throws {
            let set = try ChildProcess(gsettings, ["set", "org.gnome.desktop.notifications", "show-banners", "\(shown)"], environment: environment, name: "gsettings")
            #expect(await set.exitStatus() == 0)
        }
        var options = FakeNotificationServer.Options()
        options.inhibitedProperty = false
        options.name = "gnome-shell"
        let server = try await FakeNotificationServer.start(on: bus, options: options)
        do {
            try await setBanners(false)
            var gnome = environment
            gnome["XDG_CURRENT_DESKTOP"] = "ubuntu:GNOME"
            let monitor = EnvironmentMonitor(sessionBus: .address(bus.address), systemBus: nil, environment: gnome, log: RecordingLog())
            await monitor.start()
            #expect(await monitor.state.bannersShown == false, "read at start")
            #expect(await monitor.state.doNotDisturb == true)

            try await setBanners(true)
            try await eventually("the switch turned off is seen") { await monitor.state.doNotDisturb == false }
            try await setBanners(false)
            try await eventually("and on again") { await monitor.state.doNotDisturb == true }
            await monitor.stop()

            var elsewhere = environment
            elsewhere["XDG_CURRENT_DESKTOP"] = "KDE"
            let other = EnvironmentMonitor(sessionBus: .address(bus.address), systemBus: nil, environment: elsewhere, log: RecordingLog())
            await other.start()
            let kde = await other.state
            #expect(kde.bannersShown == nil && kde.doNotDisturb == nil, "GNOME's setting is not KDE's Do Not Disturb")
            await other.stop()
        } catch {
            await server.stop()
            await bus.stop()
            throw error
        }
        await server.stop()
        await bus.stop()
    }

    @Test func aRestartedServerIsFollowed() async throws {
        let bus = try await PrivateBus.start()
        var options = FakeNotificationServer.Options()
        options.inhibitedProperty = true
        do {
            let first = try await FakeNotificationServer.start(on: bus, options: options)
            let monitor = EnvironmentMonitor(sessionBus: .address(bus.address), systemBus: nil, log: RecordingLog())
            await monitor.start()
            try await first.setInhibited(true)
            try await eventually("Do Not Disturb is seen") { await monitor.state.notificationsInhibited == true }
            await first.stop()
            try await eventually("the server's going is seen") { await monitor.state.notificationsInhibited == nil }
            let second = try await FakeNotificationServer.start(on: bus, options: options)
            try await eventually("the new server is read") { await monitor.state.notificationsInhibited == false }
            try await second.setInhibited(true)
            try await eventually("its Do Not Disturb is seen") { await monitor.state.notificationsInhibited == true }
            await monitor.stop()
            await second.stop()
        } catch {
            await bus.stop()
            throw error
        }
        await bus.stop()
    }

    /// While Do Not Disturb is on, an active notification goes to the list only: a server that pops up
    /// whatever it gets is not sent it at all; GNOME Shell gets it with low urgency, which it keeps in its
    /// list without a banner. A critical one comes through either way.
    @Test(arguments: ["chime-fake", "gnome-shell"])
    func doNotDisturbHoldsAnActiveNotificationBackAndLetsACriticalOneThrough(server: String) async throws {
        var options = FakeNotificationServer.Options()
        options.inhibitedProperty = true
        options.name = server
        try await DesktopHarness.run(server: options) { h in
            let monitor = EnvironmentMonitor(sessionBus: .address(h.bus.address), systemBus: nil, log: h.log)
            await monitor.start()
            let updating = monitor.keepUpdated(h.engine)
            defer { updating.cancel() }
            try await h.fake.setInhibited(true)
            try await eventually("the engine knows Do Not Disturb is on") { await h.engine.environment.focus.isOn }

            let center = try await h.center("com.example.alarm", options: [.alert, .sound, .criticalAlert], categories: [Seeds.alarmCategory()])
            try await h.deliver("alarm-1", Seeds.alarm(), in: center)
            if server == "gnome-shell" {
                let held = try await h.fake.nextCall("Notify")
                #expect(held.hint("urgency")?.intValue == 0)  // to GNOME's list only
                #expect(held.hint("suppress-sound")?.boolValue == true)
            }
            try await eventually("the alarm is held in the list") {
                try await center.deliveredNotifications().map(\.request.identifier) == ["alarm-1"]
            }

            try await h.deliver("glucose", Seeds.lowGlucose(), in: center)
            let critical = try await h.fake.nextCall("Notify")  // for other servers, the first Notify of all
            #expect(critical.hint("urgency")?.intValue == 2)
            #expect(critical.hint("sound-name")?.stringValue == "alarm-clock-elapsed")

            try await h.fake.setInhibited(false)
            try await eventually("the engine knows Do Not Disturb is off") { await !h.engine.environment.focus.isOn }
            await monitor.stop()
        }
    }
}
