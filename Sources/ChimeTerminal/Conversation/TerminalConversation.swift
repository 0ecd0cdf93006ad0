import ChimeCore
import ChimeEngine
import Foundation

/// One notification on screen, as a response names it.
struct NotificationKey: Hashable, Sendable {
    var appIdentifier: String
    var identifier: String

    init(appIdentifier: String, identifier: String) {
        self.appIdentifier = appIdentifier
        self.identifier = identifier
    }

    init(_ presentation: Presentation) {
        self.init(appIdentifier: presentation.appIdentifier, identifier: presentation.notificationIdentifier)
    }
}

/// An authorization question waiting for the user.
struct AuthorizationQuestion: Hashable, Sendable {
    var id: Int
    var appIdentifier: String
    var options: AuthorizationOptions
}

/// The dialogue between the user at the terminal and the notification system: a pure state machine.
///
/// Events come in one at a time — a notification to show, a withdrawal, a badge, an authorization
/// question, a line the user typed, the end of input, the engine's answer to a response — and each
/// returns the effects to perform: text to write, a response to send to the engine, an authorization
/// answer to return. No I/O, no clock, no threads: `TerminalPresenter` drives it from one thread, and
/// tests drive it with plain values.
///
/// Rules:
/// - One prompt at a time. What arrives while a prompt is open waits in a queue, in order; nothing is
///   written while the user is typing an answer, except when the prompt itself closes (its notification
///   was updated or removed, or input ended).
/// - A notification without a banner but in the list is one quiet line; one in neither is not shown.
/// - A notification already on screen that comes again with the same delivery date is an update (the
///   app replaced its buttons): shown again, marked, without a bell. With a new date it is a new alert.
/// - While the engine handles a response, lines typed wait for the next prompt, and an update of the
///   notification is shown right after the response's outcome.
/// - After input ends, notifications are still shown, without prompts, and authorization questions are
///   answered "not allowed".
/// - Lines the app writes itself wait, like badge lines, until no prompt is open, so they never break
///   into a line being typed; in order with everything else.
/// - A flush is answered once the response being handled (if any) has its outcome written, with what
///   came before it.
/// - With `echoesInput` (input that is not a terminal, which would echo it itself), each line read is
///   written after its prompt, so the output reads as the user saw it.
struct TerminalConversation {
    enum Event: Sendable {
        case present(Presentation)
        case withdraw(appIdentifier: String, identifiers: [String])
        case badge(appIdentifier: String, count: Int)
        case authorize(AuthorizationQuestion)
        case line(String)
        case endOfInput
        /// A line of the app's own (`TerminalPresenter.say`), shown between prompts.
        case say(String)
        /// Someone waits until everything before is shown (`TerminalPresenter.flush`).
        case flush(id: Int)
        /// What the engine did with a response this machine asked for.
        case responded(NotificationKey, Result<ResponseOutcome, any Error>)
    }

    enum Effect: Equatable, Sendable {
        case write(String)
        /// Send the user's action to the engine, then feed its result back as `.responded`.
        case respond(NotificationKey, UserAction)
        /// Return the user's decision to the authorization question `id`.
        /// The user's answer to an authorization question; `nil` when input ended before one came.
        case answer(id: Int, allowed: Bool?)
        /// Everything before `.flush(id)` is written, or waits behind an open prompt.
        case flushed(id: Int)
    }

    /// What the user is answering now.
    enum Prompt {
        case none
        case choice(Presentation)
        case reply(Presentation, PresentationAction)
        case authorization(AuthorizationQuestion)
        /// The engine handles the user's answer; `update` is the notification re-presented meanwhile.
        case responding(Presentation, UserAction, update: Presentation?)

        /// The notification whose prompt is open, while the user can still answer it.
        var openNotification: Presentation? {
            switch self {
            case .choice(let presentation), .reply(let presentation, _): presentation
            case .none, .authorization, .responding: nil
            }
        }
    }

    private enum Item {
        case notification(Presentation)
        case quiet(Presentation)
        case text(String)
        case authorization(AuthorizationQuestion)

        var key: NotificationKey? {
            switch self {
            case .notification(let presentation), .quiet(let presentation): NotificationKey(presentation)
            case .text, .authorization: nil
            }
        }

        var asksTheUser: Bool {
            switch self {
            case .notification, .authorization: true
            case .quiet, .text: false
            }
        }
    }

    let renderer: TerminalRenderer
    let echoesInput: Bool
    private(set) var prompt = Prompt.none
    private(set) var inputClosed = false
    private var queue: [Item] = []
    /// Notifications shown with a banner and not taken off the screen since, with their delivery date.
    private var onScreen: [NotificationKey: Date] = [:]
    /// Lines typed while the engine handled a response.
    private var deferredLines: [String] = []
    /// Flushes that wait for the outcome of the response being handled.
    private var pendingFlushes: [Int] = []
    private var effects: [Effect] = []

    init(renderer: TerminalRenderer, echoesInput: Bool = false) {
        self.renderer = renderer
        self.echoesInput = echoesInput
    }

    /// Applies `event` and returns what to do, in order.
    mutating func handle(_ event: Event) -> [Effect] {
        effects = []
        apply(event)
        advance()
        while !isResponding, !deferredLines.isEmpty {
            apply(.line(deferredLines.removeFirst()))
            advance()
        }
        if !isResponding {
            effects += pendingFlushes.map { .flushed(id: $0) }
            pendingFlushes = []
        }
        return effects
    }

    /// How many notifications and questions wait behind the open prompt.
    var waiting: Int { queue.filter(\.asksTheUser).count }

    private var isResponding: Bool {
        if case .responding = prompt { return true }
        return false
    }

    // MARK: - Events

    private mutating func apply(_ event: Event) {
        switch event {
        case .present(let presentation): receive(presentation)
        case .withdraw(let appIdentifier, let identifiers): withdraw(identifiers.map { NotificationKey(appIdentifier: appIdentifier, identifier: $0) })
        case .badge(let appIdentifier, let count): queue.append(.text(renderer.badge(appIdentifier: appIdentifier, count: count)))
        case .authorize(let question): queue.append(.authorization(question))
        case .line(let line): read(line)
        case .endOfInput: closeInput()
        case .say(let text): queue.append(.text(renderer.appText(text)))
        case .flush(let id): pendingFlushes.append(id)
        case .responded(let key, let result): finish(key, result)
        }
    }

    private mutating func receive(_ presentation: Presentation) {
        let key = NotificationKey(presentation)
        guard presentation.destinations.contains(.banner) else {
            if presentation.destinations.contains(.list) { enqueue(.quiet(presentation)) }
            return
        }
        if case .responding(let answered, let action, _) = prompt, NotificationKey(answered) == key {
            prompt = .responding(answered, action, update: presentation)
        } else if let open = prompt.openNotification, NotificationKey(open) == key {
            write("\n")
            prompt = .none
            queue.insert(.notification(presentation), at: 0)
        } else {
            enqueue(.notification(presentation))
        }
    }

    /// Adds an item to the queue, in place of a waiting one for the same notification.
    private mutating func enqueue(_ item: Item) {
        if let index = queue.firstIndex(where: { $0.key != nil && $0.key == item.key }) {
            queue[index] = item
        } else {
            queue.append(item)
        }
    }

    private mutating func withdraw(_ keys: [NotificationKey]) {
        for key in keys {
            onScreen[key] = nil
            queue.removeAll { $0.key == key }
            if let open = prompt.openNotification, NotificationKey(open) == key {
                write(renderer.removedWhileOpen)
                prompt = .none
            }
            // A notification being answered is withdrawn by the engine as part of the answer: the
            // outcome says what happened.
        }
    }

    private mutating func read(_ line: String) {
        if case .responding = prompt {
            return deferredLines.append(line)
        }
        if echoesInput { write(renderer.echo(line)) }
        switch prompt {
        case .none:
            if !line.trimmingSpaces.isEmpty { write(renderer.nothingWaiting) }
        case .responding:
            break  // deferred above
        case .choice(let presentation):
            choose(line, on: presentation)
        case .reply(let presentation, let action):
            if line.trimmingSpaces.isEmpty {
                prompt = .choice(presentation)
                write(renderer.choices(presentation) + renderer.choicePrompt(waiting: waiting))
            } else {
                respond(.reply(action: action.identifier, text: line), on: presentation)
            }
        case .authorization(let question):
            guard let allowed = TerminalChoice.authorizationAnswer(line) else {
                write(renderer.invalidAuthorizationAnswer + renderer.authorizationPrompt(appIdentifier: question.appIdentifier))
                return
            }
            write(renderer.authorizationAnswer(allowed))
            effects.append(.answer(id: question.id, allowed: allowed))
            prompt = .none
        }
    }

    private mutating func choose(_ line: String, on presentation: Presentation) {
        switch TerminalChoice(parsing: line, actions: presentation.actions) {
        case .later:
            write(renderer.leftForLater(presentation))
            onScreen[NotificationKey(presentation)] = nil
            prompt = .none
        case .open:
            respond(.open, on: presentation)
        case .dismiss:
            respond(.dismiss, on: presentation)
        case .action(let index):
            let action = presentation.actions[index]
            if action.textInput != nil {
                prompt = .reply(presentation, action)
                write(renderer.replyPrompt(action))
            } else {
                respond(.action(action.identifier), on: presentation)
            }
        case .invalid:
            write(renderer.invalidChoice(line, for: presentation) + renderer.choicePrompt(waiting: waiting))
        }
    }

    private mutating func respond(_ action: UserAction, on presentation: Presentation) {
        prompt = .responding(presentation, action, update: nil)
        effects.append(.respond(NotificationKey(presentation), action))
    }

    private mutating func finish(_ key: NotificationKey, _ result: Result<ResponseOutcome, any Error>) {
        guard case .responding(let presentation, let action, let update) = prompt, NotificationKey(presentation) == key else {
            return
        }
        prompt = .none
        switch result {
        case .success(let outcome):
            write(renderer.outcome(outcome, of: action, on: presentation))
            if outcome.disposition.outcome != .keepOnScreen { onScreen[key] = nil }
        case .failure(let error):
            write(renderer.refusal(error, of: action, on: presentation))
            let code = (error as? ChimeError)?.code
            if update == nil, !inputClosed, code == .sessionLocked || code == .actionNotAvailable {
                // Nothing changed: the user may choose again.
                prompt = .choice(presentation)
                write(renderer.choices(presentation) + renderer.choicePrompt(waiting: waiting))
            }
        }
        // The update comes before every other prompt, after the lines that arrived meanwhile (what the
        // app said about the answer reads before the new buttons).
        if let update { queue.insert(.notification(update), at: queue.firstIndex(where: \.asksTheUser) ?? queue.endIndex) }
    }

    private mutating func closeInput() {
        inputClosed = true
        switch prompt {
        case .choice, .reply:
            write(renderer.inputClosedWhileOpen)
            prompt = .none
        case .authorization(let question):
            write(renderer.authorizationInputClosed)
            effects.append(.answer(id: question.id, allowed: nil))
            prompt = .none
        case .none, .responding:
            break
        }
    }

    // MARK: - The queue

    /// Shows what waits, in order, until something opens a prompt.
    private mutating func advance() {
        while case .none = prompt, !queue.isEmpty {
            switch queue.removeFirst() {
            case .notification(let presentation): show(presentation)
            case .quiet(let presentation): write(renderer.quietLine(presentation))
            case .text(let text): write(text)
            case .authorization(let question): ask(question)
            }
        }
    }

    private mutating func show(_ presentation: Presentation) {
        let key = NotificationKey(presentation)
        let isUpdate = onScreen[key] == presentation.date
        onScreen[key] = presentation.date
        write(renderer.notification(presentation, isUpdate: isUpdate, waiting: waiting, interactive: !inputClosed))
        if !inputClosed { prompt = .choice(presentation) }
    }

    private mutating func ask(_ question: AuthorizationQuestion) {
        if inputClosed {
            write(renderer.authorizationWithoutInput(appIdentifier: question.appIdentifier))
            effects.append(.answer(id: question.id, allowed: nil))
        } else {
            write(renderer.authorizationQuestion(appIdentifier: question.appIdentifier, options: question.options))
            prompt = .authorization(question)
        }
    }

    private mutating func write(_ text: String) {
        if case .write(let previous) = effects.last {
            effects[effects.count - 1] = .write(previous + text)
        } else {
            effects.append(.write(text))
        }
    }
}
