import ChimeCore
public import ChimeEngine
public import Foundation

/// The first answer to a request sent with an `Idempotency-Key`, kept with a fingerprint of what was asked.
public struct IdempotentAnswer: Sendable, Hashable {
    public var key: String
    /// A digest of the request (route and body): the same key with another request is refused.
    public var fingerprint: [UInt8]
    public var status: Int
    public var body: [UInt8]

    public init(key: String, fingerprint: [UInt8], status: Int, body: [UInt8]) {
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.body = body
    }
}

/// What an add with an `Idempotency-Key` came to.
public enum IdempotentOutcome: Sendable, Hashable {
    /// Written now, with its answer kept for repeats.
    case written
    /// The key was used before for the same request: its first answer, nothing written now.
    case replayed(status: Int, body: [UInt8])
}

/// The same `Idempotency-Key` with a different request.
public struct IdempotencyKeyReused: Error, Sendable, Hashable {}

/// A recipient's profile as server mode keeps it.
public struct RecipientProfile: Sendable, Hashable {
    public var recipient: Recipient
    public var quietHours: QuietHours

    public init(recipient: Recipient, quietHours: QuietHours = .none) {
        self.recipient = recipient
        self.quietHours = quietHours
    }
}

/// Server mode's writes and reads across the recipients of one tenant: adds for many recipients in one
/// transaction (a batch of 10,000 is a few statements), recipients' profiles, and idempotency keys. The
/// per-recipient lists are `PostgresNotificationStore(database:tenant:recipient:)`.
public struct PostgresTenantData: Sendable {
    public let database: PostgresDatabase
    public let tenant: String

    /// The channel a notification is sent on when requests were added, so nodes re-plan their wake-up.
    public static let pendingChannel = "chime_pending"
    /// Recipients a tenant never described get this zone and language until it does.
    public static let defaultZone = "UTC"
    public static let defaultLocale = "en"

    public init(database: PostgresDatabase, tenant: String) {
        self.database = database
        self.tenant = tenant
    }

    /// Adds pending requests of any of the tenant's recipients, all or nothing, each replacing the
    /// recipient's request with the same app and identifier (no two of them with the same recipient, app
    /// and identifier); recipients not known yet are made with the default zone and language. With
    /// `answer`, the key is checked and kept in the same transaction: a repeat of the same request replays
    /// the first answer and writes nothing.
    ///
    /// - Throws: `IdempotencyKeyReused` when the key was used for a different request.
    public func add(_ requests: [(recipient: String, pending: PendingRequest)], answer: IdempotentAnswer?, now: Date) async throws -> IdempotentOutcome {
        let tenant = tenant
        let rows = requests.map { (tenant: tenant, recipient: $0.recipient, pending: $0.pending) }
        // The records are encoded on another thread while the transaction deletes the old keys.
        let encoded = BackgroundResult {
            let columns = try PendingColumns(rows)
            return (columns: columns, copy: columns.binaryCopy())
        }
        let keys = PendingColumns.keys(rows)
        let recipients = Array(Set(requests.map(\.recipient))).sorted()
        return try await database.transaction { db in
            if let answer {
                let inserted = try db.query(
                    """
                    INSERT INTO idempotency (tenant, key, fingerprint, status, body, created) VALUES ($1, $2, $3, $4, $5, $6)
                    ON CONFLICT (tenant, key) DO NOTHING RETURNING 1
                    """,
                    [.text(tenant), .text(answer.key), .bytes(answer.fingerprint), .integer(Int64(answer.status)), .bytes(answer.body), .date(now)])
                if inserted.isEmpty {
                    guard let first = try db.query("SELECT fingerprint, status, body FROM idempotency WHERE tenant = $1 AND key = $2", [.text(tenant), .text(answer.key)]).first,
                        let fingerprint = first[0].bytes, let status = first[1].integer, let body = first[2].bytes
                    else { throw PostgresError.unexpectedResult("an idempotency key that was there and is not") }
                    guard fingerprint == answer.fingerprint else { throw IdempotencyKeyReused() }
                    return .replayed(status: Int(status), body: body)
                }
            }
            try db.query(
                """
                INSERT INTO recipient (tenant, recipient_id, time_zone, locale)
                SELECT $1, unnest($2::text[]), $3, $4 ON CONFLICT DO NOTHING
                """,
                [.text(tenant), .texts(recipients), .text(Self.defaultZone), .text(Self.defaultLocale)])
            try PostgresNotificationStore.replacePending(keys: keys, encoded: encoded.value, in: db)
            try db.query("SELECT pg_notify('\(Self.pendingChannel)', '')")
            return .written
        }
    }

    /// The profiles of these recipients that exist.
    ///
    /// One primary-key probe per identifier, whatever the table's statistics say. The plain form
    /// (`recipient_id = ANY($2)`) is planned from them: just after a tenant's recipients were written in bulk,
    /// before autovacuum's `ANALYZE`, PostgreSQL takes the table for the few rows it last saw, matches the
    /// tenant in the index and filters every one of its recipients by the array — 30 ms for one profile among
    /// 100,000, 1.8 s for 1,429, against 0.04 and 5 ms this way. The `LIMIT 1` keeps the subquery from being
    /// merged into a join the planner would again choose by the statistics.
    public func profiles(_ identifiers: [String]) async throws -> [String: RecipientProfile] {
        let arguments: [PostgresValue] = [.text(tenant), .texts(identifiers)]
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT r.recipient_id, r.time_zone, r.locale, r.quiet_hours FROM unnest($2::text[]) AS wanted (id),
                    LATERAL (SELECT * FROM recipient WHERE tenant = $1 AND recipient_id = wanted.id LIMIT 1) AS r
                """, arguments)
        }
        var profiles: [String: RecipientProfile] = [:]
        for row in rows {
            guard let identifier = row[0].text, let zoneName = row[1].text, let locale = row[2].text else { throw PostgresError.unexpectedResult("a recipient row") }
            let (_, quiet, _) = PostgresFireClaimer.profile(zone: zoneName, quietHours: row[3].text, locale: locale)
            profiles[identifier] = RecipientProfile(recipient: Recipient(identifier: identifier, timeZoneName: zoneName, locale: locale), quietHours: quiet)
        }
        return profiles
    }

    /// Makes or changes a recipient's profile, and moves their calendar triggers without a zone of their
    /// own to the new zone (`FireRules.refloatedFireDate`), in one transaction.
    ///
    /// - Throws: `TenancyError` for an identifier, language or zone that breaks its rule, or a tenant that
    ///   does not exist; nothing is written then.
    public func saveProfile(_ profile: RecipientProfile, now: Date) async throws {
        let recipient = profile.recipient
        try TenantDirectory.checkRecipient(recipient.identifier)
        try TenantDirectory.checkLocale(recipient.locale)
        try TenantDirectory.checkTimeZone(recipient.timeZoneName)
        let rules = FireRules(timeZone: recipient.timeZone)
        let quiet = String(decoding: try JSONEncoder().encode(profile.quietHours), as: UTF8.self)
        let tenant = tenant
        let scope: [PostgresValue] = [.text(tenant), .text(recipient.identifier)]
        let arguments: [PostgresValue] = scope + [.text(recipient.timeZoneName), .text(recipient.locale), .text(quiet)]
        try await database.transaction { db in
            guard try !db.query("SELECT 1 FROM tenant WHERE tenant = $1 FOR SHARE", [.text(tenant)]).isEmpty else {
                throw TenancyError(.unknownTenant, "no tenant named \(tenant)")
            }
            try db.query(
                """
                INSERT INTO recipient (tenant, recipient_id, time_zone, locale, quiet_hours) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (tenant, recipient_id) DO UPDATE SET
                    time_zone = excluded.time_zone, locale = excluded.locale, quiet_hours = excluded.quiet_hours
                """,
                arguments)
            let floating = try db.query(
                "\(PostgresNotificationStore.selectPending) WHERE tenant = $1 AND recipient = $2 AND floating_calendar FOR UPDATE", scope)
            let requests = try floating.map(PostgresNotificationStore.pendingRequest)
            guard !requests.isEmpty else { return }
            try db.query(
                """
                UPDATE pending SET next_fire = changed.next_fire
                FROM unnest($3::text[], $4::text[], $5::float8[]) AS changed (app_id, request_id, next_fire)
                WHERE pending.tenant = $1 AND pending.recipient = $2 AND pending.app_id = changed.app_id AND pending.request_id = changed.request_id
                """,
                scope + [
                    .texts(requests.map(\.appIdentifier)), .texts(requests.map(\.request.identifier)),
                    .array(.double, requests.map { .date(rules.refloatedFireDate(of: $0, now: now)) }),
                ])
            try db.query("SELECT pg_notify('\(Self.pendingChannel)', '')")
        }
    }
}
