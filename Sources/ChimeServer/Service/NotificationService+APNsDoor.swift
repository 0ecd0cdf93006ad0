public import ChimeAPI
import ChimeCore
import ChimeCrypto
import ChimeEngine
public import Foundation
import Synchronization

// MARK: The APNs-compatible endpoint

extension NotificationService {
    /// The provider key the user's backend signs with (never the key itself).
    public func apnsKey() throws -> APNsKeySummary {
        guard let key = try doorCredentials().providerKey else {
            throw APIError(.notFound, field: "apns", "no APNs provider key was given (chime apps apns-key set)")
        }
        return APNsKeySummary(teamId: key.teamID, keyId: key.keyID)
    }

    /// Keeps the provider key `POST /3/device/{token}` checks tokens with: Apple's `.p8` file (only its
    /// public half is kept) or the public key alone, in PEM, with Apple's team and key identifiers.
    public func setAPNsKey(_ body: APNsKeyBody) throws -> APNsKeySummary {
        let credentials = try doorCredentials()
        guard APNsIdentifier.isValid(body.teamId) else {
            throw APIError(.invalidParameters, field: "teamId", "a team identifier is 10 capital letters and digits, as Apple's developer site shows it")
        }
        guard APNsIdentifier.isValid(body.keyId) else {
            throw APIError(.invalidParameters, field: "keyId", "a key identifier is 10 capital letters and digits, as Apple's developer site shows it")
        }
        guard body.key.utf8.count <= 4096, let publicKey = (try? P256PrivateKey(pem: body.key).publicKey) ?? (try? P256PublicKey(pem: body.key)) else {
            throw APIError(.invalidParameters, field: "key", "the key is the .p8 file's text (a P-256 private key) or its public key, in PEM")
        }
        try credentials.setProviderKey(.init(teamID: body.teamId, keyID: body.keyId, publicKey: publicKey))
        log.info("the APNs-compatible endpoint takes tokens of key \(body.keyId) of team \(body.teamId) from now on")
        return APNsKeySummary(teamId: body.teamId, keyId: body.keyId)
    }

    public func removeAPNsKey() throws {
        guard try doorCredentials().removeProviderKey() else {
            throw APIError(.notFound, field: "apns", "no APNs provider key was given")
        }
    }

    /// The app's device token, as `didRegisterForRemoteNotificationsWithDeviceToken` gives an iOS app:
    /// what the app's backend sends to.
    /// The app is known from then on, so a request with its token for another topic is told so.
    public func apnsDeviceToken(_ app: String) throws -> APNsDeviceToken {
        let token = try doorCredentials().deviceToken(app: app)
        try note(app)
        return APNsDeviceToken(app: app, token: token)
    }

    /// `POST /3/device/{token}` (`APNsDoor`): a token signed with the user's provider key; the device token
    /// names the app (`apns-topic` must be it); the notification is delivered at once, as if the app had
    /// added it without a trigger — on the desktop, in the web center, to subscribed browsers. An app the
    /// user did not allow gets 200 and nothing is shown, as APNs answers for an iPhone whose user turned
    /// the app's notifications off.
    public func acceptAPNsRequest(token: String, headers: [String: String], body: [UInt8], now: Date) async throws -> APNsDoorAnswer {
        let credentials = try doorCredentials()
        let reading = try await APNsDoor.read(
            token: token, headers: headers, body: body, now: now,
            owner: { team, keyID, signedBy -> String? in
                guard let key = credentials.providerKey, key.teamID == team, key.keyID == keyID, signedBy(key.publicKey) else { return nil }
                return key.keyID
            },
            device: { (_: String, token: String) -> APNsDoorDevice? in
                // The request's topic first (the usual case), then every app chimed knows.
                let given = Array(token.utf8)
                var candidates = [headers["apns-topic"] ?? ""].filter { !$0.isEmpty }
                candidates += try await allAppIdentifiers()
                for app in candidates where Digest.constantTimeEqual(Array(try credentials.deviceToken(app: app).utf8), given) {
                    return APNsDoorDevice(recipient: "", topic: app)
                }
                return nil
            })
        let (app, request, apnsID, apnsIDGiven): (String, NotificationRequest, String, Bool)
        switch reading {
        case .refused(let answer): return answer
        case .accepted(_, let device, let read, let id, let given): (app, request, apnsID, apnsIDGiven) = (device.topic, read, id, given)
        }
        if apnsIDGiven, !takenAPNsIDs.withLock({ $0.insert(apnsID) }) {
            return APNsDoorAnswer(status: 200, apnsID: apnsID)  // a repeat of one taken: added once
        }
        do {
            _ = try await add(app, AddRequests(requests: [request]))
        } catch let error as ChimeError where error.code == .notificationsNotAllowed {
            log.info("an APNs request for \(app) was taken, but the app may not notify: nothing is shown")
        } catch {
            // Not taken: the sender's repeat with the same apns-id must be tried again.
            takenAPNsIDs.withLock { $0.remove(apnsID) }
            guard let error = error as? ChimeError else { throw error }
            log.info("an APNs request for \(app) was refused: \(error.message)")
            return APNsDoorAnswer(status: 400, apnsID: apnsID, reason: "BadPayload")
        }
        return APNsDoorAnswer(status: 200, apnsID: apnsID)
    }

    private func doorCredentials() throws(APIError) -> APNsDoorCredentials {
        guard let apnsDoor else { throw APIError(.unavailable, "this daemon has no APNs-compatible endpoint") }
        return apnsDoor
    }
}

/// The last `capacity` values inserted, to tell a repeat.
struct RecentSet: Sendable {
    let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds `value`; `false` when it was there already.
    mutating func insert(_ value: String) -> Bool {
        guard members.insert(value).inserted else { return false }
        order.append(value)
        if order.count > capacity { members.remove(order.removeFirst()) }
        return true
    }

    mutating func remove(_ value: String) {
        guard members.remove(value) != nil else { return }
        order.removeAll { $0 == value }
    }
}
