import Foundation

/// The web notification center's files and its login door, served on the loopback listener beside the
/// API (every path outside `/v1/`).
///
/// The files hold no data: the page reads everything through the API with its session, so they are
/// served to any request that passed the `Host` check. Every answer forbids what the page does not do:
/// scripts and styles only from here (no inline script), no framing, no referrer (the login link's code
/// must not travel on), and connections only back to chimed.
enum WebPages {
    /// Marks a request `APIHandler.screen` admitted as a page request.
    struct Request: Sendable {}

    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// The files by path, with their media types.
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        "/web/center.js": ("text/javascript; charset=utf-8", PackageResources.center_js),
        "/web/center.css": ("text/css; charset=utf-8", PackageResources.center_css),
        "/web/icon.svg": ("image/svg+xml", PackageResources.icon_svg),
    ]

    static func answer(_ head: HTTPRequestHead, sessions: WebSessions) -> HTTPResponse {
        guard head.method == "GET" || head.method == "HEAD" else {
            return page(405, "This page takes no \(head.method).", extra: [("Allow", "GET, HEAD")])
        }
        if head.path == "/login" { return login(head, sessions: sessions) }
        guard let file = files[head.path] else { return page(404, "Chime has no such page.") }
        let body = head.method == "HEAD" ? [] : file.bytes
        return HTTPResponse(status: 200, headers: securityHeaders + [("Content-Type", file.type), ("Cache-Control", "no-cache")], body: .bytes(body))
    }

    /// `GET /login?code=…`: a code `chime web` made gives this browser a session, then the center
    /// without the code in its address; a used or expired code leads to the center saying so.
    static func login(_ head: HTTPRequestHead, sessions: WebSessions) -> HTTPResponse {
        guard let code = head.queryValue("code"), let (identifier, session) = sessions.redeem(code) else {
            return HTTPResponse(status: 303, headers: securityHeaders + [("Location", "/?login=failed"), ("Cache-Control", "no-store")])
        }
        let lifetime = WebSessions.sessionLifetime.components.seconds
        return HTTPResponse(
            status: 303,
            headers: securityHeaders + [
                ("Location", "/"), ("Cache-Control", "no-store"),
                ("Set-Cookie", "\(WebSessions.sessionCookie)=\(identifier); Path=/; Max-Age=\(lifetime); HttpOnly; SameSite=Strict"),
                ("Set-Cookie", "\(WebSessions.csrfCookie)=\(session.csrfToken); Path=/; Max-Age=\(lifetime); SameSite=Strict"),
            ])
    }

    static func page(_ status: Int, _ text: String, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: securityHeaders + extra + [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(Array((text + "\n").utf8)))
    }
}
