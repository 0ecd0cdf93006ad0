import ChimeCore
import ChimeEngine
import Foundation
import Testing

@testable import ChimeTerminal

/// The dialogue as a state machine, event by event: what waits, what is written, what is sent.
@Suite("Terminal: the conversation")
struct TerminalConversationTests {
    typealias Effect = TerminalConversation.Effect
    let renderer = TerminalRenderer(timeZone: TimeZone(identifier: "Asia/Seoul")!)

    static let like = PresentationAction(identifier: "like", title: "Like")
    static let unfollow = PresentationAction(identifier: "unfollow", title: "Unfollow", isDestructive: true, requiresUnlock: true)

    static func notification(
        _ identifier: String, date: Date = TerminalRendererTests.delivered, sound: PresentationSound? = nil,
        destinations: PresentationDestinations = [.banner, .list], actions: [PresentationAction] = [like]
    ) -> Presentation {
        TerminalRendererTests.presentation(title: identifier, body: "", actions: actions, destinations: destinations) {
            $0.notificationIdentifier = identifier
            $0.date = date
            $0.sound = sound
        }
    }

    static func key(_ identifier: String) -> NotificationKey {
        NotificationKey(appIdentifier: "com.example.photos", identifier: identifier)
    }

    func shown(_ presentation: Presentation, isUpdate: Bool = false) -> Effect {
        .write(renderer.notification(presentation, isUpdate: isUpdate, waiting: 0, interactive: true))
    }

    @Test func whatArrivesDuringAPromptWaitsAndThePromptCountsIt() {
        var conversation = TerminalConversation(renderer: renderer)
        let first = Self.notification("first")
        let second = Self.notification("second")
        #expect(conversation.handle(.present(first)) == [shown(first)])
        #expect(conversation.handle(.present(second)).isEmpty)
        #expect(conversation.handle(.authorize(AuthorizationQuestion(id: 1, appIdentifier: "com.example.photos", options: [.alert]))).isEmpty)
        #expect(conversation.waiting == 2)
        #expect(
            conversation.handle(.line("9"))
                == [.write(renderer.invalidChoice("9", for: first) + "Choice (2 waiting): ")])
        #expect(conversation.handle(.line("1")) == [.respond(Self.key("first"), .action("like"))])
        #expect(
            conversation.handle(.responded(Self.key("first"), .failure(ChimeError(.notificationNotFound, field: "notification", "gone"))))
                == [.write("  This notification is gone.\n" + renderer.notification(second, isUpdate: false, waiting: 1, interactive: true))])
    }

    @Test func linesTypedWhileTheEngineAnswersGoToTheNextPrompt() {
        var conversation = TerminalConversation(renderer: renderer)
        let first = Self.notification("first")
        let second = Self.notification("second")
        _ = conversation.handle(.present(first))
        _ = conversation.handle(.present(second))
        #expect(conversation.handle(.line("o")) == [.respond(Self.key("first"), .open)])
        #expect(conversation.handle(.line("d")).isEmpty)  // typed ahead
        #expect(conversation.handle(.withdraw(appIdentifier: "com.example.photos", identifiers: ["first"])).isEmpty)
        #expect(
            conversation.handle(.responded(Self.key("first"), .failure(NotConnected())))
                == [
                    .write(renderer.refusal(NotConnected(), of: .open, on: first) + renderer.notification(second, isUpdate: false, waiting: 0, interactive: true)),
                    .respond(Self.key("second"), .dismiss),
                ])
    }

    @Test func aRefusedUnlockActionAsksAgain() {
        var conversation = TerminalConversation(renderer: renderer)
        let post = Self.notification("post", actions: [Self.like, Self.unfollow])
        _ = conversation.handle(.present(post))
        #expect(conversation.handle(.line("2")) == [.respond(Self.key("post"), .action("unfollow"))])
        let locked = ChimeError(.sessionLocked, field: "action", "locked")
        #expect(
            conversation.handle(.responded(Self.key("post"), .failure(locked)))
                == [
                    .write(
                        "  “Unfollow” needs an unlocked session: unlock it, then choose again.\n" + renderer.choices(post) + "Choice: ")
                ])
        #expect(conversation.handle(.line("1")) == [.respond(Self.key("post"), .action("like"))])
    }

    @Test func theSameDeliveryAgainIsAnUpdateWithoutBellAndANewDeliveryAlertsAgain() {
        var conversation = TerminalConversation(renderer: renderer)
        let ring = Self.notification("alarm", sound: .default)
        #expect(conversation.handle(.present(ring)) == [shown(ring)])

        var newButtons = ring
        newButtons.actions = [Self.unfollow]
        #expect(conversation.handle(.present(newButtons)) == [.write("\n"), shown(newButtons, isUpdate: true)].merged)
        #expect(conversation.handle(.line("")) == [.write("  Left in the list.\n")])  // for later: off the screen

        let again = Self.notification("alarm", date: TerminalRendererTests.delivered.addingTimeInterval(540), sound: .default)
        guard case .write(let text) = conversation.handle(.present(again)).first else {
            Issue.record("nothing shown")
            return
        }
        #expect(text.hasPrefix("\u{7}\n[com.example.photos] 09:09\n"))
    }

    @Test func aNotificationShownNowhereIsNotWrittenAndAListOnlyOneIsAQuietLine() {
        var conversation = TerminalConversation(renderer: renderer)
        #expect(conversation.handle(.present(Self.notification("nowhere", destinations: []))).isEmpty)
        #expect(conversation.handle(.present(Self.notification("locked", destinations: [.lockScreen]))).isEmpty)
        let quiet = Self.notification("quiet", destinations: [.list])
        #expect(conversation.handle(.present(quiet)) == [.write(renderer.quietLine(quiet))])
    }

    @Test func aWaitingNotificationThatIsWithdrawnIsNeverShown() {
        var conversation = TerminalConversation(renderer: renderer)
        _ = conversation.handle(.present(Self.notification("first")))
        _ = conversation.handle(.present(Self.notification("second")))
        #expect(conversation.handle(.withdraw(appIdentifier: "com.example.photos", identifiers: ["second"])).isEmpty)
        #expect(conversation.handle(.line("")) == [.write("  Left in the list.\n")])
        #expect(conversation.prompt.openNotification == nil)
    }

    @Test func theEndOfInputAnswersAnOpenQuestionNo() {
        var conversation = TerminalConversation(renderer: renderer)
        let question = AuthorizationQuestion(id: 7, appIdentifier: "com.example.photos", options: [.alert, .sound])
        #expect(
            conversation.handle(.authorize(question))
                == [.write(renderer.authorizationQuestion(appIdentifier: "com.example.photos", options: [.alert, .sound]))])
        #expect(conversation.handle(.endOfInput) == [.write("\n  Input closed: left undecided.\n"), .answer(id: 7, allowed: nil)])
        #expect(conversation.inputClosed)
    }

    /// The rating extension: the user picks a star, the app says thanks and clears the buttons, and then
    /// quits once everything is shown. The app's line comes before the updated notification, and the
    /// flush waits for the outcome.
    @Test func whatTheAppSaysDuringAnAnswerPrecedesTheUpdateAndAFlushWaitsForTheOutcome() {
        var conversation = TerminalConversation(renderer: renderer)
        let order = Self.notification("order")
        var cleared = order
        cleared.actions = []
        _ = conversation.handle(.present(order))
        #expect(conversation.handle(.line("1")) == [.respond(Self.key("order"), .action("like"))])
        #expect(conversation.handle(.say("Thanks! You rated the order ★★.")).isEmpty)
        #expect(conversation.handle(.present(cleared)).isEmpty)
        #expect(conversation.handle(.flush(id: 7)).isEmpty)
        let outcome = ResponseOutcome(response: nil, launch: .background, deliveredToApp: true, disposition: .clearActions)
        #expect(
            conversation.handle(.responded(Self.key("order"), .success(outcome)))
                == [
                    .write(
                        renderer.outcome(outcome, of: .action("like"), on: order) + "Thanks! You rated the order ★★.\n"
                            + renderer.notification(cleared, isUpdate: true, waiting: 0, interactive: true)),
                    .flushed(id: 7),
                ])
        #expect(conversation.handle(.flush(id: 8)) == [.flushed(id: 8)])  // a prompt open: nothing to wait for
    }

    @Test func inputThatIsNotATerminalIsEchoed() {
        var conversation = TerminalConversation(renderer: renderer, echoesInput: true)
        let question = AuthorizationQuestion(id: 1, appIdentifier: "com.example.photos", options: [.alert])
        _ = conversation.handle(.authorize(question))
        #expect(conversation.handle(.line("y\u{1B}[A")) == [.write("y[A\n  Please answer y or n.\n" + renderer.authorizationPrompt(appIdentifier: "com.example.photos"))])
        #expect(conversation.handle(.line("Y")) == [.write("Y\n  Allowed.\n"), .answer(id: 1, allowed: true)])
    }
}

extension [TerminalConversation.Effect] {
    /// Consecutive writes as one, as the conversation returns them.
    var merged: [TerminalConversation.Effect] {
        reduce(into: []) { result, effect in
            if case .write(let next) = effect, case .write(let previous)? = result.last {
                result[result.count - 1] = .write(previous + next)
            } else {
                result.append(effect)
            }
        }
    }
}
