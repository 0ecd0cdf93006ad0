public import ChimeAPI
import ChimeCore
import ChimeCrypto
import ChimeDelivery
public import ChimePostgres
public import ChimeServer
public import Foundation

// MARK: Deliveries beyond the machine

extension TenantService {
    /// A recipient's deliveries, newest first.
    public func deliveries(recipient: String, _ page: PageRequest, key: AuthenticatedKey) async throws -> Page<DeliveryItem> {
        try require(.read, key)
        _ = try await existingRecipient(recipient, key)
        let before = try page.cursor.map { cursor throws(APIError) -> Int64 in
            guard let id = Int64(cursor), id > 0 else { throw APIError(.invalidParameters, field: "cursor", "this is not a cursor of this list") }
            return id
        }
        let ledger = PostgresDeliveries(database: database)
        let records = try await ledger.list(tenant: key.tenant, recipient: recipient, before: before, limit: page.limit + 1)
        let shown = records.prefix(page.limit)
        return Page(
            items: shown.map(Self.item), total: try await ledger.count(tenant: key.tenant, recipient: recipient),
            next: records.count > page.limit ? shown.last.map { String($0.id) } : nil)
    }

    /// Records what became of a delivery at the recipient (their app or service worker told the tenant's
    /// backend, which tells Chime): it moves the ledger forward only — delivered, seen, then acted or
    /// dismissed — and a report that would move it back changes nothing. A response for the notification
    /// records `acted` or `dismissed` by itself.
    public func reportOutcome(_ identifier: String, _ body: DeliveryOutcomeBody, key: AuthenticatedKey, now: Date) async throws -> DeliveryItem {
        try require(.publish, key)
        guard let outcome = DeliveryOutcome(rawValue: body.outcome) else {
            throw APIError(.invalidParameters, field: "outcome", "an outcome is delivered, seen, acted or dismissed")
        }
        guard let id = Int64(identifier), id > 0,
            let record = try await PostgresDeliveries(database: database).report(outcome, tenant: key.tenant, id: id, now: now, event: Self.encodeDelivery)
        else { throw APIError(.notFound, field: "delivery", "the tenant has no delivery with this id") }
        return Self.item(record)
    }

    /// Sends a finished delivery again, from its first attempt.
    public func replayDelivery(_ identifier: String, key: AuthenticatedKey, now: Date) async throws {
        try require(.publish, key)
        guard let id = Int64(identifier), try await PostgresDeliveries(database: database).replay(tenant: key.tenant, id: id, now: now) else {
            throw APIError(.notFound, field: "delivery", "no finished delivery with this id (one still under way is not replayed)")
        }
    }

    public func settings(key: AuthenticatedKey) async throws -> TenantSettingsBody {
        try require(.read, key)
        let ledger = PostgresDeliveries(database: database)
        return TenantSettingsBody(
            outboundAllowList: try await ledger.allowList(tenant: key.tenant),
            apns: try await ledger.apnsKey(tenant: key.tenant).map { APNsKeySummary(teamId: $0.teamID, keyId: $0.keyID) })
    }

    public func apnsKey(key: AuthenticatedKey) async throws -> APNsKeySummary {
        try require(.read, key)
        guard let record = try await PostgresDeliveries(database: database).apnsKey(tenant: key.tenant) else {
            throw APIError(.notFound, field: "apns", "the tenant has given no APNs provider key")
        }
        return APNsKeySummary(teamId: record.teamID, keyId: record.keyID)
    }

    /// Keeps the tenant's APNs provider key, with which every node signs the provider tokens for its APNs
    /// devices; the key must be a P-256 key in PEM (Apple's `.p8` file) and the identifiers Apple's form.
    public func saveAPNsKey(_ body: APNsKeyBody, key: AuthenticatedKey) async throws -> APNsKeySummary {
        try require(.admin, key)
        guard APNsIdentifier.isValid(body.teamId) else {
            throw APIError(.invalidParameters, field: "teamId", "a team identifier is 10 capital letters and digits, as Apple's developer site shows it")
        }
        guard APNsIdentifier.isValid(body.keyId) else {
            throw APIError(.invalidParameters, field: "keyId", "a key identifier is 10 capital letters and digits, as Apple's developer site shows it")
        }
        let parsed: P256PrivateKey
        do {
            parsed = try P256PrivateKey(pem: body.key)
        } catch {
            throw APIError(.invalidParameters, field: "key", "the key is the .p8 file's text: a P-256 private key in PEM (\(error.description))")
        }
        // Kept in PKCS#8 as parsed, whatever form it came in.
        try await PostgresDeliveries(database: database).setAPNsKey(
            tenant: key.tenant, APNsKeyRecord(teamID: body.teamId, keyID: body.keyId, pem: parsed.pem))
        return APNsKeySummary(teamId: body.teamId, keyId: body.keyId)
    }

    /// The tenant's VAPID public key (made the first time it is asked for) and contact: what its pages
    /// subscribe browsers with.
    public func webPushSettings(key: AuthenticatedKey) async throws -> WebPushSettingsBody {
        try require(.read, key)
        guard let record = try await PostgresDeliveries(database: database).vapidKey(tenant: key.tenant, make: { P256PrivateKey.generate().pem }),
            let pair = try? P256PrivateKey(pem: record.pem)
        else { throw APIError(.internalError, "the tenant's VAPID key could not be read") }
        return WebPushSettingsBody(applicationServerKey: VAPID(key: pair).applicationServerKey, subject: record.subject)
    }

    /// Sets the contact push services see (VAPID's `sub`): `mailto:` or `https:`; none when absent.
    public func saveWebPushSettings(_ body: WebPushSettingsBody, key: AuthenticatedKey) async throws -> WebPushSettingsBody {
        try require(.admin, key)
        if let subject = body.subject {
            let scheme = subject.hasPrefix("mailto:") || subject.hasPrefix("https://")
            guard scheme, subject.utf8.count <= WebPushSettingsBody.maximumSubjectLength,
                !subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
            else {
                throw APIError(
                    .invalidParameters, field: "subject",
                    "the contact is a mailto: or https: URL of at most \(WebPushSettingsBody.maximumSubjectLength) bytes, without spaces")
            }
        }
        try await PostgresDeliveries(database: database).setVAPIDSubject(tenant: key.tenant, body.subject)
        return try await webPushSettings(key: key)
    }

    /// The webhook the tenant's ledger is POSTed to (without its secret).
    public func ledgerWebhook(key: AuthenticatedKey) async throws -> WebhookAddress {
        try require(.read, key)
        guard let webhook = try await PostgresDeliveries(database: database).ledgerWebhook(tenant: key.tenant) else {
            throw APIError(.notFound, field: "ledgerWebhook", "the tenant has no ledger webhook")
        }
        return WebhookAddress(url: webhook.url)
    }

    /// Sets the webhook every change of a delivery's state is POSTed to, signed as the recipients' webhooks
    /// are; the answer shows the secret when Chime made it (none given, none kept before).
    public func saveLedgerWebhook(_ body: WebhookAddress, key: AuthenticatedKey) async throws -> WebhookAddress {
        try require(.admin, key)
        do {
            _ = try Device.Channel.webhook(url: body.url).checked()
        } catch {
            throw APIError(.invalidParameters, field: "url", error.description.replacingOccurrences(of: "webhook.url", with: "url"))
        }
        if let secret = body.secret, WebhookSecret(secret) == nil {
            throw APIError(.invalidParameters, field: "secret", "a webhook secret is whsec_ and 24 to 64 bytes in base64")
        }
        let ledger = PostgresDeliveries(database: database)
        let kept = try await ledger.ledgerWebhook(tenant: key.tenant)?.secret
        let made = body.secret == nil && kept == nil ? WebhookSecret.generate().description : nil
        guard let secret = body.secret ?? kept ?? made else { throw APIError(.internalError, "no secret") }
        try await ledger.setLedgerWebhook(tenant: key.tenant, (body.url, secret))
        return WebhookAddress(url: body.url, secret: made)
    }

    public func removeLedgerWebhook(key: AuthenticatedKey) async throws {
        try require(.admin, key)
        let ledger = PostgresDeliveries(database: database)
        guard try await ledger.ledgerWebhook(tenant: key.tenant) != nil else {
            throw APIError(.notFound, field: "ledgerWebhook", "the tenant has no ledger webhook")
        }
        try await ledger.setLedgerWebhook(tenant: key.tenant, nil)
    }

    public func removeAPNsKey(key: AuthenticatedKey) async throws {
        try require(.admin, key)
        let ledger = PostgresDeliveries(database: database)
        guard try await ledger.apnsKey(tenant: key.tenant) != nil else {
            throw APIError(.notFound, field: "apns", "the tenant has given no APNs provider key")
        }
        try await ledger.setAPNsKey(tenant: key.tenant, nil)
    }

    /// Replaces the tenant's settings; each network is checked, and kept in its canonical form.
    public func saveSettings(_ body: TenantSettingsBody, key: AuthenticatedKey) async throws -> TenantSettingsBody {
        try require(.admin, key)
        guard body.outboundAllowList.count <= TenantSettingsBody.maximumAllowListCount else {
            throw APIError(.invalidParameters, field: "outboundAllowList", "at most \(TenantSettingsBody.maximumAllowListCount) networks")
        }
        var networks: [String] = []
        for (index, text) in body.outboundAllowList.enumerated() {
            guard let network = IPNetwork(text) else {
                throw APIError(.invalidParameters, field: "outboundAllowList.\(index)", "a network is an address or CIDR (10.0.0.0/8, fd00::/8)")
            }
            guard OutboundAddressPolicy.tenantMayOpen(network) else {
                throw APIError(
                    .invalidParameters, field: "outboundAllowList.\(index)",
                    "a tenant may open private networks only (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, fc00::/7); loopback, link-local and the rest only the node's operator can (chimed --webhook-allow)")
            }
            networks.append(network.description)
        }
        try await PostgresDeliveries(database: database).setAllowList(tenant: key.tenant, networks)
        return try await settings(key: key)
    }

    static func item(_ record: DeliveryRecord) -> DeliveryItem {
        DeliveryItem(
            id: String(record.id), recipient: record.recipient, device: record.deviceID, channel: record.channel, app: record.appIdentifier, notification: record.notificationIdentifier,
            state: record.state, attempts: record.attempts, nextAttempt: record.nextAttempt, lastStatus: record.lastStatus, lastError: record.lastError,
            created: record.created, updated: record.updated, outcome: record.outcome?.rawValue, outcomeAt: record.outcomeAt)
    }

    /// A delivery's ledger entry as the tenant's event stream and ledger webhook carry it.
    static let encodeDelivery: @Sendable (DeliveryRecord) throws -> [UInt8] = { Array(try WireFormat.encoder().encode(item($0))) }
}
