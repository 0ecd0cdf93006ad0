import Foundation

/// Server mode's directory: tenants, their API keys, their recipients.
///
/// API keys are bearer secrets of 192 random bits (`chime_<key id>_<secret>`). Only their SHA-256 is
/// stored — a fast hash is the right one for a random secret of that size (nothing to brute-force, unlike a
/// password) — so a copy of the database authenticates nobody. A key is looked up by that hash, so a key's
/// secret is never compared byte by byte in Chime's code.
///
/// ```swift
/// let directory = TenantDirectory(database: database)
/// try await directory.createTenant("acme", name: "Acme Inc.")
/// let (secret, key) = try await directory.issueKey(tenant: "acme", name: "backend", scopes: [.publish, .read])
/// let caller = try await directory.authenticate(secret)   // AuthenticatedKey(tenant: "acme", …)
/// ```
public struct TenantDirectory: Sendable {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    // MARK: Tenants

    /// Creates a tenant: an identifier of 1–63 lowercase letters, digits and hyphens, starting with a
    /// letter or digit (it appears in URLs and logs), and a display name.
    public func createTenant(_ tenant: String, name: String) async throws {
        try Self.checkTenant(tenant)
        try Self.checkName(name)
        let created = try await database.transaction { db in
            try db.query("INSERT INTO tenant (tenant, name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING tenant", [.text(tenant), .text(name)])
        }
        if created.isEmpty { throw TenancyError(.tenantExists, "a tenant named \(tenant) exists") }
    }

    /// Every tenant's identifier and name, by identifier.
    public func tenants() async throws -> [(tenant: String, name: String)] {
        try await database.read { db in try db.query("SELECT tenant, name FROM tenant ORDER BY tenant") }.map { row in
            guard let tenant = row[0].text, let name = row[1].text else { throw PostgresError.unexpectedResult("a tenant") }
            return (tenant, name)
        }
    }

    // MARK: API keys

    /// Makes a key for the tenant; returns its secret, which nothing can show again, and the key as listed.
    public func issueKey(tenant: String, name: String, scopes: Set<APIKeyScope>) async throws -> (secret: String, key: APIKeyInfo) {
        try Self.checkName(name)
        guard !scopes.isEmpty else { throw TenancyError(.noScopes, "a key needs at least one scope (publish, read, admin)") }
        var generator = SystemRandomNumberGenerator()
        let keyID = Self.base32((0..<5).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let secret = "chime_\(keyID)_" + Self.base32((0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let scopeNames = scopes.map(\.rawValue).sorted()
        let rows = try await database.transaction { db in
            guard try !db.query("SELECT 1 FROM tenant WHERE tenant = $1", [.text(tenant)]).isEmpty else {
                throw TenancyError(.unknownTenant, "no tenant named \(tenant)")
            }
            return try db.query(
                """
                INSERT INTO api_key (key_id, tenant, secret_hash, name, scopes) VALUES ($1, $2, sha256(convert_to($3, 'UTF8')), $4, $5)
                RETURNING extract(epoch FROM created)::float8
                """,
                [.text(keyID), .text(tenant), .text(secret), .text(name), .texts(scopeNames)])
        }
        guard case .double(let created) = rows.first?.first else { throw PostgresError.unexpectedResult("a key's creation time") }
        return (secret, APIKeyInfo(keyID: keyID, tenant: tenant, name: name, scopes: scopes, created: Date(timeIntervalSince1970: created)))
    }

    /// The key a secret belongs to, if it is one and not revoked.
    public func authenticate(_ secret: String) async throws -> AuthenticatedKey? {
        // A secret of another shape is no key: answered without asking the database.
        guard secret.hasPrefix("chime_"), secret.utf8.count <= 128 else { return nil }
        let rows = try await database.read { db in
            try db.query(
                "SELECT key_id, tenant, array_to_string(scopes, ',') FROM api_key WHERE secret_hash = sha256(convert_to($1, 'UTF8')) AND revoked IS NULL",
                [.text(secret)])
        }
        guard let row = rows.first else { return nil }
        guard let keyID = row[0].text, let tenant = row[1].text, let scopes = row[2].text else { throw PostgresError.unexpectedResult("a key") }
        return AuthenticatedKey(keyID: keyID, tenant: tenant, scopes: Set(scopes.split(separator: ",").compactMap { APIKeyScope(rawValue: String($0)) }))
    }

    /// The tenant's keys, oldest first, revoked ones included (with their date).
    public func keys(tenant: String) async throws -> [APIKeyInfo] {
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT key_id, name, array_to_string(scopes, ','), extract(epoch FROM created)::float8, extract(epoch FROM revoked)::float8
                FROM api_key WHERE tenant = $1 ORDER BY created, key_id
                """,
                [.text(tenant)])
        }
        return try rows.map { row in
            guard let keyID = row[0].text, let name = row[1].text, let scopes = row[2].text, case .double(let created) = row[3] else {
                throw PostgresError.unexpectedResult("a key")
            }
            var revoked: Date?
            if case .double(let seconds) = row[4] { revoked = Date(timeIntervalSince1970: seconds) }
            return APIKeyInfo(
                keyID: keyID, tenant: tenant, name: name, scopes: Set(scopes.split(separator: ",").compactMap { APIKeyScope(rawValue: String($0)) }),
                created: Date(timeIntervalSince1970: created), revoked: revoked)
        }
    }

    /// Revokes one of the tenant's keys; returns whether it was a live key of that tenant (a key of
    /// another tenant is not touched).
    @discardableResult
    public func revokeKey(_ keyID: String, tenant: String) async throws -> Bool {
        try await !database.transaction { db in
            try db.query(
                "UPDATE api_key SET revoked = now() WHERE key_id = $1 AND tenant = $2 AND revoked IS NULL RETURNING key_id", [.text(keyID), .text(tenant)])
        }.isEmpty
    }

    // MARK: Rules

    static func checkTenant(_ tenant: String) throws {
        let allowed = tenant.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        guard (1...63).contains(tenant.utf8.count), allowed, tenant.utf8.first != 0x2D else {
            throw TenancyError(.invalidTenant, "a tenant identifier is 1–63 lowercase letters, digits and hyphens, not starting with a hyphen")
        }
    }

    public static func checkRecipient(_ identifier: String) throws {
        guard (1...256).contains(identifier.utf8.count), !identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw TenancyError(.invalidRecipient, "a recipient identifier is 1–256 bytes of text without control characters")
        }
    }

    static func checkName(_ name: String) throws {
        guard (1...200).contains(name.utf8.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw TenancyError(.invalidName, "a name is 1–200 bytes of text without control characters")
        }
    }

    /// A BCP 47 tag in its common shape: a 2–3 letter language, then subtags of 2–8 letters or digits.
    /// A zone of the tz database (not a fixed offset), so the recipient's clock follows its rules.
    /// A zone of the tz database by its name (`Asia/Seoul`, `Etc/UTC`, `UTC`), exactly as the system
    /// names it: not an offset Foundation makes up a zone for (`GMT+0900`; the tz database's own
    /// `Etc/GMT-9` is one), nor a name in another case.
    public static func checkTimeZone(_ name: String) throws {
        let madeUpOffset = name.hasPrefix("GMT+") || name.hasPrefix("GMT-")
        guard name == "UTC" || (!madeUpOffset && TimeZone(identifier: name)?.identifier == name) else {
            throw TenancyError(.invalidTimeZone, "\(name) is not a time zone of the tz database (an IANA name such as Asia/Seoul)")
        }
    }

    public static func checkLocale(_ locale: String) throws {
        let subtags = locale.split(separator: "-", omittingEmptySubsequences: false)
        let isAlphanumeric = { (part: Substring) in part.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) } }
        guard let language = subtags.first, (2...3).contains(language.count), language.utf8.allSatisfy({ (0x61...0x7A).contains($0 | 0x20) }),
            subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && isAlphanumeric($0) })
        else {
            throw TenancyError(.invalidLocale, "\(locale) is not a language tag such as ko-KR or en")
        }
    }

    /// Lowercase RFC 4648 base32 without padding: letters and digits only, so a secret survives being
    /// double-clicked, put in a URL or a shell.
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var text = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }
}
