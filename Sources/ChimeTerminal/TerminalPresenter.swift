public import ChimeCore
public import ChimeEngine
public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows notifications in a terminal and takes the user's answers from it: the presenter, and the
/// authorization prompt, for apps that run in a terminal.
///
/// Each notification with a banner is printed as a block — app, time, title, subtitle, body,
/// attachments, group summary — with its actions numbered, and the user types a choice: a number, `o`
/// to open it (the default action), `d` to dismiss it, or just Enter to leave it for later (it stays in
/// the list; the app hears nothing). An action that takes text asks for the reply, showing its
/// placeholder. The answer goes to the engine (`NotificationEngine.respond`), and the presenter prints
/// what came of it. A bell rings only when the notification has a sound (three for a critical alert,
/// whose header is drawn white on red); notifications delivered quietly (passive, provisional, held
/// back by a focus) are one dim line without a prompt; notifications shown nowhere are not printed.
///
/// ```swift
/// let terminal = TerminalPresenter(options: .init(appNames: ["com.example.photos": "Photos"]))
/// let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: terminal,
///                                 authorization: terminal)
/// await engine.start()                 // connects the presenter to the engine (held weakly)
/// // ... run ...
/// await terminal.stop()
/// ```
///
/// ```
///
/// [Photos] 09:00
///   Hello
///   Shared some photo
///   [image] logo-image
///   1) Like
///   2) Dislike
///   o) open   d) dismiss   Enter) later
/// Choice: 1
///   → “Like” chosen. Photos handles it in the background.
/// ```
///
/// **One prompt at a time.** A notification or question that arrives while the user answers another
/// waits, in order; the prompt says how many wait. Nothing is printed into a line being typed. Every
/// banner waits for an answer, persistent or not (a terminal has no bubble that fades): Enter is the
/// way to let it go. When the app replaces a notification's buttons (a `ResponseDisposition` that keeps
/// it on screen), the notification comes again at once, marked `updated`, with the new buttons and no
/// bell; the same notification delivered again (a new delivery date) is a new alert. A notification
/// withdrawn while its prompt is open closes the prompt with a note; one withdrawn while it waits is
/// never shown. A badge change is one line: `[Photos] badge 3`.
///
/// **Input.** Line by line: on a terminal in its usual mode the user edits the line with the terminal's
/// own keys and Enter sends it. Anything else (a pipe, a file) is read the same way and echoed after
/// its prompt, so the output reads as a terminal would have shown it. An unknown choice is answered
/// with what to type, and the prompt comes again; nothing is sent.
///
/// **Authorization.** As the engine's `AuthorizationResolver`, it asks
/// `Allow “Photos” to send notifications? [y/n]` and waits for `y` or `n`.
///
/// **Threading.** The engine's calls (`present`, `withdraw`, `updateBadge`) only queue an event and
/// return at once; `decide` queues a question and waits for the answer, which suspends its task, never a
/// thread. Two threads of the presenter's own do the blocking work: one reads lines from the input
/// (`poll` and `read`), one takes the events in order, writes the output and starts each response to
/// the engine as a task whose result comes back as an event. So a user who never answers never blocks
/// the engine, and no blocking call runs on the cooperative thread pool. All methods may be called from
/// any thread or task.
///
/// **Lifetime.** The threads start with `init` and run until `stop()` (or until the presenter is
/// released). The presenter owns its input while it runs: nothing else should read it. When the input
/// ends (Ctrl-D, a closed pipe), open prompts close, later notifications are printed without a prompt,
/// and later authorization questions are answered "not allowed" — the engine needs a decision, and that
/// is the one that does nothing the user did not agree to.
///
/// **Output.** Colours only when the output is a terminal, `NO_COLOR` is unset (or empty) and `TERM` is
/// not `dumb` (`Options.colors` overrides); lines fit in `Options.width` columns (80), wide characters
/// counted as two. App text is stripped of control characters and bidirectional overrides, so a
/// notification cannot move the cursor, recolour the terminal or disguise itself.
public final class TerminalPresenter: NotificationPresenter, AuthorizationResolver {
    /// How the presenter looks.
    public struct Options: Sendable {
        /// Names to show for app identifiers (`["com.example.photos": "Photos"]`); an app without one is
        /// shown by its identifier.
        public var appNames: [String: String]
        public var colors: TerminalColors
        /// The most columns a line takes; at least 20.
        public var width: Int
        /// The time zone delivery times are shown in.
        public var timeZone: TimeZone
        /// The environment `colors: .automatic` reads (`NO_COLOR`, `TERM`).
        public var environment: [String: String]

        public init(
            appNames: [String: String] = [:], colors: TerminalColors = .automatic, width: Int = 80, timeZone: TimeZone = .current,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.appNames = appNames
            self.colors = colors
            self.width = width
            self.timeZone = timeZone
            self.environment = environment
        }
    }

    /// Whether the output is coloured (decided once, in `init`).
    public let usesColors: Bool

    private let session: TerminalSession

    /// Starts reading `input` and writing to `output`.
    ///
    /// - Parameters:
    ///   - input: Where the user's answers come from, one per line; the presenter reads it on a thread of
    ///     its own until it ends or `stop()`.
    ///   - output: Where notifications and prompts go.
    /// - Precondition: `options.width` is at least 20.
    public init(input: FileHandle = .standardInput, output: FileHandle = .standardOutput, options: Options = Options()) {
        let style = TerminalStyle.detect(options.colors, fileDescriptor: output.fileDescriptor, environment: options.environment)
        usesColors = style.isEnabled
        let renderer = TerminalRenderer(style: style, width: options.width, timeZone: options.timeZone, appNames: options.appNames)
        session = TerminalSession(input: input, output: output)
        // A terminal echoes what the user types; for other input the presenter does, so the output reads
        // the same either way.
        session.start(renderer: renderer, echoesInput: isatty(input.fileDescriptor) != 1)
    }

    deinit {
        session.shutDown()
    }

    /// Sends the user's answers to `engine`, which is held weakly (the engine holds its presenter); the
    /// engine calls it when it starts. Until it is connected, or once it is gone, an answer is refused
    /// with a note.
    public func connect(to engine: NotificationEngine) {
        session.connect(to: engine)
    }

    /// Prints a line of the app's own (`Snoozed until 07:39.`) in the same terminal: at once when no
    /// prompt is open, else as soon as the user has answered it, so it never breaks into a line being
    /// typed. Lines keep their order with the notifications around them.
    public func say(_ text: String) {
        session.post(.say(text))
    }

    /// Returns once what was posted before is written — notifications, the outcome of the answer the
    /// engine is handling, lines from `say` — except what waits behind a prompt still open. For an app
    /// that is done: `flush()`, then `stop()`.
    public func flush() async {
        await session.flush()
    }

    /// Returns once the input has ended (Ctrl-D, a closed pipe) and the presenter has closed its open
    /// prompt, or once the presenter has stopped: the moment an app that runs "until the user is done"
    /// quits. Returns at once when that has already happened.
    public func waitForEndOfInput() async {
        await session.waitForEndOfInput()
    }

    /// Stops reading and writing, and returns once the presenter's threads are done. Open authorization
    /// questions are answered "not allowed"; notifications not yet shown are not shown. Later calls
    /// return at once.
    public func stop() async {
        await session.stop()
    }

    // MARK: NotificationPresenter

    public func present(_ presentation: Presentation) async {
        session.post(.present(presentation))
    }

    public func withdraw(appIdentifier: String, identifiers: [String]) async {
        session.post(.withdraw(appIdentifier: appIdentifier, identifiers: identifiers))
    }

    public func updateBadge(appIdentifier: String, count: Int) async {
        session.post(.badge(appIdentifier: appIdentifier, count: count))
    }

    // MARK: AuthorizationResolver

    /// Asks "Allow “App” to send notifications? [y/n]" once the prompts before it are answered, and
    /// returns the user's answer; `nil` when input has ended, so the app stays undecided.
    public func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        await session.ask(appIdentifier: appIdentifier, options: options)
    }
}

/// The presenter's running part: the event queue, the two threads, the engine connection and the open
/// authorization questions. The threads hold it, not the presenter, so releasing the presenter stops
/// them.
private final class TerminalSession: Sendable {
    private struct Shared {
        weak var engine: NotificationEngine?
        var nextQuestion = 0
        var questions: [Int: CheckedContinuation<Bool?, Never>] = [:]
        var isFinished = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var inputEnded = false
        var inputEndWaiters: [CheckedContinuation<Void, Never>] = []
        var nextFlush = 0
        var flushes: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let events = EventQueue<TerminalConversation.Event>()
    private let reader: LineReader
    /// Kept so the descriptor the reader polls stays open while it runs.
    private let input: FileHandle
    private let output: FileHandle
    private let shared = Mutex(Shared())

    init(input: FileHandle, output: FileHandle) {
        self.input = input
        self.output = output
        reader = LineReader(fileDescriptor: input.fileDescriptor)
    }

    func start(renderer: TerminalRenderer, echoesInput: Bool) {
        let thread = Thread { [self] in run(TerminalConversation(renderer: renderer, echoesInput: echoesInput)) }
        thread.name = "chime.terminal.conversation"
        thread.start()
        reader.start(line: { [events] in events.post(.line($0)) }, end: { [events] in events.post(.endOfInput) })
    }

    func connect(to engine: NotificationEngine) {
        shared.withLock { $0.engine = engine }
    }

    func post(_ event: TerminalConversation.Event) {
        events.post(event)
    }

    func ask(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        await withCheckedContinuation { (answer: CheckedContinuation<Bool?, Never>) in
            let id = shared.withLock { shared -> Int? in
                guard !shared.isFinished else { return nil }
                shared.nextQuestion += 1
                shared.questions[shared.nextQuestion] = answer
                return shared.nextQuestion
            }
            guard let id else { return answer.resume(returning: nil) }
            if !events.post(.authorize(AuthorizationQuestion(id: id, appIdentifier: appIdentifier, options: options))) {
                self.answer(id, allowed: nil)
            }
        }
    }

    func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let id = shared.withLock { shared -> Int? in
                guard !shared.isFinished else { return nil }
                shared.nextFlush += 1
                shared.flushes[shared.nextFlush] = done
                return shared.nextFlush
            }
            guard let id else { return done.resume() }
            if !events.post(.flush(id: id)) { flushed(id) }
        }
    }

    func waitForEndOfInput() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let ended = shared.withLock { shared in
                if !shared.inputEnded { shared.inputEndWaiters.append(done) }
                return shared.inputEnded
            }
            if ended { done.resume() }
        }
    }

    func stop() async {
        shutDown()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finished = shared.withLock { shared in
                if !shared.isFinished { shared.stopWaiters.append(done) }
                return shared.isFinished
            }
            if finished { done.resume() }
        }
    }

    /// Tells both threads to end, without waiting for them.
    func shutDown() {
        reader.stop()
        events.close()
    }

    // MARK: The conversation thread

    private func run(_ conversation: TerminalConversation) {
        var conversation = conversation
        while let event = events.take() {
            for effect in conversation.handle(event) {
                switch effect {
                case .write(let text): emit(text)
                case .respond(let key, let action): respond(action, to: key)
                case .answer(let id, let allowed): answer(id, allowed: allowed)
                case .flushed(let id): flushed(id)
                }
            }
            if case .endOfInput = event { endInput() }
        }
        endInput()
        let (questions, waiters) = shared.withLock { shared in
            shared.isFinished = true
            defer {
                shared.questions = [:]
                shared.stopWaiters = []
                shared.flushes = [:]
            }
            return (Array(shared.questions.values), shared.stopWaiters + shared.flushes.values)
        }
        for question in questions { question.resume(returning: nil) }
        for waiter in waiters { waiter.resume() }
    }

    /// Sends the user's answer to the engine in a task of its own, so the conversation goes on (updates
    /// and withdrawals the engine sends meanwhile are queued), and posts the result back.
    private func respond(_ action: UserAction, to key: NotificationKey) {
        let engine = shared.withLock { $0.engine }
        Task { [events] in
            let result: Result<ResponseOutcome, any Error>
            if let engine {
                do {
                    result = .success(
                        try await engine.respond(appIdentifier: key.appIdentifier, notificationIdentifier: key.identifier, action: action))
                } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(NotConnected())
            }
            events.post(.responded(key, result))
        }
    }

    private func flushed(_ id: Int) {
        let waiter = shared.withLock { $0.flushes.removeValue(forKey: id) }
        waiter?.resume()
    }

    private func endInput() {
        let waiters = shared.withLock { shared in
            shared.inputEnded = true
            defer { shared.inputEndWaiters = [] }
            return shared.inputEndWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func answer(_ id: Int, allowed: Bool?) {
        let question = shared.withLock { $0.questions.removeValue(forKey: id) }
        question?.resume(returning: allowed)
    }

    /// Writes all of `text`, retrying after signals and short writes; gives up quietly when the output
    /// is gone (nobody is left to tell).
    private func emit(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(output.fileDescriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
