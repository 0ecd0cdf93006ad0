import ChimeCore
import ChimeEngine
import ChimeTerminal
import ChimeTesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A whole notification system at a terminal: a real engine over an in-memory store and a manual clock,
/// the terminal presenter as its presenter and authorization prompt, and a user who reads the screen and
/// types — through pipes, or through a real pseudo-terminal.
struct TerminalHarness {
    static let start = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z, 09:00 in Seoul
    static let appNames = ["com.example.photos": "Photos", "com.example.meetings": "Meetings"]

    enum Connection {
        /// Two pipes: the presenter's output is not a terminal, so it is plain text.
        case pipes
        /// A pseudo-terminal: the presenter reads and writes its terminal side, the user types on the
        /// other, which echoes what they type, as a terminal does.
        case pseudoTerminal
    }

    let clock = ManualClock(now: TerminalHarness.start)
    let presenter: TerminalPresenter
    let engine: NotificationEngine
    let screen: TerminalScreen
    /// Where the user types.
    private let keyboard: FileHandle
    /// The presenter's output, closed by `finish()` so the screen sees the end.
    private let presenterOutput: FileHandle
    private let presenterInput: FileHandle
    /// What the screen reads; open until the screen has seen the end.
    private let screenSource: FileHandle

    init(_ connection: Connection = .pipes, environment: [String: String] = [:]) throws {
        let options = TerminalPresenter.Options(
            appNames: Self.appNames, timeZone: TimeZone(identifier: "Asia/Seoul")!, environment: environment)
        switch connection {
        case .pipes:
            let input = Pipe()
            let output = Pipe()
            keyboard = input.fileHandleForWriting
            presenterInput = input.fileHandleForReading
            presenterOutput = output.fileHandleForWriting
            screenSource = output.fileHandleForReading
            screen = TerminalScreen(reading: screenSource.fileDescriptor)
        case .pseudoTerminal:
            let pty = try PseudoTerminal()
            let (controller, terminal) = (pty.controller, pty.terminal)
            keyboard = controller
            presenterInput = terminal
            presenterOutput = terminal
            screenSource = controller
            screen = TerminalScreen(reading: controller.fileDescriptor, joinsCarriageReturns: true)
        }
        presenter = TerminalPresenter(input: presenterInput, output: presenterOutput, options: options)
        engine = NotificationEngine(
            store: InMemoryNotificationStore(), clock: clock, presenter: presenter, authorization: presenter,
            timeZone: TimeZone(identifier: "Asia/Seoul")!, log: SilentLog())
        presenter.connect(to: engine)
    }

    /// A harness whose app `appIdentifier` the user has allowed at the prompt, with `categories`
    /// registered, `app` attached as its delegate (in the background: the system presents), and the
    /// scheduler running. The prompt is read off the screen.
    static func started(
        _ connection: Connection = .pipes, environment: [String: String] = [:], appIdentifier: String = "com.example.photos",
        options: AuthorizationOptions = [.alert, .sound, .badge], categories: [NotificationCategory] = [], app: RecordingApp
    ) async throws -> (TerminalHarness, AppNotificationCenter) {
        let harness = try TerminalHarness(connection, environment: environment)
        let center = harness.engine.center(for: appIdentifier)
        async let granted = center.requestAuthorization(options: options)
        _ = try await harness.screen.next(through: "[y/n] ")
        harness.type("y")
        guard try await granted else { throw HarnessError.notAllowed }
        _ = try await harness.screen.next(through: "Allowed.")
        _ = try await harness.screen.next(through: "\n")  // after the style's reset, if coloured
        try await center.setNotificationCategories(categories)
        await center.setDelegate(app, isForeground: false)
        await harness.engine.start()
        return (harness, center)
    }

    enum HarnessError: Error { case notAllowed }

    /// Waits until the screen shows `expected`'s last line, and expects everything shown since the last
    /// look to be exactly `expected`.
    func expectScreen(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // The last line, from the line break before it when there is one, so that the same text inside an
        // earlier line does not count.
        let body = expected.hasSuffix("\n") ? expected.dropLast() : Substring(expected)
        let marker = body.lastIndex(of: "\n").map { expected[$0...] } ?? expected[...]
        let shown = try await screen.next(through: String(marker))
        #expect(shown == expected, sourceLocation: sourceLocation)
    }

    /// Waits until the scheduler has delivered what is due and sleeps again: what it presented has
    /// reached the presenter, so whatever the test does next shows after it.
    func delivered() async {
        _ = await clock.nextWakeUp()
    }

    /// The user types `line` and presses Enter.
    func type(_ line: String) {
        keyboard.write(Data((line + "\n").utf8))
    }

    /// The user presses keys without Enter (`"\u{4}"` is Ctrl-D).
    func press(_ keys: String) {
        keyboard.write(Data(keys.utf8))
    }

    /// The user ends the input (Ctrl-D on an empty line; a pipe's writer closes).
    func closeInput() throws {
        try keyboard.close()
    }

    /// Stops the presenter and the engine, closes the presenter's output, and returns what the screen
    /// showed since it was last read: so a test can say nothing else was printed.
    func finish() async throws -> String {
        await presenter.stop()
        await engine.stop()
        try presenterOutput.close()
        if presenterInput !== presenterOutput { try? presenterInput.close() }
        return try await screen.rest()
    }

    /// A notification delivered now.
    static func request(_ identifier: String, _ content: NotificationContent) throws -> NotificationRequest {
        try NotificationRequest(identifier: identifier, content: content, trigger: nil)
    }
}

/// An app's delegate that records every response and answers with a disposition the test sets.
final class RecordingApp: NotificationCenterDelegate {
    private struct State {
        var responses: [NotificationResponse] = []
        var disposition: @Sendable (NotificationResponse) -> ResponseDisposition = { _ in .standard }
    }

    private let state = Mutex(State())

    var responses: [NotificationResponse] { state.withLock { $0.responses } }

    /// What the app answers to each response from now on.
    func answer(_ disposition: @escaping @Sendable (NotificationResponse) -> ResponseDisposition) {
        state.withLock { $0.disposition = disposition }
    }

    func didReceive(_ response: NotificationResponse) async -> ResponseDisposition {
        state.withLock { state in
            state.responses.append(response)
            return state.disposition(response)
        }
    }
}
