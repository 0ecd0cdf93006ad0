import ChimeDelivery
import ChimePostgres
import Foundation

extension DeliveryWorker {
    /// A webhook attempt: signed as the Standard Webhooks specification says with the device's secrets,
    /// sent (`WebhookSender`) only where the tenant's and the operator's allow lists let it go.
    func sendWebhook(_ delivery: ClaimedDelivery, to url: String) async -> DeliveryResult {
        let secrets = delivery.secrets.compactMap(WebhookSecret.init)
        guard !secrets.isEmpty else { return .dead(status: nil, error: "the device has no signing secret") }
        let policy = OutboundAddressPolicy(allowed: delivery.allowList.compactMap(IPNetwork.init), operatorAllowed: configuration.operatorAllowed)
        let signature = WebhookSignature(
            id: "msg_\(delivery.id)", timestamp: Int64(Date().timeIntervalSince1970), body: delivery.body, secrets: secrets)
        let outcome = await configuration.sender.send(delivery.body, headers: signature.headers, to: url, policy: policy)
        return Self.result(of: outcome, attempt: delivery.attempts, schedule: configuration.schedule, now: Date())
    }

    /// The ledger's record of a webhook attempt's outcome.
    static func result(of outcome: WebhookSender.Outcome, attempt: Int, schedule: [TimeInterval], now: Date) -> DeliveryResult {
        switch outcome {
        case .accepted(let status): .accepted(status: status)
        case .gone: .dead(status: 410, error: "the receiver answered 410 Gone", disablingDevice: "the webhook answered 410 Gone")
        case .rejected(let status, let retryAfter):
            retry(status, "the receiver answered \(status)", attempt: attempt, schedule: schedule, now: now, notBefore: retryAfter)
        case .failed(let reason): retry(nil, reason, attempt: attempt, schedule: schedule, now: now)
        case .refused(let reason): .dead(status: nil, error: reason)
        }
    }
}
