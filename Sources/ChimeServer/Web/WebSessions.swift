import Foundation
import Synchronization

/// Who may use the web notification center: browsers that opened a one-time login link.
///
/// `chime web` asks for a link (as the user, with the token); the first browser to open it within ten
/// minutes gets a session, kept in two cookies: `chime_session` (HttpOnly, so no script reads it) and
/// `chime_csrf`, which the page sends back in `X-Chime-CSRF` with every change — a page of another site
/// can make the browser send cookies, but cannot read this one to send it. Both are `SameSite=Strict`.
/// Sessions live in memory: a restarted chimed asks for `chime web` again.
public final class WebSessions: Sendable {
    public struct Session: Sendable, Hashable {
        public let csrfToken: String
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var codes: [String: ContinuousClock.Instant] = [:]
        var sessions: [String: Session] = [:]
    }

    private let state = Mutex(State())

    public static let sessionCookie = "chime_session"
    public static let csrfCookie = "chime_csrf"
    public static let csrfHeader = "x-chime-csrf"
    /// How long a login link may wait to be opened, and how long a session lasts.
    public static let codeLifetime: Duration = .seconds(600)
    public static let sessionLifetime: Duration = .seconds(7 * 24 * 3600)
    /// The most links waiting and sessions open; past them the oldest goes.
    static let maximumCodes = 16
    static let maximumSessions = 64

    public init() {}

    /// A new one-time login code.
    public func newCode() -> String {
        let code = WebTokens.random()
        let now = ContinuousClock.now
        state.withLock { state in
            state.codes = state.codes.filter { $0.value > now }
            if state.codes.count >= Self.maximumCodes, let oldest = state.codes.min(by: { $0.value < $1.value }) { state.codes[oldest.key] = nil }
            state.codes[code] = now + Self.codeLifetime
        }
        return code
    }

    /// The session a code opens (its identifier and the session), or `nil` for a code that is unknown,
    /// used already or expired. A code works once.
    public func redeem(_ code: String) -> (identifier: String, session: Session)? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let expires = state.codes.removeValue(forKey: code), expires > now else { return nil }
            state.sessions = state.sessions.filter { $0.value.expires > now }
            if state.sessions.count >= Self.maximumSessions, let oldest = state.sessions.min(by: { $0.value.expires < $1.value.expires }) {
                state.sessions[oldest.key] = nil
            }
            let session = Session(csrfToken: WebTokens.random(), expires: now + Self.sessionLifetime)
            let identifier = WebTokens.random()
            state.sessions[identifier] = session
            return (identifier, session)
        }
    }

    /// The session of a `Cookie` header, if it names one that is open.
    public func session(cookieHeader: String?) -> Session? {
        guard let identifier = cookieHeader.flatMap({ Self.cookie(Self.sessionCookie, in: $0) }) else { return nil }
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let session = state.sessions[identifier], session.expires > now else { return nil }
            return session
        }
    }

    /// The value of cookie `name` in a `Cookie` header (`a=1; b=2`).
    package static func cookie(_ name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            // `name=` is a cookie whose value is empty (RFC 6265), however the header ends.
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, HTTPText.trimmed(parts[0]) == name else { continue }
            return String(HTTPText.trimmed(parts[1]))
        }
        return nil
    }
}
