import Synchronization

/// Which apps are connected (have an event stream open), how (in the foreground, deciding their
/// responses), and whether they keep up with the questions they are asked.
///
/// An app may hold several streams (a new one opened before the old one closes, when it comes to the
/// foreground): the most recent says how it is connected, and it stays connected until the last closes.
///
/// An app that let `missedAnswersLimit` questions in a row time out is *unresponsive* (stopped, hung, or
/// too slow): it is treated as in the background — not asked how to present, not waited for when it
/// decides a response — until it answers or acknowledges something again, or opens a new stream. So a
/// stopped app costs at most that many timeouts, and only for its own notifications.
final class AppPresence: Sendable {
    struct Stream: Sendable, Hashable {
        let id: Int
        let foreground: Bool
        let decidesResponses: Bool
    }

    private struct App {
        var streams: [Stream] = []
        var missedAnswers = 0
    }

    let missedAnswersLimit: Int
    private let apps = Mutex([String: App]())

    init(missedAnswersLimit: Int = 2) {
        self.missedAnswersLimit = missedAnswersLimit
    }

    /// Adds a stream; it says how the app is connected from now on.
    func opened(_ stream: Stream, app: String) {
        apps.withLock { apps in
            apps[app, default: App()].streams.append(stream)
            apps[app]?.missedAnswers = 0
        }
    }

    /// Removes a stream; returns how the app is connected now (`nil`: not at all).
    func closed(_ streamID: Int, app: String) -> Stream? {
        apps.withLock { apps in
            apps[app]?.streams.removeAll { $0.id == streamID }
            guard let current = apps[app]?.streams.last else {
                apps[app] = nil
                return nil
            }
            return current
        }
    }

    /// How the app is connected now (its most recent stream), `nil` when it is not.
    func current(_ app: String) -> Stream? {
        apps.withLock { $0[app]?.streams.last }
    }

    var connectedApps: Set<String> { apps.withLock { Set($0.keys) } }

    func isResponsive(_ app: String) -> Bool {
        apps.withLock { ($0[app]?.missedAnswers ?? 0) < missedAnswersLimit }
    }

    /// A question timed out; true when this made the app unresponsive.
    @discardableResult
    func missedAnswer(_ app: String) -> Bool {
        apps.withLock { apps in
            guard apps[app] != nil else { return false }
            apps[app]!.missedAnswers += 1
            return apps[app]!.missedAnswers == missedAnswersLimit
        }
    }

    /// The app answered or acknowledged something: it is responsive again.
    func answered(_ app: String) {
        apps.withLock { $0[app]?.missedAnswers = 0 }
    }
}
