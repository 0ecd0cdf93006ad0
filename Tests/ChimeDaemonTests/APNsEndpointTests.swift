import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeCrypto
import ChimeTestSupport
import Foundation
import Testing

/// The per-user daemon's APNs-compatible endpoint: a backend that sends to APNs points its base URL at
/// chimed and reaches this desktop (and the web center, and subscribed browsers), with APNs' own request
/// and answers. The same reading of a request serves server mode, where a real HTTP/2 APNs client is
/// also used (`ServerModeAPNsDoorTests`).
@Suite("chimed: the APNs-compatible endpoint", .serialized)
struct APNsEndpointTests {
    static let app = "com.example.alarm"
    static let key = APNsStandIn.Key(team: "TEAM000001", keyID: "KEY0000001")

    static func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await WebCenterSession.chime(arguments, home)
    }

    /// `POST /3/device/{token}` with APNs' headers over the daemon's socket, without the daemon's token.
    static func push(
        _ home: DaemonHome, token: String, jwt: String?, topic: String? = app, apnsID: String? = nil, collapseID: String? = nil,
        payload: String = #"{"aps":{"alert":{"title":"From the backend","body":"Via chimed"}}}"#, method: String = "POST", path: String? = nil
    ) throws -> RawHTTPConnection.Answer {
        var headers = ["apns-push-type: alert", "apns-priority: 10", "Content-Type: application/json"]
        if let jwt { headers.append("authorization: bearer \(jwt)") }
        if let topic { headers.append("apns-topic: \(topic)") }
        if let apnsID { headers.append("apns-id: \(apnsID)") }
        if let collapseID { headers.append("apns-collapse-id: \(collapseID)") }
        let connection = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        connection.request(method, path ?? "/3/device/\(token)", token: nil, body: payload, extraHeaders: headers)
        return try connection.answer(within: 30)
    }

    static func reason(_ answer: RawHTTPConnection.Answer) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["reason"] as? String
    }

    static func presentedCount(_ daemon: RunningDaemon, _ identifier: String) -> Int {
        daemon.log.wholeLines.filter { $0.contains("presented \(app)/\(identifier) ") }.count
    }

    static func setUp() async throws -> (DaemonHome, RunningDaemon, String) {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let file = home.root.appendingPathComponent("AuthKey_KEY0000001.p8")
        try Self.key.key.pem.write(to: file, atomically: true, encoding: .utf8)
        let saved = await chime(["apps", "apns-key", "set", "--team", key.team, "--key-id", key.keyID, "--p8", file.path], home)
        #expect(saved.exitCode == .success && saved.standardOutput.contains("TEAM000001"), "\(saved.standardError)")
        let token = await chime(["apps", "apns-token", app], home)
        #expect(token.exitCode == .success, "\(token.standardError)")
        // As on iOS, what an app's backend pushes shows only once the user allowed the app.
        #expect(await chime(["apps", "allow", app], home).exitCode == .success)
        return (home, daemon, token.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aBackendsAPNsRequestIsShownOnTheDesktopOnce() async throws {
        let (home, daemon, token) = try await Self.setUp()
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "\(token)")
        #expect(await Self.chime(["apps", "apns-token", Self.app], home).standardOutput.contains(token), "the same token every time")
        #expect(!(await Self.chime(["apps", "apns-token", "com.example.other"], home).standardOutput.contains(token)), "each app its own")
        let shown = await Self.chime(["apps", "apns-key", "--json"], home)
        #expect(shown.standardOutput.contains("KEY0000001") && !shown.standardOutput.contains("PRIVATE"), "\(shown.standardOutput)")
        let kept = try String(contentsOf: home.paths.apnsFile, encoding: .utf8)
        #expect(kept.contains("PUBLIC KEY") && !kept.contains("PRIVATE"), "only the public half is kept")

        let jwt = ServerModeAPNsDoorTests.providerToken(Self.key)
        let id = UUID().uuidString
        let accepted = try Self.push(home, token: token.uppercased(), jwt: jwt, apnsID: id, collapseID: "backend-1")
        #expect(accepted.status == 200 && accepted.body.isEmpty && accepted.headers["apns-id"] == id.lowercased(), "\(accepted.status) \(accepted.text)")
        try await daemon.presented(Self.app, "backend-1")
        let client = try await home.connectAsUser()
        let delivered = try await client.deliveredNotifications(app: Self.app)
        #expect(delivered.map(\.notification.request.content.title) == ["From the backend"])
        client.close()

        // The same apns-id again (an answer lost on the way back) shows nothing more.
        #expect(try Self.push(home, token: token, jwt: jwt, apnsID: id, collapseID: "backend-1").status == 200)
        try await Task.sleep(for: .milliseconds(500))
        #expect(Self.presentedCount(daemon, "backend-1") == 1)

        // Without an apns-id each request is its own, named by the apns-id chimed answers with.
        let second = try Self.push(home, token: token, jwt: jwt)
        let secondID = try #require(second.headers["apns-id"])
        #expect(second.status == 200 && UUID(uuidString: secondID) != nil)
        try await daemon.presented(Self.app, secondID)

        // An app the user turned off: APNs' 200, and nothing shown.
        #expect(await Self.chime(["apps", "deny", Self.app], home).exitCode == .success)
        #expect(try Self.push(home, token: token, jwt: jwt, collapseID: "while-off").status == 200)
        try await Task.sleep(for: .milliseconds(500))
        #expect(Self.presentedCount(daemon, "while-off") == 0)
        #expect(await daemon.terminate() == 0)
    }

    @Test func itAnswersAsAPNsDoes() async throws {
        let (home, daemon, token) = try await Self.setUp()
        let jwt = ServerModeAPNsDoorTests.providerToken(Self.key)
        let otherToken = await Self.chime(["apps", "apns-token", "com.example.other"], home).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let stranger = APNsStandIn.Key(team: Self.key.team, keyID: Self.key.keyID)
        let cases: [(String, RawHTTPConnection.Answer, Int, String)] = [
            ("no token", try Self.push(home, token: token, jwt: nil), 403, "MissingProviderToken"),
            ("another key's signature", try Self.push(home, token: token, jwt: ServerModeAPNsDoorTests.providerToken(stranger)), 403, "InvalidProviderToken"),
            ("an unsigned token", try Self.push(home, token: token, jwt: ServerModeAPNsDoorTests.unsigned(jwt, alg: "none")), 403, "InvalidProviderToken"),
            ("the daemon's own token", try Self.push(home, token: token, jwt: try home.token), 403, "InvalidProviderToken"),
            (
                "a token two hours old", try Self.push(home, token: token, jwt: ServerModeAPNsDoorTests.providerToken(Self.key, issued: Date() - 7200)), 403,
                "ExpiredProviderToken"
            ),
            ("another app's token", try Self.push(home, token: otherToken, jwt: jwt), 400, "DeviceTokenNotForTopic"),
            ("a token of no app", try Self.push(home, token: String(repeating: "ab", count: 32), jwt: jwt), 400, "BadDeviceToken"),
            ("not hex", try Self.push(home, token: String(repeating: "zz", count: 32), jwt: jwt), 400, "BadDeviceToken"),
            ("no topic", try Self.push(home, token: token, jwt: jwt, topic: nil), 400, "MissingTopic"),
            ("a bad apns-id", try Self.push(home, token: token, jwt: jwt, apnsID: "not-a-uuid"), 400, "BadMessageId"),
            ("a hyphen for a digit in the apns-id", try Self.push(home, token: token, jwt: jwt, apnsID: "123e4567--89b-12d3-a456-426614174000"), 400, "BadMessageId"),
            ("a long collapse id", try Self.push(home, token: token, jwt: jwt, collapseID: String(repeating: "c", count: 65)), 400, "BadCollapseId"),
            ("not JSON", try Self.push(home, token: token, jwt: jwt, payload: "{"), 400, "BadPayload"),
            ("too large", try Self.push(home, token: token, jwt: jwt, payload: #"{"aps":{"alert":"\#(String(repeating: "x", count: 4100))"}}"#), 413, "PayloadTooLarge"),
            ("GET", try Self.push(home, token: token, jwt: jwt, method: "GET"), 405, "MethodNotAllowed"),
            ("another path", try Self.push(home, token: token, jwt: jwt, path: "/3/devices/\(token)"), 404, "BadPath"),
        ]
        for (what, answer, status, reason) in cases {
            #expect(answer.status == status && Self.reason(answer) == reason && answer.headers["apns-id"] != nil, "\(what): \(answer.status) \(answer.text)")
        }
        #expect(try await home.connectAsUser().deliveredNotifications(app: Self.app).isEmpty, "nothing refused was delivered")

        // On loopback TCP the Host is checked first, as for the API: a page elsewhere cannot post to it.
        let port = try #require(home.httpPort)
        let connection = try RawHTTPConnection(loopbackPort: port)
        connection.request("POST", "/3/device/\(token)", token: nil, body: "{}", host: "evil.example:\(port)", extraHeaders: ["authorization: bearer \(jwt)"])
        #expect(try connection.answer().status == 403)

        // An app may ask for its own token, not another's; the key is the user's alone.
        let asApp = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        asApp.request("GET", "/v1/apps/\(Self.app)/apns-token", token: try home.token, extraHeaders: ["Chime-App: \(Self.app)"])
        #expect(try asApp.answer().text.contains(token))
        let other = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        other.request("GET", "/v1/apps/com.example.other/apns-token", token: try home.token, extraHeaders: ["Chime-App: \(Self.app)"])
        #expect(try other.answer().status == 403)
        let keyAsApp = try RawHTTPConnection(unixPath: home.paths.socketFile.path)
        keyAsApp.request("DELETE", "/v1/apns-key", token: try home.token, extraHeaders: ["Chime-App: \(Self.app)"])
        #expect(try keyAsApp.answer().status == 403)

        // Forgotten, the key signs nothing any more; a bad key is refused and changes nothing.
        let bad = await Self.chime(["apps", "apns-key", "set", "--team", "team", "--key-id", Self.key.keyID, "--p8", "/etc/hostname"], home)
        #expect(bad.exitCode != .success && bad.standardError.contains("team identifier"), "\(bad.standardError)")
        #expect(await Self.chime(["apps", "apns-key", "remove"], home).exitCode == .success)
        #expect(await Self.chime(["apps", "apns-key"], home).standardOutput.contains("none"))
        let after = try Self.push(home, token: token, jwt: jwt)
        #expect(after.status == 403 && Self.reason(after) == "InvalidProviderToken")
        #expect(await daemon.terminate() == 0)
    }
}
