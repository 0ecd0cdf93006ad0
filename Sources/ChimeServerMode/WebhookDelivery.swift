import ChimeAPI
public import ChimeDelivery
public import ChimeEngine
public import ChimePostgres
public import Foundation

/// The webhooks of server mode: claims due deliveries from the ledger (`PostgresDeliveries`), signs each as
/// the Standard Webhooks specification says with the device's secrets, sends it (`WebhookSender`, held to
/// the tenant's and the operator's allow lists), and records the outcome: accepted on a `2xx`; on anything
/// else tried again on `schedule` (with ±10% jitter, and not before a `Retry-After` up to the schedule's
/// longest pause), dead after its last attempt, at once when the URL may not be called, or on `410 Gone`,
/// which also turns the device off. Each outcome is also a `delivery` event on the tenant's stream
/// (`GET /v1/events`).
public struct WebhookDelivery: Sendable {
    public struct Configuration: Sendable {
        /// The pause before each retry: the Standard Webhooks specification's example schedule, about three
        /// days in all. Its length is the number of retries; one attempt more than that in all.
        public var schedule: [TimeInterval] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600]
        /// How long a claim holds a delivery: past it, another node takes the delivery again. Longer than an
        /// attempt can take (the sender's timeout), with room for recording its outcome.
        public var lease: TimeInterval { 2 * Double(sender.timeout.components.seconds) + 5 }
        /// Deliveries claimed, and sent at once, per round.
        public var batchSize = 32
        /// The pause when nothing is due.
        public var idlePoll: Duration = .milliseconds(250)
        /// Networks the node's operator opened for every tenant (`chimed --webhook-allow`), loopback included.
        public var operatorAllowed: [IPNetwork] = []
        public var sender = WebhookSender()

        public init() {}
    }

    let deliveries: PostgresDeliveries
    let configuration: Configuration
    let log: any EngineLog

    public init(database: PostgresDatabase, configuration: Configuration = Configuration(), log: any EngineLog) {
        deliveries = PostgresDeliveries(database: database)
        self.configuration = configuration
        self.log = log
    }

    /// Claims, sends and records until cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                let sent = try await round(now: Date())
                if sent < configuration.batchSize { try? await Task.sleep(for: configuration.idlePoll) }
            } catch {
                log.warning("webhooks: \(error); retrying in 1 s")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// One round: the due deliveries claimed and sent at once; returns how many were claimed.
    func round(now: Date) async throws -> Int {
        let claimed = try await deliveries.claim(now: now, limit: configuration.batchSize, lease: configuration.lease)
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask {
                    let result = await self.attempt(delivery)
                    do {
                        let recorded = try await self.deliveries.finish(delivery, result, now: Date()) { record in
                            Array(try WireFormat.encoder().encode(TenantService.item(record)))
                        }
                        if !recorded {
                            self.log.warning("webhooks: delivery \(delivery.id) was taken over before its attempt \(delivery.attempts) ended")
                        }
                    } catch {
                        self.log.warning("webhooks: delivery \(delivery.id): its outcome was not recorded (\(error)); it is tried again after its lease")
                    }
                }
            }
        }
        return claimed.count
    }

    /// Sends one attempt and says what the ledger records.
    func attempt(_ delivery: ClaimedDelivery) async -> DeliveryResult {
        guard let url = delivery.url else { return .dead(status: nil, error: "the device was removed or turned off") }
        let secrets = delivery.secrets.compactMap(WebhookSecret.init)
        guard !secrets.isEmpty else { return .dead(status: nil, error: "the device has no signing secret") }
        let policy = OutboundAddressPolicy(allowed: delivery.allowList.compactMap(IPNetwork.init), operatorAllowed: configuration.operatorAllowed)
        let signature = WebhookSignature(
            id: "msg_\(delivery.id)", timestamp: Int64(Date().timeIntervalSince1970), body: delivery.body, secrets: secrets)
        let outcome = await configuration.sender.send(delivery.body, headers: signature.headers, to: url, policy: policy)
        return Self.result(of: outcome, attempt: delivery.attempts, schedule: configuration.schedule, now: Date())
    }

    /// The ledger's record of an attempt's outcome.
    static func result(of outcome: WebhookSender.Outcome, attempt: Int, schedule: [TimeInterval], now: Date) -> DeliveryResult {
        var generator = SystemRandomNumberGenerator()
        func retry(_ status: Int?, _ error: String, notBefore: Int? = nil) -> DeliveryResult {
            guard attempt <= schedule.count else { return .dead(status: status, error: error + " (after \(attempt) attempts)") }
            let pause = schedule[attempt - 1] * Double.random(in: 0.9...1.1, using: &generator)
            // A Retry-After is honoured up to the schedule's longest pause, so no receiver parks a delivery forever.
            let asked = min(TimeInterval(notBefore ?? 0), schedule.max() ?? 0)
            return .retry(at: now.addingTimeInterval(max(pause, asked)), status: status, error: error)
        }
        switch outcome {
        case .accepted(let status): return .accepted(status: status)
        case .gone: return .dead(status: 410, error: "the receiver answered 410 Gone", disablingDevice: "the webhook answered 410 Gone")
        case .rejected(let status, let retryAfter): return retry(status, "the receiver answered \(status)", notBefore: retryAfter)
        case .failed(let reason): return retry(nil, reason)
        case .refused(let reason): return .dead(status: nil, error: reason)
        }
    }
}
