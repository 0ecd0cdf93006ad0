import ChimeCore
import ChimeEngine
import ChimeTerminal
import Foundation
import Synchronization
public import UserNotifications

/// The terminal an example app runs in: notifications, their buttons and the authorization prompt are
/// shown there (the terminal presenter), and `current()` is an embedded center that presents through it.
///
/// The app prints its own lines with `say`, so they never break into a prompt, and runs until it calls
/// `finish()` or the user ends the input (Ctrl-D).
///
/// ```swift
/// let terminal = ExampleTerminal(appIdentifier: "com.example.alarm", appName: "Alarm")
/// ... UNUserNotificationCenter.current() ...
/// await terminal.run()
/// ```
public final class ExampleTerminal: Sendable {
    public let appIdentifier: String
    private let presenter: TerminalPresenter
    private let state = Mutex(State())
    /// The embedded engine, once `current()` has opened it.
    private let engine = Mutex<NotificationEngine?>(nil)

    private struct State {
        var isFinished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Sets up the embedded center of this process to present in this terminal. Call it first, before
    /// anything uses `UNUserNotificationCenter.current()`.
    public init(appIdentifier: String, appName: String) {
        self.appIdentifier = appIdentifier
        presenter = TerminalPresenter(options: TerminalPresenter.Options(appNames: [appIdentifier: appName]))
        UNUserNotificationCenter.configureEmbedded(
            appIdentifier: appIdentifier, presenter: presenter, authorization: presenter,
            engineOpened: { [self] engine in self.engine.withLock { $0 = engine } })
    }

    /// Prints a line of the app's own, between prompts.
    public func say(_ text: String) {
        presenter.say(text)
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
        // The presenter's wait for the end of input ends when it stops, so this task always ends.
        let inputWatcher = Task { [presenter, self] in
            await presenter.waitForEndOfInput()
            finish()
        }
        await waitUntilFinished()
        await presenter.flush()
        await presenter.stop()
        await inputWatcher.value
    }

    /// Changes the app's show-previews setting as the user would in a settings screen (not something an
    /// app can do on iOS: the examples take it as a command-line option). Call it after authorization,
    /// which sets the settings afresh.
    public func setShowPreviews(_ setting: UNShowPreviewsSetting) async throws {
        guard let engine = engine.withLock({ $0 }), let previews = ShowPreviewsSetting(rawValue: setting.rawValue) else { return }
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
}
