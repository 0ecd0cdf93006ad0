import ChimeDelivery
import ChimeTestSupport
import Foundation
import Testing

/// Webhook attempts against a real receiver (`WebhookReceiver`, which checks each signature with the
/// Standard Webhooks package): what each answer means, and where Chime refuses to send at all.
@Suite("Webhook sender", .serialized)
struct WebhookSenderTests {
    static let loopback = OutboundAddressPolicy(operatorAllowed: [IPNetwork("127.0.0.1")!])

    func attempt(_ path: String, _ receiver: WebhookReceiver, secret: WebhookSecret, host: String = "127.0.0.1", policy: OutboundAddressPolicy = loopback,
        sender: WebhookSender = WebhookSender()) async -> WebhookSender.Outcome
    {
        let body = Array(#"{"type":"notification.delivered","data":{"recipient":"ann"}}"#.utf8)
        let signature = WebhookSignature(id: "msg_\(UUID().uuidString.prefix(8))", timestamp: Int64(Date().timeIntervalSince1970), body: body, secrets: [secret])
        return await sender.send(body, headers: signature.headers, to: "http://\(host):\(receiver.port)\(path)", policy: policy)
    }

    @Test func answersMeanWhatTheSpecificationSays() async throws {
        let secret = WebhookSecret.generate()
        let receiver = try await WebhookReceiver.start(secret: secret.description)
        #expect(await attempt("/accept", receiver, secret: secret) == .accepted(status: 204))
        #expect(await attempt("/accept", receiver, secret: WebhookSecret.generate()) == .rejected(status: 401, retryAfterSeconds: nil))
        #expect(await attempt("/gone", receiver, secret: secret) == .gone)
        #expect(await attempt("/busy", receiver, secret: secret) == .rejected(status: 503, retryAfterSeconds: 7))
        let busyUntil = await attempt("/busy-until", receiver, secret: secret)
        if case .rejected(503, let pause?) = busyUntil {
            #expect((29...31).contains(pause), "Retry-After as an HTTP-date 30 s ahead is a pause of 30 s, not \(pause)")
        } else {
            Issue.record("Retry-After as an HTTP-date was not read: \(busyUntil)")
        }
        #expect(await attempt("/redirect", receiver, secret: secret) == .rejected(status: 302, retryAfterSeconds: nil), "not followed")
        let slow = await attempt("/slow", receiver, secret: secret, sender: WebhookSender(timeout: .milliseconds(500)))
        guard case .failed(let reason) = slow else {
            Issue.record("\(slow)")
            return
        }
        #expect(reason.lowercased().contains("timeout"), "\(reason)")

        try await eventually("the receiver logged every request") { receiver.requests().count >= 7 }
        let requests = receiver.requests()
        #expect(requests.map { $0["path"] as? String } == ["/accept", "/accept", "/gone", "/busy", "/busy-until", "/redirect", "/slow"], "the redirect was not followed")
        #expect(requests.map { $0["verified"] as? Bool } == [true, false, true, true, true, true, true])
        #expect(requests.allSatisfy { $0["contentType"] as? String == "application/json" })
        await receiver.stop()
    }

    /// Loopback, a private network or a name that resolves to one is not called without the tenant's leave;
    /// nothing reaches the receiver then.
    @Test func addressesThePolicyRefusesAreNeverCalled() async throws {
        let secret = WebhookSecret.generate()
        let receiver = try await WebhookReceiver.start(secret: secret.description)
        let tenantOnly = OutboundAddressPolicy(allowed: [IPNetwork("127.0.0.1")!])
        for (host, policy) in [("127.0.0.1", OutboundAddressPolicy()), ("localhost", OutboundAddressPolicy()), ("[::1]", Self.loopback), ("127.0.0.1", tenantOnly)] {
            let outcome = await attempt("/accept", receiver, secret: secret, host: host, policy: policy)
            guard case .refused(let reason) = outcome else {
                Issue.record("\(host): \(outcome)")
                continue
            }
            #expect(reason.contains("loopback"), "\(reason)")
        }
        for url in ["ftp://127.0.0.1/x", "file:///etc/passwd", "http://user:secret@127.0.0.1/accept", "not a url", "http:///accept", "gopher://127.0.0.1:70/"] {
            let outcome = await WebhookSender().send([], headers: [], to: url, policy: Self.loopback)
            guard case .refused = outcome else {
                Issue.record("\(url): \(outcome)")
                continue
            }
        }
        #expect(await attempt("/accept", receiver, secret: secret) == .accepted(status: 204), "allowed, it is called")
        // A name is pinned to the addresses that were checked: allowed, it reaches the receiver.
        let everyLoopback = OutboundAddressPolicy(operatorAllowed: [IPNetwork("127.0.0.0/8")!, IPNetwork("::1")!])
        #expect(await attempt("/accept", receiver, secret: secret, host: "localhost", policy: everyLoopback) == .accepted(status: 204))
        try await eventually("the receiver logged both") { receiver.requests().count >= 2 }
        #expect(receiver.requests().count == 2)
        await receiver.stop()
    }
}
