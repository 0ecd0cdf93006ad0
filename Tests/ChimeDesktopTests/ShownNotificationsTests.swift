import ChimeEngine
import Testing

@testable import ChimeDesktop

/// The presenter's bookkeeping, without a bus: which server notification shows which of ours, and what
/// each signal means. Sequence numbers stand for the order the connection received messages in.
@Suite("Shown notifications: the signal rules")
struct ShownNotificationsTests {
    static let photo = NotificationKey(appIdentifier: "com.example.photos", identifier: "photo-1")
    static let meanings: [String: NotifyRequest.ActionMeaning] = ["default": .open, "like": .action("like"), "inline-reply": .inlineReply("reply")]

    /// A state where `photo` is shown as server notification 7, from the reply with sequence 10.
    func shown() -> ShownNotifications {
        var shown = ShownNotifications()
        shown.notifyStarted(for: .notification(Self.photo))
        #expect(shown.notifyFinished(for: .notification(Self.photo), serverID: 7, sequence: 10, meanings: Self.meanings).isEmpty)
        return shown
    }

    func signal(_ id: UInt32, _ kind: ServerSignal.Kind, at sequence: UInt64) -> ServerSignal {
        ServerSignal(id: id, kind: kind, sequence: sequence)
    }

    @Test func keysMeanWhatTheNotificationOffered() {
        var shown = shown()
        #expect(shown.handle(signal(7, .actionInvoked(key: "default"), at: 11)) == [.respond(Self.photo, .open)])
        #expect(shown.handle(signal(7, .actionInvoked(key: "like"), at: 12)) == [.respond(Self.photo, .action("like"))])
        #expect(shown.handle(signal(7, .actionInvoked(key: "bogus"), at: 13)) == [.unknownKey(Self.photo, "bogus")])
        #expect(shown.handle(signal(7, .replied(text: "hi"), at: 14)) == [.respond(Self.photo, .reply(action: "reply", text: "hi"))])
    }

    @Test func onlyTheUsersOwnCloseIsADismissal() {
        for (reason, expected) in [(1, [ShownNotifications.Decision]()), (2, [.respond(Self.photo, .dismiss)]), (3, []), (4, [])] {
            var shown = shown()
            #expect(shown.handle(signal(7, .closed(reason: .init(rawValue: UInt32(reason))), at: 11)) == expected)
            #expect(shown.serverID(for: .notification(Self.photo)) == nil)  // gone from the screen either way
        }
    }

    @Test func aCloseAfterAnActionIsNotADismissal() {
        var shown = shown()
        _ = shown.handle(signal(7, .actionInvoked(key: "like"), at: 11))
        #expect(shown.handle(signal(7, .closed(reason: .dismissedByUser), at: 12)).isEmpty)
    }

    @Test func signalsForOtherClientsNotificationsAreIgnored() {
        var shown = shown()
        #expect(shown.handle(signal(99, .actionInvoked(key: "default"), at: 11)).isEmpty)
        #expect(shown.handle(signal(99, .closed(reason: .dismissedByUser), at: 12)).isEmpty)
    }

    @Test func aCloseOfTheReplacedVersionIsIgnored() {
        var shown = shown()
        // Shown again with new buttons; the server closed the old version before it took the new one.
        shown.notifyStarted(for: .notification(Self.photo))
        #expect(shown.handle(signal(7, .closed(reason: .dismissedByUser), at: 11)).isEmpty)  // waits for the reply
        #expect(shown.notifyFinished(for: .notification(Self.photo), serverID: 7, sequence: 12, meanings: Self.meanings).isEmpty)
        #expect(shown.serverID(for: .notification(Self.photo)) == 7)
        // A close after the reply is about the new version.
        #expect(shown.handle(signal(7, .closed(reason: .dismissedByUser), at: 13)) == [.respond(Self.photo, .dismiss)])
    }

    @Test func anAnswerThatArrivesBeforeTheReplyIsKeptForIt() {
        var shown = ShownNotifications()
        shown.notifyStarted(for: .notification(Self.photo))
        #expect(shown.handle(signal(5, .actionInvoked(key: "like"), at: 3)).isEmpty)
        #expect(shown.handle(signal(6, .actionInvoked(key: "like"), at: 4)).isEmpty)  // someone else's
        #expect(shown.notifyFinished(for: .notification(Self.photo), serverID: 5, sequence: 2, meanings: Self.meanings) == [.respond(Self.photo, .action("like"))])
    }

    @Test func aReplacementWithANewIdForgetsTheOldOne() {
        var shown = shown()
        shown.notifyStarted(for: .notification(Self.photo))
        _ = shown.notifyFinished(for: .notification(Self.photo), serverID: 8, sequence: 20, meanings: Self.meanings)
        #expect(shown.handle(signal(7, .actionInvoked(key: "like"), at: 21)).isEmpty)
        #expect(shown.handle(signal(8, .actionInvoked(key: "like"), at: 22)) == [.respond(Self.photo, .action("like"))])
    }

    @Test func promptsAreAnsweredByTheirButtonsAndUndecidedOtherwise() {
        var shown = ShownNotifications()
        let meanings: [String: NotifyRequest.ActionMeaning] = ["chime-allow": .allow, "chime-deny": .deny]
        for (number, id) in [(1, UInt32(1)), (2, 2), (3, 3), (4, 4)] {
            shown.notifyStarted(for: .prompt(number))
            _ = shown.notifyFinished(for: .prompt(number), serverID: id, sequence: UInt64(number), meanings: meanings)
        }
        #expect(shown.handle(signal(1, .actionInvoked(key: "chime-allow"), at: 10)) == [.answer(prompt: 1, allowed: true), .close(serverID: 1)])
        #expect(shown.handle(signal(1, .closed(reason: .dismissedByUser), at: 11)).isEmpty)
        #expect(shown.handle(signal(2, .actionInvoked(key: "chime-deny"), at: 12)) == [.answer(prompt: 2, allowed: false), .close(serverID: 2)])
        #expect(shown.handle(signal(3, .closed(reason: .expired), at: 13)) == [.answer(prompt: 3, allowed: nil)])
        #expect(shown.serverChanged() == [.answer(prompt: 4, allowed: nil)])
        #expect(shown.isEmpty)
    }

    @Test func withdrawingForgetsTheNotification() {
        var shown = shown()
        #expect(shown.remove(.notification(Self.photo)) == 7)
        #expect(shown.remove(.notification(Self.photo)) == nil)
        #expect(shown.handle(signal(7, .closed(reason: .closedByCall), at: 11)).isEmpty)
    }
}
