public import ChimeAPI
import ChimeCore
import ChimeCrypto
import ChimeDelivery
public import ChimePostgres
public import ChimeServer
public import Foundation

// MARK: The APNs-compatible endpoint

extension TenantService {
    /// Tenants' provider keys as parsed, so a request costs a signature check, not a key's parsing.
    static let providerKeys = PrivateKeyCache()

    /// `POST /3/device/{token}` (`APNsDoor`): the provider token (ES256, signed with the key the tenant gave
    /// in `PUT /v1/settings/apns`) names the tenant; the device token names the recipient who registered it;
    /// the request is delivered to the recipient at once, on every channel (their stream, webhooks,
    /// browsers and the APNs device itself). An `apns-id` makes a repeat of the same request (after a lost
    /// answer) add nothing.
    public func acceptAPNsRequest(token: String, headers: [String: String], body: [UInt8], now: Date) async throws -> APNsDoorAnswer {
        let door = PostgresAPNsDoor(database: database)
        let reading = try await APNsDoor.read(
            token: token, headers: headers, body: body, now: now,
            owner: { team, keyID, signedBy in
                // Identifiers are the tenants' to type, so several may share them: the signature tells.
                for candidate in try await door.tenants(team: team, keyID: keyID) {
                    if let key = Self.providerKeys.key(candidate.pem), signedBy(key.publicKey) { return (tenant: candidate.tenant, keyID: keyID) }
                }
                return nil
            },
            device: { owner, token in
                try await door.device(tenant: owner.tenant, token: token).map {
                    APNsDoorDevice(recipient: $0.recipient, topic: $0.topic, enabled: $0.enabled, disabled: $0.disabled)
                }
            })
        let (owner, device, request, apnsID, apnsIDGiven): ((tenant: String, keyID: String), APNsDoorDevice, NotificationRequest, String, Bool)
        switch reading {
        case .refused(let answer): return answer
        case .accepted(let found, let named, let read, let id, let given): (owner, device, request, apnsID, apnsIDGiven) = (found, named, read, id, given)
        }
        let batch = RecipientBatch(notifications: [RecipientRequest(recipient: device.recipient, app: device.topic, request: request)])
        let key = AuthenticatedKey(keyID: "apns:\(owner.keyID)", tenant: owner.tenant, scopes: [.publish])
        do {
            _ = try await add(
                batch, key: key, idempotencyKey: apnsIDGiven ? "apns:\(apnsID)" : nil, route: "POST /3/device/\(token.lowercased())", body: body, now: now)
        } catch let error as APIError where error.apiCode == .idempotencyKeyReused || error.apiCode == .invalidParameters {
            return APNsDoorAnswer(status: 400, apnsID: apnsID, reason: "BadPayload")
        }
        return APNsDoorAnswer(status: 200, apnsID: apnsID)
    }
}
