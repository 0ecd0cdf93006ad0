public import ChimeAPI
import ChimeCore
public import ChimePostgres
public import ChimeServer
public import Foundation

// MARK: Responses

extension TenantService {
    /// The longest reply text kept, in bytes.
    static let maximumReplySize = 4_096

    /// Records what a recipient did with a delivered notification (reported by their device or the
    /// tenant's backend): the notification leaves their delivered list, as acting on it does on iOS, and
    /// the response is kept and streamed as a `responded` event.
    ///
    /// The categories that decide which buttons a notification offers live in the app on the recipient's
    /// device (as with APNs), so server mode takes the action the device reports: any identifier but
    /// Apple's two reserved ones, text only with an action. A dismissal is recorded too — the tenant's
    /// backend is the app here, and a device reports dismissals only for categories that ask
    /// (`customDismissAction`).
    public func respond(recipient: String, app: String, notification: String, _ action: WireUserAction, key: AuthenticatedKey, now: Date) async throws -> RecipientResponseItem {
        try require(.publish, key)
        _ = try await existingRecipient(recipient, key)
        let respond: @Sendable (DeliveredNotification) throws -> NotificationResponse = { delivered in
            do {
                switch action {
                case .open: return .defaultAction(for: delivered)
                case .dismiss: return .dismiss(for: delivered)
                case .action(let identifier):
                    try Self.checkAction(identifier)
                    return try .action(identifier, for: delivered)
                case .reply(let identifier, let text):
                    try Self.checkAction(identifier)
                    guard text.utf8.count <= Self.maximumReplySize else {
                        throw APIError(.invalidParameters, field: "text", "a reply is at most \(Self.maximumReplySize) bytes")
                    }
                    return try .textInput(text, action: identifier, for: delivered)
                }
            } catch let error as ChimeError {
                throw APIError(.invalidParameters, field: "action", error.message)
            }
        }
        let recorded = try await PostgresResponses(database: database, tenant: key.tenant).record(
            recipient: recipient, app: app, notificationIdentifier: notification, now: now, respond: respond,
            encodeEvent: { Array(try WireFormat.encoder().encode(Self.item($0))) }, encodeDelivery: Self.encodeDelivery)
        guard let recorded else { throw APIError(.notFound, field: "notification", "the recipient has no such delivered notification") }
        return Self.item(recorded)
    }

    /// A recipient's responses, newest first.
    public func responses(recipient: String, app: String?, _ page: PageRequest, key: AuthenticatedKey) async throws -> Page<RecipientResponseItem> {
        try require(.read, key)
        _ = try await existingRecipient(recipient, key)
        let before = try page.cursor.map { cursor throws(APIError) in try ListCursor.decode(cursor, as: ResponseListPosition.self).sequence }
        let responses = PostgresResponses(database: database, tenant: key.tenant)
        let items = try await responses.page(recipient: recipient, app: app, before: before, limit: page.limit + 1)
        let shown = items.prefix(page.limit)
        let next = items.count > page.limit ? shown.last.map { ListCursor.encode(ResponseListPosition(sequence: $0.sequence)) } : nil
        return Page(items: shown.map(Self.item), total: try await responses.count(recipient: recipient, app: app), next: next)
    }

    static func checkAction(_ identifier: String) throws(APIError) {
        guard !identifier.isEmpty, identifier.utf8.count <= 255,
            identifier != NotificationResponse.defaultActionIdentifier, identifier != NotificationResponse.dismissActionIdentifier
        else {
            throw APIError(.invalidParameters, field: "action", "an action identifier is 1 to 255 bytes and not one of Apple's reserved two (use open or dismiss)")
        }
    }

    static func item(_ recorded: RecordedResponse) -> RecipientResponseItem {
        RecipientResponseItem(
            sequence: recorded.sequence, recipient: recorded.recipient, app: recorded.appIdentifier, date: recorded.date, response: recorded.response)
    }
}

/// Where a page of responses ended.
struct ResponseListPosition: Codable {
    var sequence: Int64
}

// MARK: Apps' strings tables

extension TenantService {
    /// Keeps a strings table (a `Localizable.strings` file, UTF-8 or UTF-16) for one of the tenant's apps
    /// and language; fires resolve their deferred localization against it in each recipient's language.
    public func saveStrings(app: String, language: String, body: [UInt8], key: AuthenticatedKey) async throws {
        try require(.admin, key)
        do {
            try await PostgresAppStrings(database: database, tenant: key.tenant).save(app: app, language: language, body: body)
        } catch let error as TenancyError {
            throw APIError(.invalidParameters, field: error.kind == .invalidApp ? "app" : "language", error.description)
        } catch let error as ChimeError {
            throw APIError(.invalidParameters, field: "body", [error.field, error.message].compactMap { $0 }.joined(separator: ": "))
        }
    }

    public func strings(app: String, key: AuthenticatedKey) async throws -> AppStringsList {
        try require(.read, key)
        let tables = try await PostgresAppStrings(database: database, tenant: key.tenant).languages(app: app)
        return AppStringsList(tables: tables.map { AppStringsList.Table(language: $0.language, bytes: $0.bytes) })
    }

    public func stringsTable(app: String, language: String, key: AuthenticatedKey) async throws -> [UInt8] {
        try require(.read, key)
        guard let body = try await PostgresAppStrings(database: database, tenant: key.tenant).table(app: app, language: language) else {
            throw APIError(.notFound, field: "language", "the app has no strings table for this language")
        }
        return body
    }

    public func removeStrings(app: String, language: String, key: AuthenticatedKey) async throws {
        try require(.admin, key)
        guard try await PostgresAppStrings(database: database, tenant: key.tenant).remove(app: app, language: language) else {
            throw APIError(.notFound, field: "language", "the app has no strings table for this language")
        }
    }
}
