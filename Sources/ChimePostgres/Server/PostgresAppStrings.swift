import ChimeCore
import Foundation
import Synchronization

/// A tenant's strings tables of one app, one per language, as an app bundle has them in its `.lproj`
/// folders: what a request's deferred localization (`titleLocalizationKey`, `localizedUserNotificationString`)
/// resolves against when it fires, in the recipient's language.
public struct PostgresAppStrings: Sendable {
    public let database: PostgresDatabase
    public let tenant: String

    /// The largest strings table kept, in bytes.
    public static let maximumTableSize = 1 << 20

    public init(database: PostgresDatabase, tenant: String) {
        self.database = database
        self.tenant = tenant
    }

    /// Keeps `body` as the app's table for `language`, replacing the one there.
    ///
    /// - Throws: `TenancyError` for a language name that is not one (`en`, `ko`, `pt-BR`, `zh-Hans`, `Base`)
    ///   or an app identifier out of bounds; `ChimeError.invalidStringsTable` for a body that is not a
    ///   strings table (UTF-8 or UTF-16) or is larger than `maximumTableSize`. Nothing is written then.
    public func save(app: String, language: String, body: [UInt8]) async throws {
        try Self.checkApp(app)
        try Self.checkLanguage(language)
        guard body.count <= Self.maximumTableSize else {
            throw ChimeError(.invalidStringsTable, field: "body", "a strings table is at most \(Self.maximumTableSize) bytes")
        }
        _ = try StringsTable(data: Data(body))
        let arguments: [PostgresValue] = [.text(tenant), .text(app), .text(language), .bytes(body)]
        try await database.transaction { db in
            try db.query(
                """
                INSERT INTO app_strings (tenant, app_id, language, body) VALUES ($1, $2, $3, $4)
                ON CONFLICT (tenant, app_id, language) DO UPDATE SET body = excluded.body, version = nextval('strings_version')
                """,
                arguments)
        }
    }

    /// Removes the app's table for `language`; whether there was one.
    public func remove(app: String, language: String) async throws -> Bool {
        let arguments: [PostgresValue] = [.text(tenant), .text(app), .text(language)]
        return try await database.transaction { db in
            try !db.query("DELETE FROM app_strings WHERE tenant = $1 AND app_id = $2 AND language = $3 RETURNING 1", arguments).isEmpty
        }
    }

    /// The app's languages with the size of each table, in language order.
    public func languages(app: String) async throws -> [(language: String, bytes: Int)] {
        let arguments: [PostgresValue] = [.text(tenant), .text(app)]
        let rows = try await database.read { db in
            try db.query("SELECT language, octet_length(body) FROM app_strings WHERE tenant = $1 AND app_id = $2 ORDER BY language", arguments)
        }
        return try rows.map { row in
            guard let language = row[0].text, let bytes = row[1].integer else { throw PostgresError.unexpectedResult("a strings table row") }
            return (language, Int(bytes))
        }
    }

    /// One app's table as kept, if there is one.
    public func table(app: String, language: String) async throws -> [UInt8]? {
        let arguments: [PostgresValue] = [.text(tenant), .text(app), .text(language)]
        return try await database.read { db in
            try db.query("SELECT body FROM app_strings WHERE tenant = $1 AND app_id = $2 AND language = $3", arguments).first?[0].bytes
        }
    }

    static func checkApp(_ app: String) throws(TenancyError) {
        guard !app.isEmpty, app.utf8.count <= 255 else { throw TenancyError(.invalidApp, "an app identifier is 1 to 255 bytes") }
    }

    /// A language as an `.lproj` folder names it: a BCP 47-like tag of letters and digits joined by `-`
    /// or `_` (`en`, `pt-BR`, `zh-Hans`, `zh_TW`), or `Base`.
    public static func checkLanguage(_ language: String) throws(TenancyError) {
        let parts = language.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard language.utf8.count <= 35, let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { throw TenancyError(.invalidLocale, "a language is a tag such as en, ko, pt-BR or zh-Hans, or Base") }
    }
}

/// The parsed strings tables of the apps a node fires for, kept between claims: an app's tables are read
/// and parsed again only when they changed (their count or highest version differs), so a burst costs one
/// small query per claim, not a parse per fire.
public final class PostgresLocalizerCache: Sendable {
    public struct App: Hashable, Sendable {
        public var tenant: String
        public var app: String
    }

    private struct Entry {
        var count: Int64
        var version: Int64
        var localizer: NotificationLocalizer
    }

    private let entries = Mutex<[App: Entry]>([:])

    public init() {}

    /// The localizers of these apps as their tables are in `db`'s transaction now; an app without tables
    /// gets none (its keys show as themselves, as on iOS).
    func localizers(for apps: Set<App>, in db: PostgresConnection) throws -> [App: NotificationLocalizer] {
        guard !apps.isEmpty else { return [:] }
        let list = Array(apps)
        let states = try db.query(
            """
            SELECT s.tenant, s.app_id, count(*), max(s.version) FROM app_strings s
            JOIN unnest($1::text[], $2::text[]) AS wanted (tenant, app_id) USING (tenant, app_id)
            GROUP BY s.tenant, s.app_id
            """,
            [.texts(list.map(\.tenant)), .texts(list.map(\.app))])
        var localizers: [App: NotificationLocalizer] = [:]
        var stale: [(App, Int64, Int64)] = []
        let known = entries.withLock { $0 }
        for row in states {
            guard let tenant = row[0].text, let app = row[1].text, let count = row[2].integer, let version = row[3].integer else {
                throw PostgresError.unexpectedResult("a strings table state")
            }
            let key = App(tenant: tenant, app: app)
            if let entry = known[key], entry.count == count, entry.version == version {
                localizers[key] = entry.localizer
            } else {
                stale.append((key, count, version))
            }
        }
        for (key, count, version) in stale {
            let rows = try db.query("SELECT language, body FROM app_strings WHERE tenant = $1 AND app_id = $2", [.text(key.tenant), .text(key.app)])
            var tables: [String: StringsTable] = [:]
            for row in rows {
                // A table was checked when it was saved; one that no longer parses is left out, not fatal.
                guard let language = row[0].text, let body = row[1].bytes, let table = try? StringsTable(data: Data(body)) else { continue }
                tables[language] = table
            }
            let localizer = NotificationLocalizer(tables: tables)
            localizers[key] = localizer
            entries.withLock { $0[key] = Entry(count: count, version: version, localizer: localizer) }
        }
        return localizers
    }
}
