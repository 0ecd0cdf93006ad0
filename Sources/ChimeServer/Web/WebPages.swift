import ChimeAPI
import ChimeCore
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
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// The files by path, with their media types.
    static let files: [String: (type: String, bytes: [UInt8])] = {
        let script = "text/javascript; charset=utf-8"
        return [
            "/": ("text/html; charset=utf-8", PackageResources.index_html),
            "/web/center.css": ("text/css; charset=utf-8", PackageResources.center_css),
            "/web/icon.svg": ("image/svg+xml", PackageResources.icon_svg),
            "/web/main.js": (script, PackageResources.main_js),
            "/web/api.js": (script, PackageResources.api_js),
            "/web/texts.js": (script, PackageResources.texts_js),
            "/web/dom.js": (script, PackageResources.dom_js),
            "/web/center.js": (script, PackageResources.center_js),
            "/web/scheduled.js": (script, PackageResources.scheduled_js),
            "/web/triggers.js": (script, PackageResources.triggers_js),
            "/web/settings.js": (script, PackageResources.settings_js),
            "/web/badges.js": (script, PackageResources.badges_js),
            "/web/browser-notifications.js": (script, PackageResources.browser_notifications_js),
            "/web/browser-push.js": (script, PackageResources.browser_push_js),
            "/web/push-worker.js": (script, PackageResources.push_worker_js),
        ]
    }()

    static func answer(_ head: HTTPRequestHead, sessions: WebSessions) -> HTTPResponse {
        guard head.method == "GET" || head.method == "HEAD" else {
            return page(405, "This page takes no \(head.method).", extra: [("Allow", "GET, HEAD")])
        }
        if head.path == "/login" { return login(head, sessions: sessions) }
        guard let file = files[head.path] else { return page(404, "Chime has no such page.") }
        let body = head.method == "HEAD" ? [] : file.bytes
        return HTTPResponse(status: 200, headers: securityHeaders + [("Content-Type", file.type), ("Cache-Control", "no-cache")], body: .bytes(body))
    }

    /// `GET /web/attachments/…`: an attachment of a notification in the list, at a signed address the
    /// center made (`AttachmentLinks`), sent from its file. Images and sounds and movies show in the page;
    /// nothing of it runs there (`nosniff`, the type from the file's content as checked when it was added,
    /// a sandboxing policy).
    static func attachment(_ head: HTTPRequestHead, links: AttachmentLinks, service: NotificationService) async -> HTTPResponse {
        guard head.method == "GET" || head.method == "HEAD" else {
            return page(405, "An attachment takes no \(head.method).", extra: [("Allow", "GET, HEAD")])
        }
        guard let target = links.verify(path: head.path, query: { head.queryValue($0) }, now: Date()) else {
            return page(403, "This attachment link is not valid, or has expired: reload the notification center for a new one.")
        }
        let attachment: NotificationAttachment
        let file: OpenFile
        do {
            attachment = try await service.deliveredAttachment(target.app, notification: target.notification, attachment: target.attachment)
            file = try OpenFile(path: attachment.url.path)
        } catch {
            return page(404, "That notification or its attachment is no longer in the list.")
        }
        let headers =
            securityHeaders.filter { $0.name != "Content-Security-Policy" } + [
                ("Content-Type", attachment.type.mimeType), ("Cache-Control", "private, max-age=\(Int(AttachmentLinks.lifetime))"),
                ("Content-Security-Policy", "sandbox; default-src 'none'"),
            ]
        return HTTPResponse(status: 200, headers: headers, body: head.method == "HEAD" ? .bytes([]) : .file(file))
    }

    /// `GET /web/icons/{app}`: the icon the registry names for the app (`chime apps register --icon`), for
    /// the page's session only (it is a file of the user's): PNG, JPEG or GIF by content, or SVG, at most
    /// 1 MiB. 404 when the app has none the page can show; the page then draws the app's initial.
    static func icon(_ head: HTTPRequestHead, sessions: WebSessions, registry: AppRegistry) -> HTTPResponse {
        guard sessions.session(cookieHeader: head.headers["cookie"]) != nil else {
            return page(401, "Open the notification center with `chime web` first.")
        }
        let name = String(head.path.dropFirst(iconPrefix.count))
        guard let app = PercentEncoding.decode(Substring(name)), let path = registry.entry(app)?.iconPath, path.hasPrefix("/"),
            let file = try? OpenFile(path: path), file.size > 0, file.size <= 1 << 20, let type = iconType(path: path)
        else {
            return page(404, "This app has no icon the page can show.")
        }
        let headers = securityHeaders.filter { $0.name != "Content-Security-Policy" } + [
            ("Content-Type", type), ("Cache-Control", "private, max-age=60"), ("Content-Security-Policy", "sandbox; default-src 'none'"),
        ]
        return HTTPResponse(status: 200, headers: headers, body: head.method == "HEAD" ? .bytes([]) : .file(file))
    }

    static let iconPrefix = "/web/icons/"

    /// The media type of an icon file, from its first bytes (an SVG by its name and an XML start).
    static func iconType(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        if let type = AttachmentType.detect(fromHeader: header), type.kind == .image { return type.mimeType }
        let start = String(decoding: header, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if path.lowercased().hasSuffix(".svg"), start.hasPrefix("<svg") || start.hasPrefix("<?xml") { return "image/svg+xml" }
        return nil
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
