import Foundation
import Testing

@testable import ChimeCLI

/// Colour only where it is wanted: a terminal, without NO_COLOR (https://no-color.org), not TERM=dumb;
/// tables aligned in terminal columns and cut to the terminal's width.
@Suite("chime: colour and width")
struct TerminalOutputTests {
    @Test func colourOnlyOnATerminalThatTakesIt() {
        #expect(Output.wantsColour(isTerminal: true, environment: ["TERM": "xterm-256color"]))
        #expect(!Output.wantsColour(isTerminal: false, environment: ["TERM": "xterm-256color"]), "a pipe or a file gets none")
        #expect(!Output.wantsColour(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(Output.wantsColour(isTerminal: true, environment: ["NO_COLOR": ""]), "an empty NO_COLOR does not count")
        #expect(!Output.wantsColour(isTerminal: true, environment: ["TERM": "dumb"]))
    }

    @Test func doctorMarksItsChecksInColourOnlyWhenAsked() {
        var report = DoctorCommand.Report()
        report.checks = [.init(name: "chimed", ok: true, detail: "running"), .init(name: "D-Bus session", ok: false, detail: "not set")]
        #expect(report.output == "ok  chimed: running\n!!  D-Bus session: not set\n")
        report.colour = true
        #expect(report.output == "\u{1B}[32mok\u{1B}[0m  chimed: running\n\u{1B}[1;33m!!\u{1B}[0m  D-Bus session: not set\n")
    }

    /// The width of every character of the planes people write in, against glibc's `wcwidth(3)` in a
    /// UTF-8 locale — an implementation of its own, from the Unicode data glibc ships. Unassigned and
    /// private-use characters are left out.
    @Test func characterWidthsAgreeWithWcwidth() throws {
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil)
        // Declared only under _XOPEN_SOURCE, so not imported: found in the C library by name.
        typealias WcwidthFunction = @convention(c) (Int32) -> Int32
        let wcwidth = unsafeBitCast(try #require(dlsym(nil, "wcwidth")), to: WcwidthFunction.self)
        var compared = 0
        var disagreements: [String] = []
        for value in UInt32(0x20)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
                scalar.properties.generalCategory != .privateUse, scalar.properties.generalCategory != .surrogate
            else { continue }
            let reference = Int(wcwidth(Int32(value)))
            guard reference >= 0 else { continue }
            compared += 1
            let mine = DisplayWidth.of(Character(scalar))
            if mine != reference && disagreements.count < 20 { disagreements.append("U+\(String(value, radix: 16, uppercase: true)): \(mine) vs \(reference)") }
        }
        #expect(compared > 100_000)
        #expect(disagreements.isEmpty, "\(disagreements)")
        // Emoji: wide whatever their modifiers and joiners; a flag (two regional indicators) too.
        #expect(DisplayWidth.of("👍🏽") == 2 && DisplayWidth.of("👩‍👩‍👧") == 2 && DisplayWidth.of("⏰") == 2 && DisplayWidth.of("🇰🇷") == 2)
        #expect(DisplayWidth.of("한국어 e\u{301}") == 8, "three wide syllables, a space, e with a combining accent")
    }

    @Test func tablesAlignInColumnsAndAreCutToTheTerminal() {
        let rows = [["chime", "tea", "차 준비 완료"], ["com.example.alarm", "a", "Wake up"]]
        #expect(
            Output.table(["APP", "ID", "TITLE"], rows)
                == "APP                ID   TITLE\nchime              tea  차 준비 완료\ncom.example.alarm  a    Wake up\n")
        let narrow = Output.table(["APP", "ID", "TITLE"], rows, style: TerminalStyle(width: 34))
        #expect(narrow == "APP                ID   TITLE\nchime              tea  차 준비 …\ncom.example.alarm  a    Wake up\n")
        for line in narrow.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 34) }
        // The last cell keeps 10 columns however narrow the terminal.
        #expect(Output.table(["A", "B"], [["x", "0123456789abcdef"]], style: TerminalStyle(width: 4)) == "A  B\nx  012345678…\n")

        let painted = Output.table(["APP", "NOTIFICATIONS"], [["a", "denied"], ["b", "allowed"]], style: TerminalStyle(colour: true)) { column, text in
            column == 1 && text == "denied" ? "31" : nil
        }
        #expect(painted == "\u{1B}[1mAPP\u{1B}[0m  \u{1B}[1mNOTIFICATIONS\u{1B}[0m\na    \u{1B}[31mdenied\u{1B}[0m\nb    allowed\n")
    }
}
