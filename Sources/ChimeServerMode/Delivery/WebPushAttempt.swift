import ChimeAPI
import ChimeCore
import ChimeCrypto
import ChimeDelivery
import ChimePostgres
import Foundation

extension DeliveryWorker {
    /// A Web Push attempt (RFC 8030): the delivered event made into the message a service worker reads
    /// (`WebPushMessageBody`), encrypted for the subscription (RFC 8291), signed for the push service's
    /// origin with the tenant's VAPID key (RFC 8292), and POSTed as a webhook is: only to addresses the
    /// allow lists let it reach.
    func sendWebPush(_ delivery: ClaimedDelivery, to endpoint: String) async -> DeliveryResult {
        guard let subscription = WebPushSubscription(endpoint: endpoint, p256dh: delivery.p256dh ?? "", auth: delivery.auth ?? "") else {
            return .dead(status: nil, error: "the subscription's keys are not a P-256 key and a 16-byte secret")
        }
        guard let origin = subscription.origin else { return .dead(status: nil, error: "the endpoint has no origin") }
        let vapid: VAPID
        do {
            guard let key = try await tenantVAPID(delivery) else { return .dead(status: nil, error: "the tenant has no VAPID key") }
            vapid = key
        } catch {
            return Self.retry(nil, "the tenant's VAPID key could not be read (\(error))", attempt: delivery.attempts, schedule: configuration.schedule, now: Date())
        }
        guard let message = Self.webPushMessage(delivery.body) else { return .dead(status: nil, error: "the delivered event could not be read") }
        let body: [UInt8]
        do {
            body = try WebPushEncryption.encrypt(message.bytes, for: subscription)
        } catch {
            return .dead(status: nil, error: "the message is \(error.size) bytes; a push message holds \(WebPushEncryption.maximumPlaintext)")
        }
        let headers = WebPushHeaders.headers(
            vapid: vapid, origin: origin, urgency: message.urgency, topic: WebPushHeaders.topic(identifier: message.identifier), now: Date())
        let policy = OutboundAddressPolicy(allowed: delivery.allowList.compactMap(IPNetwork.init), operatorAllowed: configuration.operatorAllowed)
        let outcome = await configuration.sender.send(body, headers: headers, to: endpoint, policy: policy, contentType: "application/octet-stream")
        return Self.webPushResult(of: outcome, attempt: delivery.attempts, schedule: configuration.schedule, now: Date())
    }

    /// The tenant's VAPID key: the one the claim carried, or one made now for a tenant that had none.
    private func tenantVAPID(_ delivery: ClaimedDelivery) async throws -> VAPID? {
        var pem = delivery.vapidKey
        var subject = delivery.vapidSubject
        if pem == nil, let record = try await deliveries.vapidKey(tenant: delivery.tenant, make: { P256PrivateKey.generate().pem }) {
            pem = record.pem
            subject = record.subject
        }
        guard let pem, let key = privateKeys.key(pem) else { return nil }
        return VAPID(key: key, subject: subject)
    }

    /// The message for the service worker from the stored Standard Webhooks body; its `userInfo` is left out,
    /// and then its body shortened, when it would not fit one push message.
    static func webPushMessage(_ stored: [UInt8]) -> (bytes: [UInt8], identifier: String, urgency: String)? {
        struct Stored: Decodable {
            let data: RecipientDeliveredEvent
        }
        guard let event = try? WireFormat.decoder().decode(Stored.self, from: Data(stored)).data else { return nil }
        let bytes = WebPushMessageBody(event).encoded(fittingIn: WebPushEncryption.maximumPlaintext)
        let level = event.notification.request.content.interruptionLevel
        let urgency =
            event.alerting == "quietly" || level == .passive ? "low" : level == .timeSensitive || level == .critical ? "high" : "normal"
        return (bytes, event.notification.request.identifier, urgency)
    }

    /// The ledger's record of what the push service answered (RFC 8030 §5, §6.2; RFC 8292 §4):
    /// - 2xx (201 Created): accepted.
    /// - 404 and 410: the subscription is gone, so the delivery is dead and the device turned off.
    /// - 429 and 5xx, or no answer: tried again on the schedule, not before a `Retry-After`.
    /// - Any other answer (400, 401/403 for a VAPID key the subscription was not made with, 413): dead.
    static func webPushResult(of outcome: WebhookSender.Outcome, attempt: Int, schedule: [TimeInterval], now: Date) -> DeliveryResult {
        switch outcome {
        case .accepted(let status): return .accepted(status: status)
        case .gone, .rejected(404, _):
            let status = outcome == .gone ? 410 : 404
            return .dead(status: status, error: "the push service answered \(status)", disablingDevice: "the push service answered \(status): the subscription is gone")
        case .rejected(let status, let retryAfter) where status == 429 || status >= 500:
            return retry(status, "the push service answered \(status)", attempt: attempt, schedule: schedule, now: now, notBefore: retryAfter)
        case .rejected(let status, _): return .dead(status: status, error: "the push service answered \(status)")
        case .failed(let reason): return retry(nil, reason, attempt: attempt, schedule: schedule, now: now)
        case .refused(let reason): return .dead(status: nil, error: reason)
        }
    }
}
