import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeDaemon
import ChimeTestSupport
import Foundation
import Testing

/// The web notification center, against a real chimed: its door (the one-time link, the session cookie,
/// CSRF, Host and Origin), read with raw HTTP; and the page itself in a real browser (headless Chromium).
@Suite("Web notification center", .serialized)
struct WebCenterTests {
    func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await WebCenterSession.chime(arguments, home)
    }

    func loginURL(_ home: DaemonHome) async throws -> String {
        try await WebCenterSession.loginURL(home)
    }

    /// The `name=value` of a `Set-Cookie` line, and its attributes in lower case.
    func cookie(_ line: String) -> (pair: String, attributes: Set<String>) {
        let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        return (parts.first ?? "", Set(parts.dropFirst().map { $0.lowercased() }))
    }

    @Test func theDoorIsAOneTimeLinkThenASessionCookieAndEveryChangeCarriesItsToken() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        let host = "127.0.0.1:\(port)"
        let token = try String(contentsOf: home.paths.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // A connection per request, as a browser may use: nothing below leans on keep-alive.
        func exchange(_ method: String, _ path: String, token: String? = nil, body: String? = nil, host: String = host, headers: [String] = [])
            throws -> RawHTTPConnection.Answer
        {
            let raw = try RawHTTPConnection(loopbackPort: port)
            raw.request(method, path, token: token, body: body, host: host, extraHeaders: headers)
            return try raw.answer()
        }

        // The page: no data, strict policy, no inline script.
        let page = try exchange("GET", "/")
        #expect(page.status == 200)
        let policy = page.headers["content-security-policy"] ?? ""
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(policy)")
        #expect(page.headers["referrer-policy"] == "no-referrer")
        let scripts = page.text.components(separatedBy: "<script").dropFirst()
        #expect(!scripts.isEmpty && scripts.allSatisfy { $0.hasPrefix(#" type="module" src="/web/"#) }, "only scripts from chimed's own files")

        // Without the link or a session the API is closed to the browser.
        #expect(try exchange("GET", "/v1/delivered").status == 401)
        #expect(try exchange("GET", "/v1/delivered", headers: ["Cookie: chime_session=guessed"]).status == 401)

        // The link gives one session, once.
        let url = try await loginURL(home)
        #expect(url.hasPrefix("http://\(host)/login?code="), "\(url)")
        let path = String(url.dropFirst("http://\(host)".count))
        let login = try exchange("GET", path)
        #expect(login.status == 303 && login.headers["location"] == "/")
        let cookies = login.values(of: "set-cookie").map(cookie)
        let session = try #require(cookies.first { $0.pair.hasPrefix("chime_session=") })
        let csrf = try #require(cookies.first { $0.pair.hasPrefix("chime_csrf=") })
        #expect(session.attributes.isSuperset(of: ["httponly", "samesite=strict", "path=/"]), "\(session.attributes)")
        #expect(csrf.attributes.contains("samesite=strict") && !csrf.attributes.contains("httponly"), "the page reads its CSRF token")
        let again = try exchange("GET", path)
        #expect(again.status == 303 && again.headers["location"] == "/?login=failed" && again.values(of: "set-cookie").isEmpty)

        let cookieHeader = "Cookie: \(session.pair); \(csrf.pair)"
        let csrfToken = String(csrf.pair.dropFirst("chime_csrf=".count))
        #expect(try exchange("GET", "/v1/delivered", headers: [cookieHeader]).status == 200)
        // The session does not pass under another name for the server.
        #expect(try exchange("GET", "/v1/delivered", host: "chime.attacker.example:\(port)", headers: [cookieHeader]).status == 403)

        // Changes: refused without the token or from another site's page, taken with both; nothing changes
        // on a refusal.
        let on = #"{"on":true}"#
        let withoutToken = try exchange("PUT", "/v1/focus", body: on, headers: [cookieHeader])
        #expect(withoutToken.status == 403 && withoutToken.text.contains("X-Chime-CSRF"), "\(withoutToken.text)")
        #expect(try exchange("PUT", "/v1/focus", body: on, headers: [cookieHeader, "X-Chime-CSRF: wrong"]).status == 403)
        #expect(try exchange("PUT", "/v1/focus", body: on, headers: [cookieHeader, "X-Chime-CSRF: \(csrfToken)", "Origin: http://evil.example"]).status == 403)
        #expect(await chime(["focus", "status", "--json"], home).standardOutput.contains(#""on" : false"#), "no refused change took effect")
        #expect(try exchange("PUT", "/v1/focus", body: on, headers: [cookieHeader, "X-Chime-CSRF: \(csrfToken)", "Origin: http://\(host)"]).status == 200)
        #expect(await chime(["focus", "status", "--json"], home).standardOutput.contains(#""on" : true"#))

        // An app may not hand out links to the user's center.
        #expect(try exchange("POST", "/v1/web/login", token: token, headers: ["Chime-App: com.example.app"]).status == 403)
        #expect(await daemon.terminate() == 0)
    }

    /// A cross-site request with the browser's session cookie (another site's form or script), or one
    /// without the session's token, may neither answer a notification nor clear the list: each is refused
    /// and changes nothing; the same requests from the center's own page do.
    @Test func crossSiteAnswersAndClearsAreRefusedAndChangeNothing() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        let host = "127.0.0.1:\(port)"
        func exchange(_ method: String, _ path: String, body: String? = nil, headers: [String] = []) throws -> RawHTTPConnection.Answer {
            let raw = try RawHTTPConnection(loopbackPort: port)
            raw.request(method, path, token: nil, body: body, host: host, extraHeaders: headers)
            return try raw.answer()
        }
        let app = "com.example.meetings"
        for identifier in ["lunch", "coffee"] {
            #expect(await chime(["add", "--app", app, "--id", identifier, "Lunch?"], home).exitCode == .success)
        }
        let url = try await loginURL(home)
        let login = try exchange("GET", String(url.dropFirst("http://\(host)".count)))
        let pairs = login.values(of: "set-cookie").map { String($0.split(separator: ";")[0]) }
        let cookie = "Cookie: " + pairs.joined(separator: "; ")
        let csrf = String(try #require(pairs.first { $0.hasPrefix("chime_csrf=") }).dropFirst("chime_csrf=".count))
        let respond = "/v1/apps/\(app)/delivered/lunch/response"
        let clear = "/v1/apps/\(app)/delivered"
        let open = #"{"kind":"open"}"#
        let all = #"{"all":true}"#
        let refusals: [(String, String, String, [String])] = [
            ("POST", respond, open, [cookie, "X-Chime-CSRF: \(csrf)", "Origin: http://evil.example"]),
            ("POST", respond, open, [cookie, "Origin: http://evil.example"]),
            ("POST", respond, open, [cookie]),
            ("POST", respond, open, [cookie, "X-Chime-CSRF: \(String(csrf.reversed()))", "Origin: http://\(host)"]),
            ("POST", respond, open, [cookie, "X-Chime-CSRF: \(csrf)", "Origin: null"]),
            ("DELETE", clear, all, [cookie, "X-Chime-CSRF: \(csrf)", "Origin: http://evil.example"]),
            ("DELETE", clear, all, [cookie, "Origin: http://evil.example"]),
            ("DELETE", clear, all, [cookie, "X-Chime-CSRF: wrong"]),
        ]
        for (method, path, body, headers) in refusals {
            let refused = try exchange(method, path, body: body, headers: headers)
            #expect(refused.status == 403, "\(method) \(path) with \(headers.dropFirst()) answered \(refused.status): \(refused.text)")
        }
        // Nothing changed: both still listed, and no answer waits for the app.
        let delivered = await chime(["delivered", "--app", app, "--json"], home).standardOutput
        #expect(delivered.contains(#""lunch""#) && delivered.contains(#""coffee""#), "\(delivered)")
        #expect(!(await chime(["responses", "--app", app, "--json"], home).standardOutput.contains(#""lunch""#)))

        // From the center's own page, both are taken.
        let own = [cookie, "X-Chime-CSRF: \(csrf)", "Origin: http://\(host)"]
        let answered = try exchange("POST", respond, body: open, headers: own)
        #expect(answered.status == 200, "\(answered.text)")
        try await eventually("the answer waits for the app") {
            await chime(["responses", "--app", app, "--json"], home).standardOutput.contains(#""lunch""#)
        }
        let cleared = try exchange("DELETE", clear, body: all, headers: own)
        #expect(cleared.status == 200, "\(cleared.text)")
        try await eventually("the list cleared") {
            !(await chime(["delivered", "--app", app, "--json"], home).standardOutput.contains(#""coffee""#))
        }
        #expect(await daemon.terminate() == 0)
    }

    /// An image made by ImageMagick (a real PNG the page can show).
    static func picture(_ path: String, size: String = "96x64") async throws {
        let convert = try Tool.path("convert", package: "imagemagick")
        let making = try Subprocess(convert, ["-size", size, "gradient:#3a6ff7-#f7b23a", "png:\(path)"])
        #expect(await making.exit().status == 0)
    }

    /// Attachments reach the page at signed, short-lived addresses: the address works without the
    /// session (an `<img>` is all the page needs) but not with any part changed, and not once the
    /// notification left the list; the registry's icon is the session's only.
    @Test func attachmentsAreServedAtSignedAddressesAndIconsOnlyToTheSession() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        let host = "127.0.0.1:\(port)"
        func exchange(_ method: String, _ path: String, headers: [String] = []) throws -> RawHTTPConnection.Answer {
            let raw = try RawHTTPConnection(loopbackPort: port)
            raw.request(method, path, token: nil, host: host, extraHeaders: headers)
            return try raw.answer()
        }
        let image = home.root.appendingPathComponent("photo.png").path
        try await Self.picture(image)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: image)))
        let icon = home.root.appendingPathComponent("icon.png").path
        try await Self.picture(icon, size: "32x32")
        #expect(await chime(["apps", "register", "com.example.photos", "--name", "Photos", "--icon", icon], home).exitCode == .success)
        let added = await chime(["add", "--app", "com.example.photos", "--id", "beach", "--attach", image, "Beach"], home)
        #expect(added.exitCode == .success, "\(added.standardError)")

        let url = try await loginURL(home)
        let login = try exchange("GET", String(url.dropFirst("http://\(host)".count)))
        let cookie = "Cookie: " + login.values(of: "set-cookie").map { String($0.split(separator: ";")[0]) }.joined(separator: "; ")
        let center = try exchange("GET", "/v1/center", headers: [cookie])
        #expect(center.status == 200, "\(center.text)")
        let page = try WireFormat.decoder().decode(CenterPage.self, from: Data(center.body))
        let item = try #require(page.items.first { $0.identifier == "beach" })
        let attachment = try #require(item.attachments.first)
        #expect(attachment.kind == "image" && attachment.mediaType == "image/png" && attachment.size == bytes.count)
        #expect(attachment.url.hasPrefix("/web/attachments/com.example.photos/beach/") && attachment.url.contains("signature="), "\(attachment.url)")
        #expect(attachment.expiresAt > Date() && attachment.expiresAt <= Date().addingTimeInterval(601))

        // Without the session, as an <img> loads it: the file itself, never run as anything.
        let served = try exchange("GET", attachment.url)
        #expect(served.status == 200 && served.body == bytes)
        #expect(served.headers["content-type"] == "image/png" && served.headers["x-content-type-options"] == "nosniff")
        #expect(served.headers["content-security-policy"]?.contains("sandbox") == true)
        // Any part changed breaks the signature.
        let signature = String(attachment.url[attachment.url.range(of: "signature=")!.upperBound...])
        let tampered = [
            attachment.url.replacingOccurrences(of: "signature=" + signature, with: "signature=" + String(signature.reversed())),
            attachment.url.replacingOccurrences(of: "/beach/", with: "/other/"),
            attachment.url.replacingOccurrences(of: "expires=", with: "expires=9"),
            attachment.url.replacingOccurrences(of: "&signature=" + signature, with: ""),
            "/web/attachments/com.example.photos/beach/../../../../etc/passwd?expires=9999999999&signature=" + signature,
        ]
        for path in tampered {
            let refused = try exchange("GET", path)
            #expect(refused.status == 403 && refused.body != bytes, "\(path) answered \(refused.status)")
        }
        // The icon: the session's only.
        #expect(try exchange("GET", "/web/icons/com.example.photos").status == 401)
        let shownIcon = try exchange("GET", "/web/icons/com.example.photos", headers: [cookie])
        #expect(shownIcon.status == 200 && shownIcon.headers["content-type"] == "image/png")
        #expect(try exchange("GET", "/web/icons/com.example.unknown", headers: [cookie]).status == 404)

        // Gone from the list, gone from the web.
        #expect(await chime(["remove", "--app", "com.example.photos", "--delivered", "beach"], home).exitCode == .success)
        #expect(try exchange("GET", attachment.url).status == 404)
        #expect(await daemon.terminate() == 0)
    }

    /// Only loopback by default: an address other machines reach takes an explicit flag (whose help warns);
    /// a wildcard, which no page's Host could name, is refused either way.
    @Test func theWebCenterIsServedBeyondLoopbackOnlyWhenTheUserSaysSo() throws {
        func parse(_ arguments: [String]) -> Result<DaemonConfiguration, DaemonCommand.UsageError> {
            Result { () throws(DaemonCommand.UsageError) in
                guard case .run(let configuration) = try DaemonCommand.parse(arguments, environment: [:]) else { preconditionFailure("not a run") }
                return configuration
            }
        }
        #expect(try parse(["--http", "localhost:7717"]).get().http == HTTPAddress(host: "127.0.0.1", port: 7717))
        guard case .failure(let refused) = parse(["--http", "192.168.1.5:7717"]) else {
            Issue.record("a network address was taken without the flag")
            return
        }
        #expect(refused.description.contains("--http-allow-remote"), "\(refused)")
        let remote = try parse(["--http-allow-remote", "--http", "192.168.1.5:7717"]).get()
        #expect(remote.http == HTTPAddress(host: "192.168.1.5", port: 7717) && remote.allowsRemoteHTTP)
        for wrong in ["0.0.0.0:7717", "example.com:80", "192.168.1:80", "192.168.01.5:80", "127.0.0.1"] {
            guard case .failure = parse(["--http-allow-remote", "--http", wrong]) else {
                Issue.record("\(wrong) was taken")
                continue
            }
        }
        #expect(DaemonCommand.helpText.contains("anyone on the network path can read"))
    }

    /// `chime web --open` hands the link to the desktop's opener (xdg-open, as a user's desktop has it),
    /// prints the same link, and that link lets the browser in once; an opener that fails is reported and
    /// the link is still printed to open by hand.
    @Test func chimeWebOpenHandsTheLinkToTheDesktopsOpener() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let port = try #require(home.httpPort)
        let bin = home.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let opened = home.root.appendingPathComponent("opened")
        let opener = bin.appendingPathComponent("xdg-open")
        func writeOpener(exitStatus: Int) throws {
            try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(opened.path)'\nexit \(exitStatus)\n".write(to: opener, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        }
        var environment = home.environment
        environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        try writeOpener(exitStatus: 0)
        let web = try ChildProcess(DaemonHome.chimeExecutable, ["web", "--open", "--json"], environment: environment, name: "chime web --open")
        #expect(await web.exitStatus() == 0)
        let printed = try JSONSerialization.jsonObject(with: Data(try await web.output.allLines().joined().utf8)) as? [String: Any]
        let url = try #require(printed?["url"] as? String)
        #expect(url.hasPrefix("http://127.0.0.1:\(port)/login?code="), "\(url)")
        #expect(try String(contentsOf: opened, encoding: .utf8) == url + "\n", "the opener got exactly the printed link")
        #expect(try await web.errors.allLines().isEmpty)
        let raw = try RawHTTPConnection(loopbackPort: port)
        raw.request("GET", String(url.dropFirst("http://127.0.0.1:\(port)".count)), token: nil, host: "127.0.0.1:\(port)")
        let login = try raw.answer()
        #expect(login.status == 303 && login.headers["location"] == "/" && !login.values(of: "set-cookie").isEmpty)

        try writeOpener(exitStatus: 3)
        let failing = try ChildProcess(DaemonHome.chimeExecutable, ["web", "--open"], environment: environment, name: "chime web --open (failing opener)")
        #expect(await failing.exitStatus() == 0)
        #expect(try await failing.errors.allLines().joined().contains("open the link yourself"))
        let lines = try await failing.output.allLines()
        #expect(lines.first?.contains("http://127.0.0.1:\(port)/login?code=") == true, "\(lines)")
        #expect(await daemon.terminate() == 0)
    }

    @Test func withoutALoopbackAddressChimeWebSaysWhy() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--http", "none"])
        let web = await chime(["web"], home)
        #expect(web.exitCode == .failure)
        #expect(web.standardError.contains("--http none"), "\(web.standardError)")
        #expect(await daemon.terminate() == 0)
    }

    /// A browser without the link is told how to get in, in its own language.
    @Test(arguments: [("en-US", "Open the notification center from a terminal"), ("ko-KR", "터미널에서 알림 센터를 여세요")])
    func withoutASessionThePageSaysHowToGetIn(language: String, heading: String) async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let browser = try await WebBrowser(language: language)
        do {
            try await browser.open("http://127.0.0.1:\(try #require(home.httpPort))/")
            try await browser.wait("#login", showing: heading)
            try await browser.wait("#login code", showing: "chime web --open")
            #expect(try await browser.count("#center") == 0)
            // A link someone opened already says so, and lets nobody else in.
            let url = try await loginURL(home)
            let port = try #require(home.httpPort)
            let first = try RawHTTPConnection(loopbackPort: port)
            first.request("GET", String(url.dropFirst("http://127.0.0.1:\(port)".count)), token: nil, host: "127.0.0.1:\(port)")
            #expect(try first.answer().status == 303)
            try await browser.open(url)
            try await browser.wait("#login-failed", showing: language == "ko-KR" ? "만료된 링크" : "expired")
            #expect(try await browser.count("#center") == 0)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
        #expect(await daemon.terminate() == 0)
    }
}
