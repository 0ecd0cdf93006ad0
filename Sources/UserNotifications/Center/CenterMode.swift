#if !canImport(Darwin)
import Foundation

/// Where `current()` runs the app's notifications, as `CHIME_MODE` asks: with `chimed` (client mode),
/// with the engine embedded in the process, or `auto` (the default): `chimed` when it answers, else
/// embedded.
enum CenterMode: String, Sendable, Hashable, CaseIterable {
    case daemon, embedded, auto

    /// What was decided once the daemon was tried (or not).
    enum Resolution: Sendable, Hashable {
        case daemon
        case embedded
        /// `daemon` was asked for and no daemon answered: calls fail, nothing is embedded silently.
        case daemonUnavailable
    }

    /// The mode `CHIME_MODE` asks for in `environment`: `auto` when unset or empty; `nil` for a value that is
    /// none of `daemon`, `embedded`, `auto` (case-insensitive).
    static func requested(in environment: [String: String]) -> CenterMode? {
        guard let value = environment["CHIME_MODE"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return .auto }
        return CenterMode(rawValue: value.lowercased())
    }

    /// The mode for an app that configured a presenter of its own for the embedded engine
    /// (`configureEmbedded(presenter:)`, a terminal app showing notifications where it runs): `auto`
    /// becomes `embedded`, since with chimed that presenter would never show anything. An explicit
    /// `daemon` stays.
    func forApp(configuringPresenter: Bool) -> CenterMode {
        configuringPresenter && self == .auto ? .embedded : self
    }

    /// Whether deciding needs to try the daemon (`hello`).
    var triesDaemon: Bool { self != .embedded }

    /// The decision, given whether a daemon answered `hello` (ignored for `embedded`).
    func resolve(daemonAnswered: Bool) -> Resolution {
        switch self {
        case .embedded: .embedded
        case .daemon: daemonAnswered ? .daemon : .daemonUnavailable
        case .auto: daemonAnswered ? .daemon : .embedded
        }
    }
}
#endif
