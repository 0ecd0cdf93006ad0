import ChimeCore
import ChimeCrypto
import ChimeDelivery
import ChimePostgres
import Foundation
import Synchronization

extension DeliveryWorker {
    /// An APNs attempt: the payload and headers fixed when the delivery was queued (`APNsPush`), signed
    /// with the tenant's provider key, to the device's environment. The `apns-id` is the same for every
    /// attempt of a delivery, so what APNs and the ledger say can be matched.
    func sendAPNs(_ delivery: ClaimedDelivery, to token: String) async -> DeliveryResult {
        guard let record = delivery.apnsKey else {
            return .dead(status: nil, error: "the tenant has no APNs provider key (PUT /v1/settings/apns)")
        }
        guard let key = privateKeys.key(record.pem) else {
            return .dead(status: nil, error: "the tenant's APNs provider key is not a P-256 key")
        }
        let credentials = APNsCredentials(teamID: record.teamID, keyID: record.keyID, key: key)
        let headers = APNsPush.headers(fromLines: delivery.headers)
        let notification = APNsNotification(
            deviceToken: token, topic: delivery.topic ?? "", pushType: headers["apns-push-type"] ?? "alert",
            priority: headers["apns-priority"].flatMap(Int.init) ?? 10, expiration: headers["apns-expiration"].flatMap(Int64.init) ?? 0,
            collapseID: headers["apns-collapse-id"], id: Self.apnsID(delivery.id), payload: delivery.body)
        let environment: APNsClient.Environment = delivery.environment == "development" ? .development : .production
        do {
            let answer = try await apns.send(notification, environment: environment, credentials: credentials)
            return Self.result(of: answer, attempt: delivery.attempts, schedule: configuration.schedule, now: Date())
        } catch {
            switch error {
            case .notSent(let reason): return .dead(status: nil, error: reason)
            case .noAnswer(let reason): return Self.retry(nil, "APNs: \(reason)", attempt: delivery.attempts, schedule: configuration.schedule, now: Date())
            }
        }
    }

    /// A delivery's `apns-id`: a UUID (version 8, RFC 9562) made from its ledger id.
    static func apnsID(_ delivery: Int64) -> UUID {
        var bytes = Array(Digest.sha256(Array("chime-delivery:\(delivery)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12],
                bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The ledger's record of what APNs answered, as Apple's "Handling notification responses from APNs"
    /// says a provider acts on it:
    /// - 200: accepted.
    /// - 410 `Unregistered` / `ExpiredToken`, 400 `BadDeviceToken` / `DeviceTokenNotForTopic`: the token
    ///   will never work for this app, so the delivery is dead and the device turned off (for 410, unless it
    ///   was registered again after APNs' timestamp).
    /// - 429 and 5xx: tried again on the schedule; so is 403 (the provider token, still refused after a new
    ///   one: the tenant's key may be fixed meanwhile).
    /// - Any other 4xx: the request itself is wrong and would be again: dead.
    static func result(of answer: APNsAnswer, attempt: Int, schedule: [TimeInterval], now: Date) -> DeliveryResult {
        let reason = answer.reason ?? "no reason given"
        let error = "APNs answered \(answer.status) \(reason)"
        switch (answer.status, answer.reason) {
        case (200, _): return .accepted(status: 200)
        case (410, _):
            return .dead(status: 410, error: error, disablingDevice: "APNs: \(reason)", disabledSince: answer.timestamp)
        case (400, "BadDeviceToken"?), (400, "DeviceTokenNotForTopic"?):
            return .dead(status: 400, error: error, disablingDevice: "APNs: \(reason)")
        case (403, _), (429, _), (500..., _):
            return retry(answer.status, error, attempt: attempt, schedule: schedule, now: now)
        default:
            return .dead(status: answer.status, error: error)
        }
    }
}

/// Tenants' keys (APNs provider keys, VAPID keys) read once: a key's PEM is parsed the first time a
/// delivery needs it, and the same key serves every delivery of the tenant after.
final class PrivateKeyCache: Sendable {
    private let keys = Mutex<[String: P256PrivateKey]>([:])
    /// More keys than tenants on a node is a leak; past it the cache starts over.
    static let capacity = 10_000

    func key(_ pem: String) -> P256PrivateKey? {
        if let known = keys.withLock({ $0[pem] }) { return known }
        guard let key = try? P256PrivateKey(pem: pem) else { return nil }
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys = [:] }
            keys[pem] = key
        }
        return key
    }
}
