import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What standard output takes when it is a terminal: colour, and the width a table's rows are cut to so
/// each stays on one line. Output to a pipe or a file is plain and whole.
public struct TerminalStyle: Sendable, Equatable {
    public var colour: Bool
    /// The terminal's columns; `nil` for a pipe or a file, whose lines are never cut.
    public var width: Int?

    public init(colour: Bool = false, width: Int? = nil) {
        self.colour = colour
        self.width = width
    }

    public static let plain = TerminalStyle()

    /// This process's standard output: colour unless `NO_COLOR` or `TERM=dumb` (see `Output.wantsColour`);
    /// the width from `COLUMNS` when set, else from the terminal itself.
    public static var standardOutput: TerminalStyle { standardOutput(environment: ProcessInfo.processInfo.environment) }

    static func standardOutput(environment: [String: String]) -> TerminalStyle {
        guard isatty(STDOUT_FILENO) == 1 else { return .plain }
        var size = winsize()
        let measured = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        let width = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? measured
        return TerminalStyle(colour: Output.wantsColour(isTerminal: true, environment: environment), width: width)
    }

    /// `text` in a Select Graphic Rendition (`1` bold, `2` dim, `31` red, `32` green, `33` yellow), when
    /// colour is on.
    func painted(_ text: String, _ rendition: String) -> String {
        colour && !text.isEmpty ? "\u{1B}[\(rendition)m\(text)\u{1B}[0m" : text
    }
}
