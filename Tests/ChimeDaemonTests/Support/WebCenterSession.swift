import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// A chimed with the web center open in a real browser: what the web center's tests share.
struct WebCenterSession {
    let home: DaemonHome
    let daemon: RunningDaemon
    let browser: WebBrowser

    /// Starts chimed (the log presenter, or on `bus` the desktop's; `extra` options) and a headless
    /// Chromium, and logs the browser in.
    static func start(
        _ extra: [String] = [], language: String = "en-US", bus: PrivateBus? = nil, environment: [String: String] = [:]
    ) async throws -> WebCenterSession {
        let home = try DaemonHome()
        let daemon = try await home.start(extra, bus: bus, environment: environment)
        return try await open(home: home, daemon: daemon, language: language)
    }

    /// Starts a headless Chromium against a chimed already running in `home`, and logs it in.
    static func open(home: DaemonHome, daemon: RunningDaemon, language: String = "en-US") async throws -> WebCenterSession {
        let browser = try await WebBrowser(language: language)
        let session = WebCenterSession(home: home, daemon: daemon, browser: browser)
        do {
            try await browser.open(try await session.loginURL())
            try await browser.wait("#center", showing: "")
        } catch {
            await session.stop()
            throw error
        }
        return session
    }

    /// Runs `body`, then closes the browser and stops chimed whatever happened.
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    func stop() async {
        await browser.quit()
        #expect(await daemon.terminate() == 0)
    }

    var origin: String {
        get throws { "http://127.0.0.1:\(try #require(home.httpPort))" }
    }

    func chime(_ arguments: [String]) async -> ChimeMain.Result {
        await Self.chime(arguments, home)
    }

    static func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths)
    }

    func loginURL() async throws -> String {
        try await Self.loginURL(home)
    }

    static func loginURL(_ home: DaemonHome) async throws -> String {
        let web = await chime(["web", "--json"], home)
        #expect(web.exitCode == .success, "\(web.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(web.standardOutput.utf8)) as? [String: Any])
        return try #require(object["url"] as? String)
    }

    /// Sets `app`'s categories from JSON, as `chime categories set` does.
    func setCategories(_ json: String, app: String) async throws {
        let file = home.root.appendingPathComponent("categories-\(UUID().uuidString.prefix(6)).json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        let set = await chime(["categories", "set", file.path, "--app", app])
        #expect(set.exitCode == .success, "\(set.standardError)")
    }

    /// The meeting app running and allowed, with `meetingCategories`, its event stream open.
    func meetingApp(_ app: String = "com.example.meetings") async throws -> DaemonClient {
        try await setCategories(meetingCategories, app: app)
        let client = try await home.connect(app: app, subscribe: true)
        _ = try await client.requestAuthorization(options: [.alert, .sound])
        return client
    }

    /// Adds a notification with `chime add`, expecting it to be taken.
    func add(_ arguments: [String]) async {
        let added = await chime(["add"] + arguments)
        #expect(added.exitCode == .success, "\(added.standardError)")
    }
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

/// The meeting app's category of the tests: a button, and a typed reply that is destructive.
let meetingCategories = """
    [{"identifier": "invite", "categorySummaryFormat": "%u more invitations",
      "actions": [{"identifier": "accept", "title": "Accept"},
                  {"identifier": "decline", "title": "Decline with reason", "options": ["destructive"],
                   "textInput": {"buttonTitle": "Send", "placeholder": "Why not?"}}]},
     {"identifier": "reminder", "options": ["customDismissAction"],
      "actions": [{"identifier": "done", "title": "Done"}]}]
    """
