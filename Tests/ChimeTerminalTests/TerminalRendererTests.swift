import ChimeCore
import ChimeEngine
import Foundation
import Testing

@testable import ChimeTerminal

/// How notifications look, from plain presentations: widths, markers, and text an app cannot abuse.
@Suite("Terminal: rendering")
struct TerminalRendererTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    static let delivered = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01T00:00:00Z, 09:00 in Seoul
    let renderer = TerminalRenderer(timeZone: seoul, appNames: ["com.example.photos": "Photos"])

    static func presentation(
        title: String = "New Photo", body: String = "Jane Doe posted a new photo", actions: [PresentationAction] = [],
        destinations: PresentationDestinations = [.banner, .list], change: (inout Presentation) -> Void = { _ in }
    ) -> Presentation {
        var presentation = Presentation(
            appIdentifier: "com.example.photos", notificationIdentifier: "photo-1", date: delivered, destinations: destinations,
            title: title, body: body, actions: actions, group: PresentationGroup(threadIdentifier: "", count: 1, summary: ""))
        change(&presentation)
        return presentation
    }

    @Test func everyLineFitsInEightyColumnsWithWideCharactersCountingTwo() {
        let korean = String(repeating: "미팅 일정이 변경되었습니다 ", count: 8)
        let english = String(repeating: "The meeting moved to the large room on the third floor. ", count: 4)
        let text = renderer.notification(
            Self.presentation(title: korean, body: english + "https://example.com/" + String(repeating: "x", count: 120)),
            isUpdate: false, waiting: 0, interactive: true)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 10)
        for line in lines {
            #expect(TerminalText.columns(line) <= 80, "\(line)")
        }
        #expect(TerminalText.columns("미팅 초대") == 9)
        #expect(TerminalText.columns("e\u{301}") == 1)  // e and a combining acute accent
    }

    @Test func wrappingBreaksAtSpacesAndInsideAWordOnlyWhenItMust() {
        #expect(TerminalText.wrapped("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TerminalText.wrapped("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TerminalText.wrapped("가나다라마", width: 5) == ["가나", "다라", "마"])
        #expect(TerminalText.wrapped("first\n\nthird", width: 20) == ["first", "", "third"])
        #expect(TerminalText.truncated("Jane Doe posted a new photo", width: 10) == "Jane Doe …")
    }

    @Test func appTextCannotDriveTheTerminal() {
        let text = renderer.notification(
            Self.presentation(
                title: "Hi\u{1B}[2J\u{7}\u{9B}31m", body: "line one\r\nline\ttwo\u{202E}cod.exe",
                actions: [PresentationAction(identifier: "a", title: "Go\u{1B}]0;owned\u{7}")]),
            isUpdate: false, waiting: 0, interactive: true)
        #expect(
            text == """

                [Photos] 09:00
                  Hi[2J31m
                  line one
                  line twocod.exe
                  1) Go]0;owned
                  o) open   d) dismiss   Enter) later
                Choice:\u{20}
                """)
    }

    @Test func theHeaderMarksUpdatesLatenessLevelFocusAndBadgeAndTheSubtitleFollowsTheTitle() {
        let late = Self.presentation { presentation in
            presentation.subtitle = "Album: Trip"
            presentation.isLate = true
            presentation.scheduledDate = Self.delivered.addingTimeInterval(-86_400 - 1800)  // the day before, 08:30
            presentation.interruptionLevel = .timeSensitive
            presentation.brokeThroughFocus = true
            presentation.badge = 5
            presentation.group = PresentationGroup(threadIdentifier: "jane", count: 3, summary: "3 more notifications from Jane")
        }
        #expect(
            renderer.notification(late, isUpdate: true, waiting: 2, interactive: false) == """

                [Photos] 09:00 · updated · late, due 2025-11-30 08:30 · time-sensitive
                  through focus · badge 5
                  New Photo
                  Album: Trip
                  Jane Doe posted a new photo
                  3 more notifications from Jane

                """)
    }

    @Test func actionsShowTheirMarksAndLongTitlesWrapUnderTheirNumber() {
        let actions = [
            PresentationAction(identifier: "unfollow", title: "Unfollow", isDestructive: true, requiresUnlock: true),
            PresentationAction(identifier: "settings", title: "Settings", launchesApp: true),
            PresentationAction(
                identifier: "reply", title: "Reply", textInput: PresentationAction.TextInput(buttonTitle: "", placeholder: "Message")),
            PresentationAction(identifier: "long", title: String(repeating: "very long title ", count: 6)),
        ]
        #expect(
            renderer.choices(Self.presentation(actions: actions)) == """
                  1) Unfollow  (destructive, needs unlock)
                  2) Settings  (opens the app)
                  3) Reply  (reply)
                  4) very long title very long title very long title very long title very long
                     title very long title
                  o) open   d) dismiss   Enter) later

                """)
        #expect(renderer.replyPrompt(actions[2]) == "  Reply: type your reply, Enter to send, an empty line to go back\nMessage: ")
    }

    @Test func colouredDestructiveActionsAreRedAndCriticalHeadersWhiteOnRed() {
        let coloured = TerminalRenderer(style: .ansi, timeZone: Self.seoul, appNames: [:])
        let decline = PresentationAction(identifier: "decline", title: "Decline", isDestructive: true)
        #expect(
            coloured.choices(Self.presentation(actions: [decline]))
                == "  1) \u{1B}[31mDecline\u{1B}[0m  \u{1B}[2m(destructive)\u{1B}[0m\n  o) open   d) dismiss   Enter) later\n")
        let critical = Self.presentation { $0.interruptionLevel = .critical; $0.sound = .critical(named: nil, volume: 1) }
        #expect(
            coloured.notification(critical, isUpdate: false, waiting: 0, interactive: false).hasPrefix(
                "\u{7}\u{7}\u{7}\n\u{1B}[1;97;41m!! CRITICAL ALERT !! [com.example.photos] 09:00\u{1B}[0m\n"))
    }

    @Test func anAppsOwnOrCriticalSoundIsNamedAndTheDefaultOneIsOnlyTheBell() {
        let critical = Self.presentation { $0.sound = .critical(named: "warning-sound", volume: 0.5) }
        #expect(renderer.notification(critical, isUpdate: false, waiting: 0, interactive: false).contains("  [sound] warning-sound · critical, volume 50%\n"))
        let named = Self.presentation { $0.sound = .named("chime.aiff") }
        #expect(renderer.notification(named, isUpdate: false, waiting: 0, interactive: false).contains("  [sound] chime.aiff\n"))
        let plain = Self.presentation { $0.sound = .default }
        #expect(!renderer.notification(plain, isUpdate: false, waiting: 0, interactive: false).contains("[sound]"))
    }

    @Test func aQuietLineOfAGroupSaysHowManyMore() {
        let grouped = Self.presentation(body: "Jane posted", destinations: [.list]) {
            $0.group = PresentationGroup(threadIdentifier: "thread", count: 3, summary: "3 more photos")
        }
        #expect(renderer.quietLine(grouped) == "[Photos] 09:00 delivered quietly (3 more photos): New Photo — Jane posted\n")
    }

    @Test func aQuietLineIsCutToTheWidth() {
        let long = Self.presentation(body: String(repeating: "and another photo ", count: 6), destinations: [.list])
        let line = renderer.quietLine(long)
        #expect(line.hasPrefix("[Photos] 09:00 delivered quietly: New Photo — and another photo"))
        #expect(line.hasSuffix("…\n"))
        #expect(TerminalText.columns(line.dropLast()) == 80)
    }

    @Test func colourFollowsTheSettingAndIsOffIntoAPipe() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        #expect(TerminalStyle.detect(.automatic, fileDescriptor: descriptor, environment: [:]) == .plain)
        #expect(TerminalStyle.detect(.always, fileDescriptor: descriptor, environment: ["NO_COLOR": "1"]) == .ansi)
        #expect(TerminalStyle.detect(.never, fileDescriptor: descriptor, environment: [:]) == .plain)
    }
}
