import ChimeCrypto
import ChimeDelivery
import ChimeTestSupport
import Foundation
import Testing

/// The APNs provider against a stand-in that checks requests as APNs does (`apns_standin.py`: HTTP/2 over
/// TLS, the provider token verified with the key's public half, headers and payload size) and answers
/// each documented error as its device token scripts.
@Suite("APNs provider", .serialized)
struct APNsClientTests {
    static let team = APNsStandIn.Key(team: "TEAM000001", keyID: "KEY0000001")

    static func client(_ standIn: APNsStandIn) -> APNsClient {
        var configuration = APNsClient.Configuration()
        configuration.production = standIn.url
        configuration.development = standIn.url
        configuration.certificateAuthorities = standIn.certificate
        configuration.timeout = .seconds(10)
        return APNsClient(configuration: configuration)
    }

    static func credentials(_ key: APNsStandIn.Key) -> APNsCredentials {
        APNsCredentials(teamID: key.team, keyID: key.keyID, key: key.key)
    }

    /// A device token: its first four digits script the stand-in's answer.
    static func token(_ prefix: String, _ number: Int) -> String {
        prefix + String(repeating: "0", count: 60 - String(number).count) + String(number)
    }

    static func notification(_ token: String, payload: String = #"{"aps":{"alert":{"title":"Hi","body":"There"}}}"#) -> APNsNotification {
        APNsNotification(deviceToken: token, topic: "com.example.app", collapseID: "reminder-1", payload: Array(payload.utf8))
    }

    @Test func manyRequestsShareOneHTTP2ConnectionAndOneProviderToken() async throws {
        let standIn = try await APNsStandIn.start(keys: [Self.team])
        defer { Task { await standIn.stop() } }
        let client = Self.client(standIn)
        let notifications = (0..<60).map { Self.notification(Self.token("abcd", $0)) }
        let answers = try await withThrowingTaskGroup(of: (APNsNotification, APNsAnswer).self) { group in
            for notification in notifications {
                group.addTask { (notification, try await client.send(notification, environment: .production, credentials: Self.credentials(Self.team))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (notification, answer) in answers {
            #expect(answer.status == 200)
            #expect(answer.apnsID == notification.id.uuidString.lowercased(), "APNs echoes the request's apns-id")
        }
        let requests = standIn.requests()
        #expect(requests.filter { $0["violation"] != nil }.isEmpty, "\(requests.filter { $0["violation"] != nil })")
        #expect(requests.count == 60)
        #expect(Set(requests.compactMap { $0["connection"] as? Int }) == [1], "one connection carries every request")
        #expect(Set(requests.compactMap { $0["authorization"] as? String }).count == 1, "one provider token for all")
        let headers = try #require(requests.first?["headers"] as? [String: String])
        #expect(headers["apns-topic"] == "com.example.app")
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-collapse-id"] == "reminder-1")
        #expect(headers["apns-expiration"] == "0")
    }

    @Test func eachDocumentedErrorComesBackWithItsReason() async throws {
        let standIn = try await APNsStandIn.start(keys: [Self.team])
        defer { Task { await standIn.stop() } }
        let client = Self.client(standIn)
        func send(_ token: String) async throws -> APNsAnswer {
            try await client.send(Self.notification(token), environment: .development, credentials: Self.credentials(Self.team))
        }
        let bad = try await send(Self.token("0400", 1))
        #expect(bad.status == 400 && bad.reason == "BadDeviceToken" && bad.timestamp == nil)
        #expect(try await send(Self.token("0404", 1)).reason == "DeviceTokenNotForTopic")
        let gone = try await send(Self.token("0410", 1))
        #expect(gone.status == 410 && gone.reason == "Unregistered")
        let since = try #require(gone.timestamp)
        #expect(abs(since.timeIntervalSinceNow) < 30, "APNs' timestamp is when the token stopped being valid")
        let busy = try await send(Self.token("0429", 1))
        #expect(busy.status == 429 && busy.reason == "TooManyRequests")
        #expect(try await send(Self.token("0429", 1)).status == 200)
        #expect(try await send(Self.token("0500", 1)).reason == "InternalServerError")
        #expect(try await send(Self.token("0503", 1)).status == 503)
        // A payload over 4 KB is never sent: APNs would answer 413.
        let large = Self.notification(Self.token("abcd", 1), payload: #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#)
        await #expect(throws: APNsClient.Failure.self) { try await client.send(large, environment: .production, credentials: Self.credentials(Self.team)) }
        #expect(!standIn.requests().contains { ($0["payload_size"] as? Int ?? 0) > 4096 })
        #expect(standIn.requests().filter { $0["violation"] != nil }.isEmpty)
    }

    @Test func anExpiredProviderTokenIsReplacedOnceAndNotAgain() async throws {
        let standIn = try await APNsStandIn.start(keys: [Self.team])
        defer { Task { await standIn.stop() } }
        let client = Self.client(standIn)
        func send(_ token: String) async throws -> APNsAnswer {
            try await client.send(Self.notification(token), environment: .production, credentials: Self.credentials(Self.team))
        }
        #expect(try await send(Self.token("abcd", 1)).status == 200)
        // APNs rejects the current token: a new one, and the request sent again with it.
        #expect(try await send(Self.token("0403", 1)).status == 200)
        // Rejected again at once: the token was replaced early already, so the answer stands (no churn
        // of tokens, which APNs would answer with TooManyProviderTokenUpdates).
        let again = try await send(Self.token("0403", 2))
        #expect(again.status == 403 && again.reason == "ExpiredProviderToken")
        #expect(try await send(Self.token("abcd", 2)).status == 200)
        let tokens = standIn.requests().compactMap { $0["authorization"] as? String }
        #expect(tokens.count == 5)
        #expect(Set(tokens).count == 2, "one token at first, one made after APNs rejected it")
        #expect(!standIn.requests().contains { $0["reason"] as? String == "TooManyProviderTokenUpdates" })
    }

    /// One connection per key and environment, each with its one token: another team, or another key of
    /// the same team (two tenants that give the same team), never shares one.
    @Test func eachKeyAndEnvironmentHasItsOwnConnection() async throws {
        let other = APNsStandIn.Key(team: "TEAM000002", keyID: "KEY0000002")
        let sameTeam = APNsStandIn.Key(team: "TEAM000001", keyID: "KEY0000003")
        let standIn = try await APNsStandIn.start(keys: [Self.team, other, sameTeam])
        defer { Task { await standIn.stop() } }
        let client = Self.client(standIn)
        for round in 0..<3 {
            for (environment, key) in [(APNsClient.Environment.production, Self.team), (.development, Self.team), (.production, other), (.production, sameTeam)] {
                #expect(try await client.send(Self.notification(Self.token("abcd", round)), environment: environment, credentials: Self.credentials(key)).status == 200)
            }
        }
        let requests = standIn.requests()
        #expect(Set(requests.compactMap { $0["connection"] as? Int }).count == 4)
        for connection in Set(requests.compactMap { $0["connection"] as? Int }) {
            #expect(Set(requests.filter { $0["connection"] as? Int == connection }.compactMap { $0["authorization"] as? String }).count == 1, "one token per connection")
        }
        #expect(!requests.contains { $0["reason"] as? String == "TooManyProviderTokenUpdates" })
    }

    @Test func aStrangerOrNobodyIsNoAnswer() async throws {
        let standIn = try await APNsStandIn.start(keys: [Self.team])
        defer { Task { await standIn.stop() } }
        // Without the stand-in's certificate among the authorities, TLS refuses it: nothing is sent.
        var untrusting = APNsClient.Configuration()
        untrusting.production = standIn.url
        await #expect(throws: APNsClient.Failure.self) {
            try await APNsClient(configuration: untrusting).send(Self.notification(Self.token("abcd", 1)), environment: .production, credentials: Self.credentials(Self.team))
        }
        #expect(standIn.requests().isEmpty)
        var nobody = APNsClient.Configuration()
        nobody.production = "https://127.0.0.1:1"
        await #expect(throws: APNsClient.Failure.self) {
            try await APNsClient(configuration: nobody).send(Self.notification(Self.token("abcd", 1)), environment: .production, credentials: Self.credentials(Self.team))
        }
        // A key APNs does not know: its answer is InvalidProviderToken, after one new token.
        let stranger = APNsStandIn.Key(team: "TEAM000001", keyID: "KEY0000009")
        let answer = try await Self.client(standIn).send(Self.notification(Self.token("abcd", 1)), environment: .production, credentials: Self.credentials(stranger))
        #expect(answer.status == 403 && answer.reason == "InvalidProviderToken")
        #expect(standIn.requests().count == 2)
    }
}
