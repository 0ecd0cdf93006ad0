public import ChimeAPI
import ChimeCore
import ChimeEngine
public import ChimePostgres
public import ChimeServer
import ChimeCrypto
public import Foundation

/// Server mode's rules for one request of one tenant's key: what may be asked, what an add means for
/// each recipient (their zone dates floating calendar triggers), idempotency, and the answers. The HTTP
/// handler only maps routes to these calls; the data lives in PostgreSQL (`PostgresTenantData`,
/// `PostgresNotificationStore` per recipient, `TenantDirectory`).
///
/// Every call takes the authenticated key and touches only its tenant's rows: another tenant's recipient
/// or key is simply not found (404), never a different error that would tell it exists.
public struct TenantService: Sendable {
    public let database: PostgresDatabase
    public let directory: TenantDirectory
    /// A fire this many seconds late was missed.
    public var misfireTolerance: TimeInterval = 60

    public init(database: PostgresDatabase) {
        self.database = database
        directory = TenantDirectory(database: database)
    }

    // MARK: Adding

    /// Adds the batch, all or nothing. With `idempotencyKey`, a repeat of the same body answers as the
    /// first time and adds nothing; the same key with another body is refused.
    public func add(_ batch: RecipientBatch, key: AuthenticatedKey, idempotencyKey: String?, route: String, body: [UInt8], now: Date) async throws -> (status: Int, body: [UInt8]) {
        try require(.publish, key)
        guard (1...RecipientBatch.maximumCount).contains(batch.notifications.count) else {
            throw APIError(.invalidParameters, field: "notifications", "a batch holds 1 to \(RecipientBatch.maximumCount) notifications")
        }
        var seen = Set<String>()
        for (index, item) in batch.notifications.enumerated() {
            do {
                try TenantDirectory.checkRecipient(item.recipient)
            } catch {
                throw APIError(.invalidParameters, field: "notifications.\(index).recipient", "\(error)")
            }
            guard !item.app.isEmpty, item.app.utf8.count <= 255 else {
                throw APIError(.invalidParameters, field: "notifications.\(index).app", "an app identifier is 1 to 255 bytes")
            }
            do {
                try item.request.validateForScheduling(at: now)
            } catch {
                throw APIError(ChimeError(error.code, field: "notifications.\(index).request.\(error.field ?? "trigger")", error.message))
            }
            guard item.request.content.attachments.isEmpty else {
                throw APIError(.invalidParameters, field: "notifications.\(index).request.content.attachments", "server mode takes no attachments")
            }
            if case .location = item.request.trigger {
                throw APIError(
                    .invalidParameters, field: "notifications.\(index).request.trigger",
                    "server mode has no device positions: a location trigger would never fire")
            }
            // Within one batch a later request would replace an earlier one with the same key: refused, so
            // that what the answer lists is what is stored.
            guard seen.insert(item.recipient + "\u{0}" + item.app + "\u{0}" + item.request.identifier).inserted else {
                throw APIError(.invalidParameters, field: "notifications.\(index).request.identifier", "the batch names this recipient's request twice")
            }
        }
        let data = PostgresTenantData(database: database, tenant: key.tenant)
        let recipients = Array(Set(batch.notifications.map(\.recipient)))
        let profiles = try await data.profiles(recipients)
        let utc = TimeZone(identifier: "UTC")!
        var rows: [(recipient: String, pending: PendingRequest)] = []
        var added: [RecipientAddedItem] = []
        rows.reserveCapacity(batch.notifications.count)
        for item in batch.notifications {
            let zone = profiles[item.recipient]?.recipient.timeZone ?? utc
            let rules = FireRules(misfireTolerance: misfireTolerance, timeZone: zone)
            let next = rules.firstFireDate(of: item.request, now: now)
            rows.append((item.recipient, PendingRequest(appIdentifier: item.app, request: item.request, addedDate: now, nextFireDate: next)))
            added.append(RecipientAddedItem(recipient: item.recipient, app: item.app, identifier: item.request.identifier, nextFireDate: next))
        }
        let answerBody = Array(try RecipientAddResult(added: added).wireJSON())
        let answer = try idempotencyKey.map { IdempotentAnswer(key: try Self.checkIdempotencyKey($0), fingerprint: Digest.sha256(Array(route.utf8) + [0] + body), status: 201, body: answerBody) }
        do {
            switch try await data.add(rows, answer: answer, now: now) {
            case .written: return (201, answerBody)
            case .replayed(let status, let body): return (status, body)
            }
        } catch is IdempotencyKeyReused {
            throw APIError(.idempotencyKeyReused, field: "Idempotency-Key", "this Idempotency-Key was used for a different request")
        }
    }

    // MARK: One recipient's lists

    /// Removes some or all of a recipient's pending requests of an app.
    public func removePending(recipient: String, app: String, _ selection: RemoveSelection, key: AuthenticatedKey) async throws -> RemoveResult {
        try require(.publish, key)
        let store = try await existingRecipient(recipient, key)
        let identifiers = try NotificationService.identifiers(in: selection)
        return RemoveResult(removed: try await store.removePending(appIdentifier: app, identifiers: identifiers).count)
    }

    public func pending(recipient: String, app: String?, _ page: PageRequest, key: AuthenticatedKey) async throws -> Page<PendingItem> {
        try require(.read, key)
        let store = try await existingRecipient(recipient, key)
        let after = try page.cursor.map { cursor throws(APIError) in try ListCursor.decode(cursor, as: PendingListPosition.self) }
        let items = try await store.pendingPage(appIdentifier: app, after: after, limit: page.limit + 1)
        let shown = items.prefix(page.limit)
        let next = items.count > page.limit ? shown.last.map { ListCursor.encode(PendingListPosition($0)) } : nil
        return Page(
            items: shown.map { PendingItem(app: $0.appIdentifier, request: $0.request, nextFireDate: $0.nextFireDate) },
            total: try await store.pendingTotal(appIdentifier: app), next: next)
    }

    public func delivered(recipient: String, app: String?, _ page: PageRequest, key: AuthenticatedKey) async throws -> Page<DeliveredItem> {
        try require(.read, key)
        let store = try await existingRecipient(recipient, key)
        let after = try page.cursor.map { cursor throws(APIError) in try ListCursor.decode(cursor, as: DeliveredListPosition.self) }
        let entries = try await store.deliveredPage(appIdentifier: app, after: after, limit: page.limit + 1)
        let shown = entries.prefix(page.limit)
        let next = entries.count > page.limit ? shown.last.map { ListCursor.encode($0.position) } : nil
        return Page(
            items: shown.map { DeliveredItem(app: $0.position.appIdentifier, notification: $0.notification) },
            total: try await store.deliveredTotal(appIdentifier: app), next: next)
    }

    // MARK: Recipients

    public func recipient(_ identifier: String, key: AuthenticatedKey) async throws -> RecipientProfileBody {
        try require(.read, key)
        guard let profile = try await PostgresTenantData(database: database, tenant: key.tenant).profiles([identifier])[identifier] else {
            throw APIError(.notFound, field: "recipient", "no such recipient")
        }
        return RecipientProfileBody(
            timeZone: profile.recipient.timeZoneName, locale: profile.recipient.locale, quietHours: Self.body(of: profile.quietHours))
    }

    /// Makes or changes a recipient; their floating calendar triggers move to the new zone.
    public func saveRecipient(_ identifier: String, _ body: RecipientProfileBody, key: AuthenticatedKey, now: Date) async throws {
        try require(.publish, key)
        let quiet = try body.quietHours.map(Self.quietHours) ?? .none
        let profile = RecipientProfile(recipient: Recipient(identifier: identifier, timeZoneName: body.timeZone, locale: body.locale), quietHours: quiet)
        do {
            try await PostgresTenantData(database: database, tenant: key.tenant).saveProfile(profile, now: now)
        } catch let error as TenancyError {
            let field = switch error.kind {
            case .invalidLocale: "locale"
            case .invalidTimeZone: "timeZone"
            default: "recipient"
            }
            throw APIError(.invalidParameters, field: field, error.description)
        }
    }

    // MARK: Keys

    public func issueKey(_ body: NewAPIKey, key: AuthenticatedKey) async throws -> APIKeyBody {
        try require(.admin, key)
        var scopes = Set<APIKeyScope>()
        for (index, name) in body.scopes.enumerated() {
            guard let scope = APIKeyScope(rawValue: name) else {
                throw APIError(.invalidParameters, field: "scopes.\(index)", "a scope is publish, read or admin")
            }
            scopes.insert(scope)
        }
        do {
            let (secret, info) = try await directory.issueKey(tenant: key.tenant, name: body.name, scopes: scopes)
            return Self.body(of: info, secret: secret)
        } catch let error as TenancyError {
            throw APIError(.invalidParameters, field: error.kind == .noScopes ? "scopes" : "name", error.description)
        }
    }

    public func keys(_ key: AuthenticatedKey) async throws -> [APIKeyBody] {
        try require(.admin, key)
        return try await directory.keys(tenant: key.tenant).map { Self.body(of: $0, secret: nil) }
    }

    public func revokeKey(_ keyID: String, key: AuthenticatedKey) async throws {
        try require(.admin, key)
        guard try await directory.revokeKey(keyID, tenant: key.tenant) else { throw APIError(.notFound, field: "key", "no such key") }
    }

    // MARK: Helpers

    func require(_ scope: APIKeyScope, _ key: AuthenticatedKey) throws(APIError) {
        guard key.allows(scope) else { throw APIError(.forbidden, "this key may not \(scope.rawValue); it has \(key.scopes.map(\.rawValue).sorted())") }
    }

    /// The recipient's store, when the tenant has this recipient.
    func existingRecipient(_ identifier: String, _ key: AuthenticatedKey) async throws -> PostgresNotificationStore {
        guard try await PostgresTenantData(database: database, tenant: key.tenant).profiles([identifier])[identifier] != nil else {
            throw APIError(.notFound, field: "recipient", "no such recipient")
        }
        return PostgresNotificationStore(database: database, tenant: key.tenant, recipient: identifier)
    }

    static func checkIdempotencyKey(_ key: String) throws(APIError) -> String {
        guard (1...255).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ (0x21...0x7e).contains($0.value) }) else {
            throw APIError(.invalidParameters, field: "Idempotency-Key", "an Idempotency-Key is 1 to 255 visible ASCII characters")
        }
        return key
    }


    static func quietHours(_ body: QuietHoursBody) throws(APIError) -> QuietHours {
        func minutes(_ text: String, _ field: String) throws(APIError) -> Int {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]), let minute = Int(parts[1]),
                (0..<24).contains(hour), (0..<60).contains(minute)
            else { throw APIError(.invalidParameters, field: field, "a time of day is HH:MM, 00:00 through 23:59") }
            return hour * 60 + minute
        }
        var periods: [QuietHours.Period] = []
        for (index, period) in body.periods.enumerated() {
            periods.append(
                QuietHours.Period(
                    weekdays: Set(period.weekdays), start: try minutes(period.from, "quietHours.periods.\(index).from"),
                    end: try minutes(period.to, "quietHours.periods.\(index).to")))
        }
        do {
            return try QuietHours(periods: periods, allowsTimeSensitive: body.allowsTimeSensitive ?? true)
        } catch {
            throw APIError(.invalidParameters, field: "quietHours", error.description)
        }
    }

    static func body(of quiet: QuietHours) -> QuietHoursBody? {
        guard !quiet.periods.isEmpty else { return nil }
        func time(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
        return QuietHoursBody(
            periods: quiet.periods.map { .init(weekdays: $0.weekdays.sorted(), from: time($0.start), to: time($0.end)) },
            allowsTimeSensitive: quiet.allowsTimeSensitive)
    }

    static func body(of key: APIKeyInfo, secret: String?) -> APIKeyBody {
        APIKeyBody(id: key.keyID, name: key.name, scopes: key.scopes.map(\.rawValue).sorted(), created: key.created, revoked: key.revoked, secret: secret)
    }
}
