import ChimeCore
import ChimeEngine
import ChimeTerminal
import ChimeTesting
import ChimeTestSupport
import Foundation
import Testing

/// The presenter on a real terminal: a pseudo-terminal in its usual line mode, which echoes what the user
/// types and ends the input on Ctrl-D.
@Suite("Terminal presenter: on a pseudo-terminal")
struct TerminalPseudoTerminalTests {
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let reset = "\u{1B}[0m"

    @Test func thePhotoPostIsInColourAndTheTypedChoiceIsEchoedAndSent() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(.pseudoTerminal, categories: [Seeds.photoCategory()], app: app)
        #expect(h.presenter.usesColors)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        let (b, d, r) = (Self.bold, Self.dim, Self.reset)
        try await h.expectScreen(
            """
            \u{7}
            \(b)[Photos] 09:00\(r)
              \(b)Hello\(r)
              Shared some photo
              \(d)[image] logo-image\(r)
              1) Like
              2) Dislike
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("1")
        try await h.expectScreen("1\n  → “Like” chosen. Photos handles it in the background.\n")
        #expect(app.responses.map(\.actionIdentifier) == ["ACTION_LIKE"])
        #expect(try await h.finish() == "")
    }

    @Test func noColorKeepsTheTerminalPlain() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(
            .pseudoTerminal, environment: ["NO_COLOR": "1"], categories: [Seeds.alarmCategory()], app: app)
        #expect(!h.presenter.usesColors)
        try await center.add(TerminalHarness.request("alarm-1", Seeds.alarm()))
        try await h.expectScreen(
            """
            \u{7}
            [Photos] 09:00
              Alarm
              Beep Beep
              1) Snooze
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        #expect(try await h.finish() == "")
    }

    @Test func ctrlDEndsTheInput() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(.pseudoTerminal, environment: ["NO_COLOR": "1"], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        _ = try await h.screen.next(through: "Choice: ")
        h.press("\u{4}")
        try await h.expectScreen("\n  Input closed.\n")
        #expect(app.responses.isEmpty)
        #expect(try await h.finish() == "")
    }
}
