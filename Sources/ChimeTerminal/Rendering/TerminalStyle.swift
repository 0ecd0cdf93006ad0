#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the presenter colours its output.
public enum TerminalColors: Sendable, Hashable {
    /// Colours when the output is a terminal, `NO_COLOR` is not set (https://no-color.org: set and not
    /// empty) and `TERM` is not `dumb`; plain text otherwise.
    case automatic
    /// Always colour, also into a pipe.
    case always
    /// Never colour.
    case never
}

/// The ANSI styles the presenter uses (SGR escape sequences), or none at all.
///
/// Styles apply to one line at a time and end with a reset, so a wrapped or cut line never leaks its
/// colour into the next one.
struct TerminalStyle: Sendable, Hashable {
    let isEnabled: Bool

    static let plain = TerminalStyle(isEnabled: false)
    static let ansi = TerminalStyle(isEnabled: true)

    /// The style for output to `fileDescriptor`, as `colors` asks, with `environment`'s `NO_COLOR` and
    /// `TERM`.
    static func detect(_ colors: TerminalColors, fileDescriptor: Int32, environment: [String: String]) -> TerminalStyle {
        switch colors {
        case .always: return .ansi
        case .never: return .plain
        case .automatic:
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            let dumb = environment["TERM"] == "dumb"
            return isatty(fileDescriptor) == 1 && !noColor && !dumb ? .ansi : .plain
        }
    }

    func bold(_ text: String) -> String { apply("1", text) }
    func dim(_ text: String) -> String { apply("2", text) }
    func warning(_ text: String) -> String { apply("31", text) }
    func notice(_ text: String) -> String { apply("33", text) }
    /// White on red, bold: a critical alert's header.
    func alarm(_ text: String) -> String { apply("1;97;41", text) }

    private func apply(_ code: String, _ text: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
