import ChimeClient
import ChimeCore
import ChimeEngine
import ChimeAPI
import ChimeTerminal
import Foundation
import Synchronization
public import UserNotifications

/// Where an example app shows its notifications, and the terminal it talks to the user in.
///
/// - **With chimed** (it answers on its socket, and `CHIME_MODE` is not `embedded`): `current()` is a
///   client of the daemon, which shows the notifications on the desktop (or logs them) and hands the
///   user's answers to the app — or queues them and launches the app with `launchArguments` when it is
///   not running. The example registers its name (and launch command) with the daemon.
/// - **Without**: `current()` is an embedded center presenting in this terminal (the terminal presenter:
///   numbered buttons, typed replies, `o`, `d`).
///
/// The app prints its own lines with `say` (in the terminal case they never break into a prompt) and
/// runs until it calls `finish()` or the user ends the input (Ctrl-D). Launched by chimed for a response
/// (`CHIME_LAUNCH` is set), it runs until it has handled one, at most 30 seconds.
///
/// ```swift
/// let terminal = ExampleTerminal(appIdentifier: "com.example.alarm", appName: "Alarm")
/// ... UNUserNotificationCenter.current() ...
/// await terminal.run()
/// ```
public final class ExampleTerminal: Sendable {
    public let appIdentifier: String
    /// The terminal presenter, when notifications show in this terminal; `nil` with chimed.
    private let presenter: TerminalPresenter?
    private let paths = DaemonPaths()
    private let registration: Task<Void, Never>?
    private let launchedForResponse = ProcessInfo.processInfo.environment["CHIME_LAUNCH"] != nil
    private let state = Mutex(State())
    /// The embedded engine, once `current()` has opened it.
    private let engine = Mutex<NotificationEngine?>(nil)

    private struct State {
        var isFinished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Chooses where notifications show and sets up `current()` for it. Call it first, before anything
    /// uses `UNUserNotificationCenter.current()`.
    ///
    /// - Parameter launchArguments: What chimed runs (this executable with these arguments) to hand the
    ///   app a response while it is not running; `nil` for an app that is not launched for responses.
    public init(appIdentifier: String, appName: String, launchArguments: [String]? = nil) {
        self.appIdentifier = appIdentifier
        if Self.chimedAnswers(at: paths) {
            presenter = nil
            UNUserNotificationCenter.configureEmbedded(appIdentifier: appIdentifier)
            let entry = AppEntry(
                identifier: appIdentifier, displayName: appName, iconPath: nil,
                launchCommand: launchArguments.map { [Self.executablePath] + $0 })
            registration = Task { [paths] in
                guard let client = try? await DaemonClient.connect(paths: paths) else { return }
                try? await client.registerApp(entry)
                client.close()
            }
        } else {
            let terminal = TerminalPresenter(options: TerminalPresenter.Options(appNames: [appIdentifier: appName]))
            presenter = terminal
            registration = nil
            UNUserNotificationCenter.configureEmbedded(
                appIdentifier: appIdentifier, presenter: terminal, authorization: terminal,
                engineOpened: { [self] engine in self.engine.withLock { $0 = engine } })
        }
    }

    /// Whether notifications show on the desktop through chimed rather than in this terminal.
    public var usesDaemon: Bool { presenter == nil }

    /// Prints a line of the app's own (between prompts, in the terminal case).
    public func say(_ text: String) {
        if let presenter {
            presenter.say(text)
        } else {
            FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
    }

    /// The app handled a response. An app launched by chimed for it is then done.
    public func handledResponse() {
        if launchedForResponse { finish() }
    }

    /// Ends `run()`: the app is done.
    public func finish() {
        let waiters = state.withLock { state in
            state.isFinished = true
            defer { state.finishWaiters = [] }
            return state.finishWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs until the app calls `finish()` or the user ends the input, then lets the terminal finish
    /// what it was printing.
    public func run() async {
        await registration?.value
        if let presenter {
            // The presenter's wait for the end of input ends when it stops, so this task always ends.
            let inputWatcher = Task { [self] in
                await presenter.waitForEndOfInput()
                finish()
            }
            await waitUntilFinished()
            await presenter.flush()
            await presenter.stop()
            await inputWatcher.value
        } else if launchedForResponse {
            let deadline = Task { [self] in
                try await Task.sleep(for: .seconds(30))
                finish()
            }
            await waitUntilFinished()
            deadline.cancel()
        } else {
            // Standard input is read on a thread of its own until it ends; the thread outlives `run`
            // only until the process exits.
            let thread = Thread { [self] in
                while let line = readLine(strippingNewline: false), !line.isEmpty {}
                finish()
            }
            thread.start()
            await waitUntilFinished()
        }
    }

    /// Changes the app's show-previews setting as the user would in a settings screen (not something an
    /// app can do on iOS: the examples take it as a command-line option). Call it after authorization,
    /// which sets the settings afresh.
    public func setShowPreviews(_ setting: UNShowPreviewsSetting) async throws {
        guard let previews = ShowPreviewsSetting(rawValue: setting.rawValue) else { return }
        if usesDaemon {
            let client = try await DaemonClient.connect(paths: paths)
            defer { client.close() }
            var settings = try await client.notificationSettings(app: appIdentifier)
            settings.showPreviewsSetting = previews
            try await client.updateSettings(settings, app: appIdentifier)
            return
        }
        guard let engine = engine.withLock({ $0 }) else { return }
        let center = engine.center(for: appIdentifier)
        var settings = try await center.notificationSettings()
        settings.showPreviewsSetting = previews
        try await center.updateSettings(settings)
    }

    private func waitUntilFinished() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if !state.isFinished { state.finishWaiters.append(done) }
                return state.isFinished
            }
            if finished { done.resume() }
        }
    }

    /// Whether chimed answers on its socket (and `CHIME_MODE` does not ask for the embedded engine).
    private static func chimedAnswers(at paths: DaemonPaths) -> Bool {
        let mode = ProcessInfo.processInfo.environment["CHIME_MODE"]?.lowercased()
        if mode == "embedded" { return false }
        if mode == "daemon" { return true }
        return DaemonClient.isListening(paths: paths)
    }

    /// This program, as chimed should start it.
    private static var executablePath: String {
        Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
    }
}
