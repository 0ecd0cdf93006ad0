import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The web notification center, against a real chimed: its door (the one-time link, the session cookie,
/// CSRF, Host and Origin), read with raw HTTP; and the page itself in a real browser (headless Chromium).
@Suite("Web notification center", .serialized)
struct WebCenterTests {
    func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths)
    }

    func loginURL(_ home: DaemonHome) async throws -> String {
        let web = await chime(["web", "--json"], home)
        #expect(web.exitCode == .success, "\(web.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(web.standardOutput.utf8)) as? [String: Any])
        return try #require(object["url"] as? String)
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

    static let meetings = """
        [{"identifier": "invite", "categorySummaryFormat": "%u more invitations",
          "actions": [{"identifier": "accept", "title": "Accept"},
                      {"identifier": "decline", "title": "Decline with reason", "options": ["destructive"],
                       "textInput": {"buttonTitle": "Send", "placeholder": "Why not?"}}]}]
        """

    /// What a user does on the page: notifications arrive live, stacked by thread under the category's
    /// summary, in every open tab; a button, a typed reply and opening reach the app as the responses
    /// the desktop would send.
    @Test func thePageShowsNotificationsLiveAndAnswersThemForTheApp() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = "com.example.meetings"
        let file = home.root.appendingPathComponent("meetings.json")
        try Self.meetings.write(to: file, atomically: true, encoding: .utf8)
        #expect(await chime(["categories", "set", file.path, "--app", app], home).exitCode == .success)
        let client = try await DaemonClient.connect(appIdentifier: app, subscribe: true, paths: home.paths)
        defer { client.close() }
        _ = try await client.requestAuthorization(options: [.alert])
        let browser = try await WebBrowser()
        do {
            try await browser.open(try await loginURL(home))
            try await browser.wait("#empty", showing: "No notifications.")
            #expect(try await browser.script("return location.pathname + location.search") as? String == "/", "the code is gone from the address")

            // Live, without reloading: each arrives in its app's section, the thread stacked.
            _ = await chime(["add", "--app", app, "--category", "invite", "--thread", "ann", "--id", "lunch", "Lunch on Friday?", "Ann invites you"], home)
            try await browser.wait("section[data-app='\(app)'] li[data-id='lunch']", showing: "Lunch on Friday?")
            _ = await chime(["add", "--app", app, "--category", "invite", "--thread", "ann", "--id", "coffee", "Coffee?", "Ann: at 3?"], home)
            try await browser.wait("ul[data-thread='ann'] li[data-id='coffee']", showing: "1 more invitations")
            #expect(try await browser.count("ul[data-thread='ann'] li.notification") == 1, "the stack shows its newest only")
            try await browser.click("section[data-app='\(app)'] .stack-toggle")
            try await browser.wait("li[data-id='lunch']", showing: "Ann invites you")
            #expect(try await browser.count("ul[data-thread='ann'] li.notification") == 2)

            try await browser.newTab()
            try await browser.open("http://127.0.0.1:\(try #require(home.httpPort))/")
            try await browser.wait("li[data-id='coffee']", showing: "Coffee?")
            try await browser.switchTab(0)

            // A button, a typed reply, opening: the app receives each as the desktop would send it.
            try await browser.click("li[data-id='coffee'] button[data-action='accept']")
            var response = try await nextResponse(client)
            #expect(response.notification.request.identifier == "coffee" && response.actionIdentifier == "accept")
            try await browser.type("li[data-id='lunch'] input[data-action='decline']", "Dentist\n")
            response = try await nextResponse(client)
            #expect(response.actionIdentifier == "decline" && response.userText == "Dentist")
            _ = await chime(["add", "--app", app, "--id", "note", "--level", "time-sensitive", "A note"], home)
            try await browser.wait("li.time-sensitive[data-id='note'] .level", showing: "Time Sensitive")
            try await browser.click("li[data-id='note'] button[data-action='open']")
            response = try await nextResponse(client)
            #expect(response.isDefaultAction && response.notification.request.identifier == "note")
            // Dismissing takes it off the list, in every tab.
            try await browser.click("li[data-id='lunch'] button[data-action='dismiss']")
            try await browser.waitGone("li[data-id='lunch']")
            let delivered = await chime(["delivered", "--app", app, "--json"], home).standardOutput
            #expect(!delivered.contains(#""lunch""#), "\(delivered)")
            try await browser.switchTab(1)
            try await browser.waitGone("li[data-id='lunch']")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
        #expect(await daemon.terminate() == 0)
    }

    /// The next response the app's event stream brings, acknowledged.
    func nextResponse(_ client: DaemonClient, within seconds: Double = 10) async throws -> NotificationResponse {
        let found = await withTaskGroup(of: ResponseEvent?.self) { group in
            group.addTask {
                for await event in client.events { if case .response(let response) = event { return response } }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        let event = try #require(found, "no response reached the app within \(seconds) s")
        try await client.acknowledge(event)
        return event.response
    }
}
