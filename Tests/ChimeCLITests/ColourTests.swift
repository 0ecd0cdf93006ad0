import Foundation
import Testing

@testable import ChimeCLI

/// Colour only where it is wanted: a terminal, without NO_COLOR (https://no-color.org), not TERM=dumb.
@Suite("chime: colour")
struct ColourTests {
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
}
