public import Foundation

/// What server mode's APNs-compatible endpoint (`POST /3/device/{token}`) looks up: whose provider key a
/// token's `iss` and `kid` name, and which recipient holds a device token.
public struct PostgresAPNsDoor: Sendable {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// The tenants that gave a provider key with these identifiers, and each one's key (PEM). Usually one;
    /// the caller tells them apart by the token's signature. All of them: identifiers are the tenants' to
    /// type, so any number may share them.
    public func tenants(team: String, keyID: String) async throws -> [(tenant: String, pem: String)] {
        let rows = try await database.read { db in
            try db.query(
                "SELECT tenant, apns_key FROM tenant WHERE apns_team = $1 AND apns_key_id = $2 AND apns_key IS NOT NULL ORDER BY tenant",
                [.text(team), .text(keyID)])
        }
        return rows.compactMap { row in row[0].text.flatMap { tenant in row[1].text.map { (tenant, $0) } } }
    }

    /// The tenant's APNs device with this token: its recipient, topic, and when a channel turned it off.
    public func device(tenant: String, token: String) async throws -> (recipient: String, topic: String, enabled: Bool, disabled: Date?)? {
        let rows = try await database.read { db in
            try db.query(
                "SELECT recipient, topic, enabled, disabled FROM device WHERE tenant = $1 AND channel = 'apns' AND address = $2",
                [.text(tenant), .text(token.lowercased())])
        }
        guard let row = rows.first, let recipient = row[0].text else { return nil }
        return (recipient, row[1].text ?? "", row[2] == .boolean(true), row[3].date)
    }
}
