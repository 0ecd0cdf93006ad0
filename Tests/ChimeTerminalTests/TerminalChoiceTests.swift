import ChimeEngine
import Testing

@testable import ChimeTerminal

@Suite("Terminal: reading a choice")
struct TerminalChoiceTests {
    let actions = [
        PresentationAction(identifier: "accept", title: "Accept"),
        PresentationAction(identifier: "decline", title: "Decline", isDestructive: true),
    ]

    @Test func numbersLettersAndTitlesAreChoices() {
        #expect(TerminalChoice(parsing: "1", actions: actions) == .action(0))
        #expect(TerminalChoice(parsing: " 2 ", actions: actions) == .action(1))
        #expect(TerminalChoice(parsing: "DECLINE", actions: actions) == .action(1))
        #expect(TerminalChoice(parsing: "o", actions: actions) == .open)
        #expect(TerminalChoice(parsing: "Dismiss", actions: actions) == .dismiss)
        #expect(TerminalChoice(parsing: "", actions: actions) == .later)
        #expect(TerminalChoice(parsing: "  ", actions: actions) == .later)
    }

    @Test func anythingElseIsInvalid() {
        for line in ["0", "3", "-1", "x", "1 2", "yes"] {
            #expect(TerminalChoice(parsing: line, actions: actions) == .invalid)
        }
    }

    @Test func authorizationAnswersAreYesOrNo() {
        #expect(TerminalChoice.authorizationAnswer("y") == true)
        #expect(TerminalChoice.authorizationAnswer(" Yes") == true)
        #expect(TerminalChoice.authorizationAnswer("N") == false)
        #expect(TerminalChoice.authorizationAnswer("no") == false)
        #expect(TerminalChoice.authorizationAnswer("maybe") == nil)
        #expect(TerminalChoice.authorizationAnswer("") == nil)
    }
}
