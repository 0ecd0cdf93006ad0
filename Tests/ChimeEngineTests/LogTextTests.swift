import Testing

@testable import ChimeEngine

@Suite("Log text")
struct LogTextTests {
    @Test(arguments: [
        ("plain com.example.app/r1", "plain com.example.app/r1"),
        ("x\n2026-01-01T00:00:00.000Z chimed: error: FORGED", #"x\n2026-01-01T00:00:00.000Z chimed: error: FORGED"#),
        ("a\rb\tc", #"a\rb\tc"#),
        ("\u{1B}[2J\u{1B}]0;title\u{07}", #"\u{1B}[2J\u{1B}]0;title\u{7}"#),
        ("nul\u{0}del\u{7F}c1\u{85}", #"nul\u{0}del\u{7F}c1\u{85}"#),
        ("id\u{202E}gpj.exe", #"id\u{202E}gpj.exe"#),
        ("isolate\u{2066}x\u{2069}", #"isolate\u{2066}x\u{2069}"#),
        ("日本語 émoji 🔔 \\ kept", "日本語 émoji 🔔 \\ kept"),
    ])
    func controlCharactersAreEscapedAndEverythingElseKept(message: String, logged: String) {
        #expect(LogText.escaped(message) == logged)
        #expect(!LogText.escaped(message).contains("\n"))
    }
}
