@testable import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Tenants, API keys and recipients in the shared test database.
@Suite("PostgreSQL: tenant directory")
struct TenantDirectoryTests {
    static func directory() async throws -> TenantDirectory {
        TenantDirectory(database: try await PostgresTestDatabase.database())
    }

    static func newTenant(_ directory: TenantDirectory, _ label: String) async throws -> String {
        let tenant = "\(label)-\(UUID().uuidString.prefix(8).lowercased())"
        try await directory.createTenant(tenant, name: "Tenant \(label)")
        return tenant
    }

    @Test func aKeyAuthenticatesItsTenantWithItsScopesUntilRevoked() async throws {
        let directory = try await Self.directory()
        let acme = try await Self.newTenant(directory, "acme")
        let other = try await Self.newTenant(directory, "other")
        let (secret, key) = try await directory.issueKey(tenant: acme, name: "backend", scopes: [.publish, .read])
        let (otherSecret, _) = try await directory.issueKey(tenant: other, name: "admin", scopes: [.admin])
        #expect(secret.hasPrefix("chime_\(key.keyID)_"))
        #expect(secret.count > 40 && secret.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" })

        let caller = try #require(try await directory.authenticate(secret))
        #expect(caller.tenant == acme && caller.keyID == key.keyID && caller.scopes == [.publish, .read])
        #expect(caller.allows(.publish) && caller.allows(.read) && !caller.allows(.admin))
        let admin = try #require(try await directory.authenticate(otherSecret))
        #expect(admin.tenant == other && admin.allows(.publish) && admin.allows(.read) && admin.allows(.admin))

        // Near misses authenticate nothing.
        for forged in [String(secret.dropLast()), secret + "a", secret.uppercased(), "chime_\(key.keyID)_", "", "Bearer \(secret)"] {
            #expect(try await directory.authenticate(forged) == nil, "\(forged)")
        }

        // Revoking is the tenant's own business: another tenant cannot revoke it.
        #expect(try await directory.revokeKey(key.keyID, tenant: other) == false)
        #expect(try await directory.authenticate(secret) != nil)
        #expect(try await directory.revokeKey(key.keyID, tenant: acme))
        #expect(try await directory.authenticate(secret) == nil)
        #expect(try await directory.revokeKey(key.keyID, tenant: acme) == false, "already revoked")
        let listed = try await directory.keys(tenant: acme)
        #expect(listed.map(\.keyID) == [key.keyID] && listed.first?.revoked != nil && listed.first?.name == "backend")
    }

    @Test func theDatabaseKeepsNoSecret() async throws {
        let directory = try await Self.directory()
        let tenant = try await Self.newTenant(directory, "leak")
        let (secret, key) = try await directory.issueKey(tenant: tenant, name: "ci", scopes: [.read])
        let cluster = try await PostgresCluster.shared()
        let conninfo = try await PostgresTestDatabase.conninfo()
        let database = String(conninfo.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7) ?? "")
        let row = try await cluster.psql("SELECT api_key::text FROM api_key WHERE key_id = '\(key.keyID)'", database: database)
        #expect(row.contains(key.keyID))
        #expect(!row.contains(String(secret.dropFirst("chime_\(key.keyID)_".count))), "the secret part is not stored")
    }

    @Test func malformedTenantsKeysAndRecipientsAreRefusedWithTheirRule() async throws {
        let directory = try await Self.directory()
        for bad in ["", "Acme", "-acme", "a b", "ac/me", String(repeating: "a", count: 64), "acmé"] {
            await #expect(throws: TenancyError.self, "\(bad)") { try await directory.createTenant(bad, name: "x") }
        }
        let tenant = try await Self.newTenant(directory, "rules")
        await #expect(throws: TenancyError.self) { try await directory.createTenant(tenant, name: "again") }
        await #expect(throws: TenancyError.self) { try await directory.issueKey(tenant: tenant, name: "none", scopes: []) }
        await #expect(throws: TenancyError.self) { try await directory.issueKey(tenant: "no-such-tenant", name: "x", scopes: [.read]) }

        let seoul = TimeZone(identifier: "Asia/Seoul")!
        for (identifier, locale) in [("", "ko-KR"), ("line\nbreak", "ko-KR"), ("ann", "korean"), ("ann", "k"), ("ann", "ko_KR"), ("ann", "")] {
            await #expect(throws: TenancyError.self, "\(identifier) \(locale)") {
                try await Self.save(Recipient(identifier: identifier, timeZone: seoul, locale: locale), tenant: tenant)
            }
        }
        await #expect(throws: TenancyError.self) {
            try await Self.save(Recipient(identifier: "ann", timeZone: TimeZone(secondsFromGMT: 3600)!, locale: "en"), tenant: tenant)
        }
        await #expect(throws: TenancyError.self) {
            try await Self.save(Recipient(identifier: "ann", timeZone: seoul, locale: "ko"), tenant: "no-such-tenant")
        }
        #expect(try await Self.recipient("ann", tenant: tenant) == nil, "nothing refused was kept")
    }

    @Test func recipientsKeepTheirZoneAndLanguageWithinTheirTenant() async throws {
        let directory = try await Self.directory()
        let acme = try await Self.newTenant(directory, "zones")
        let other = try await Self.newTenant(directory, "zones")
        let ann = Recipient(identifier: "ann@example.com", timeZone: TimeZone(identifier: "Asia/Seoul")!, locale: "ko-KR")
        try await Self.save(ann, tenant: acme)
        #expect(try await Self.recipient(ann.identifier, tenant: acme) == ann)
        #expect(try await Self.recipient(ann.identifier, tenant: other) == nil)
        let moved = Recipient(identifier: ann.identifier, timeZone: TimeZone(identifier: "America/New_York")!, locale: "en-US")
        try await Self.save(moved, tenant: acme)
        #expect(try await Self.recipient(ann.identifier, tenant: acme) == moved)
    }

    static func save(_ recipient: Recipient, tenant: String) async throws {
        try await PostgresTenantData(database: try await PostgresTestDatabase.database(), tenant: tenant)
            .saveProfile(RecipientProfile(recipient: recipient), now: Date())
    }

    static func recipient(_ identifier: String, tenant: String) async throws -> Recipient? {
        try await PostgresTenantData(database: try await PostgresTestDatabase.database(), tenant: tenant).profiles([identifier])[identifier]?.recipient
    }

    @Test func keyTextIsRFC4648Base32() {
        // RFC 4648, section 10, lowercased and without padding.
        let vectors = ["": "", "f": "my", "fo": "mzxq", "foo": "mzxw6", "foob": "mzxw6yq", "fooba": "mzxw6ytb", "foobar": "mzxw6ytboi"]
        for (input, expected) in vectors {
            #expect(TenantDirectory.base32(Array(input.utf8)) == expected, "\(input)")
        }
    }

    /// Profiles are read by identifier within the tenant among many recipients: each one asked for that
    /// exists, once, with its own zone; none of another tenant's with the same identifier; nothing for one
    /// that does not exist, and a repeated identifier costs nothing more.
    @Test func profilesAreReadByIdentifierWithinTheTenantAmongManyRecipients() async throws {
        let database = try await PostgresTestDatabase.database()
        let directory = TenantDirectory(database: database)
        let acme = try await Self.newTenant(directory, "many")
        let other = try await Self.newTenant(directory, "twin")
        try await database.transaction { db in
            try db.query(
                "INSERT INTO recipient (tenant, recipient_id, time_zone, locale) SELECT $1, 'u' || g, 'Etc/GMT-' || (g % 12), 'en' FROM generate_series(0, 19999) AS g",
                [.text(acme)])
            try db.query("INSERT INTO recipient (tenant, recipient_id, time_zone, locale) VALUES ($1, 'u7', 'Asia/Seoul', 'ko'), ($1, 'only-twin', 'UTC', 'en')", [.text(other)])
        }
        let wanted = ["u7", "u19998", "u20000", "only-twin", "u7", "", "u123"]
        let profiles = try await PostgresTenantData(database: database, tenant: acme).profiles(wanted)
        #expect(profiles.keys.sorted() == ["u123", "u19998", "u7"])
        #expect(profiles["u7"]?.recipient.timeZoneName == "Etc/GMT-7")
        #expect(profiles["u19998"]?.recipient.timeZoneName == "Etc/GMT-6")
        #expect(profiles["u123"]?.recipient.timeZoneName == "Etc/GMT-3")
        let twin = try await PostgresTenantData(database: database, tenant: other).profiles(wanted)
        #expect(twin.keys.sorted() == ["only-twin", "u7"] && twin["u7"]?.recipient.locale == "ko")
        let many = (0..<3000).map { "u\($0 * 7)" }
        #expect(try await PostgresTenantData(database: database, tenant: acme).profiles(many).count == 2858)
    }
}
