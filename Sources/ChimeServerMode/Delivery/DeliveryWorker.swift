import ChimeAPI
public import ChimeDelivery
public import ChimeEngine
public import ChimePostgres
public import Foundation

/// Server mode's deliveries beyond the machine: claims due deliveries from the ledger
/// (`PostgresDeliveries`), makes each attempt on its channel (`sendWebhook`, `sendAPNs`, `sendWebPush`), and records the
/// outcome: accepted, tried again on `schedule` (with ±10% jitter, and not before a `Retry-After` up to
/// the schedule's longest pause), or dead — after its last attempt, or at once when the channel says the
/// request can never succeed, which for a gone address (a webhook's `410 Gone`, APNs' `Unregistered`,
/// `BadDeviceToken`, a push service's 404 or 410) also turns the device off. Each outcome is also a `delivery` event on the tenant's
/// stream (`GET /v1/events`).
public struct DeliveryWorker: Sendable {
    public struct Configuration: Sendable {
        /// The pause before each retry: the Standard Webhooks specification's example schedule, about three
        /// days in all. Its length is the number of retries; one attempt more than that in all.
        public var schedule: [TimeInterval] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600]
        /// How long a claim holds a delivery: past it, another node takes the delivery again. Longer than an
        /// attempt can take, with room for recording its outcome.
        public var lease: TimeInterval { 2 * Double(sender.timeout.components.seconds) + 5 }
        /// An APNs attempt's: two requests when its provider token is replaced.
        public var apnsLease: TimeInterval { 2 * Double(apns.timeout.components.seconds) + 5 }
        /// Deliveries claimed, and sent at once, per round.
        public var batchSize = 32
        /// The pause when nothing is due.
        public var idlePoll: Duration = .milliseconds(250)
        /// Networks the node's operator opened for every tenant (`chimed --webhook-allow`), loopback included.
        public var operatorAllowed: [IPNetwork] = []
        public var sender = WebhookSender()
        /// Where APNs is, and the certificate authorities to trust for it (a stand-in's, in tests).
        public var apns = APNsClient.Configuration()

        public init() {}
    }

    let deliveries: PostgresDeliveries
    let configuration: Configuration
    let log: any EngineLog
    let apns: APNsClient
    let privateKeys = PrivateKeyCache()

    public init(database: PostgresDatabase, configuration: Configuration = Configuration(), log: any EngineLog) {
        deliveries = PostgresDeliveries(database: database)
        self.configuration = configuration
        self.log = log
        apns = APNsClient(configuration: configuration.apns)
    }

    /// Claims, sends and records until cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                let sent = try await round(now: Date())
                if sent < configuration.batchSize { try? await Task.sleep(for: configuration.idlePoll) }
            } catch {
                log.warning("deliveries: \(error); retrying in 1 s")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// One round: the due deliveries claimed and sent at once; returns how many were claimed.
    func round(now: Date) async throws -> Int {
        let claimed = try await deliveries.claim(now: now, limit: configuration.batchSize, lease: configuration.lease, apnsLease: configuration.apnsLease)
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask {
                    let result = await self.attempt(delivery)
                    do {
                        let recorded = try await self.deliveries.finish(delivery, result, now: Date(), event: TenantService.encodeDelivery)
                        if !recorded {
                            self.log.warning("deliveries: \(delivery.id) was taken over before its attempt \(delivery.attempts) ended")
                        }
                    } catch {
                        self.log.warning("deliveries: \(delivery.id): its outcome was not recorded (\(error)); it is tried again after its lease")
                    }
                }
            }
        }
        return claimed.count
    }

    /// Makes one attempt on the delivery's channel and says what the ledger records.
    func attempt(_ delivery: ClaimedDelivery) async -> DeliveryResult {
        guard let address = delivery.address else { return .dead(status: nil, error: "the device was removed or turned off") }
        switch delivery.channel {
        case "webhook", PostgresDeliveries.ledgerChannel: return await sendWebhook(delivery, to: address)
        case "apns": return await sendAPNs(delivery, to: address)
        case "webpush": return await sendWebPush(delivery, to: address)
        default: return .dead(status: nil, error: "Chime does not send to \(delivery.channel) devices")
        }
    }

    /// Another attempt on `schedule` after attempt number `attempt`, or dead after the last one.
    static func retry(_ status: Int?, _ error: String, attempt: Int, schedule: [TimeInterval], now: Date, notBefore: Int? = nil) -> DeliveryResult {
        var generator = SystemRandomNumberGenerator()
        guard attempt <= schedule.count else { return .dead(status: status, error: error + " (after \(attempt) attempts)") }
        let pause = schedule[attempt - 1] * Double.random(in: 0.9...1.1, using: &generator)
        // A Retry-After is honoured up to the schedule's longest pause, so no receiver parks a delivery forever.
        let asked = min(TimeInterval(notBefore ?? 0), schedule.max() ?? 0)
        return .retry(at: now.addingTimeInterval(max(pause, asked)), status: status, error: error)
    }
}
