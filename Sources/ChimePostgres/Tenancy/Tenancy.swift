public import Foundation

/// What an API key may do. `admin` includes the others.
public enum APIKeyScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// Add, replace and remove notifications.
    case publish
    /// Read the pending and delivered lists, responses and deliveries.
    case read
    /// Manage the tenant: its keys, recipients and apps.
    case admin
}

/// An API key as listed: never its secret, which is shown once, when the key is made.
public struct APIKeyInfo: Sendable, Hashable {
    /// The key's public identifier, also the start of its secret (`chime_<id>_…`), so a user can tell
    /// which key a secret is.
    public var keyID: String
    public var tenant: String
    public var name: String
    public var scopes: Set<APIKeyScope>
    public var created: Date
    /// When it was revoked; a revoked key authenticates nothing.
    public var revoked: Date?
}

/// A key that authenticated: whose it is and what it may do.
public struct AuthenticatedKey: Sendable, Hashable {
    public var keyID: String
    public var tenant: String
    public var scopes: Set<APIKeyScope>

    /// A key as authenticated: by `TenantDirectory.authenticate`, or by another proof of the tenant (the
    /// APNs-compatible endpoint's provider token, signed with the tenant's key).
    public init(keyID: String, tenant: String, scopes: Set<APIKeyScope>) {
        self.keyID = keyID
        self.tenant = tenant
        self.scopes = scopes
    }

    /// Whether the key may do what `scope` allows (`admin` may do everything).
    public func allows(_ scope: APIKeyScope) -> Bool {
        scopes.contains(scope) || scopes.contains(.admin)
    }
}

/// An end user of a tenant's app: the zone their floating calendar triggers fire in, the language their
/// notifications are localized into.
public struct Recipient: Sendable, Hashable {
    public var identifier: String
    /// The zone's name as the tenant gave it (`Asia/Seoul`, `UTC`), kept as given: Foundation reads `UTC`
    /// back as `GMT`.
    public var timeZoneName: String
    /// A BCP 47 language tag (`ko-KR`, `en`).
    public var locale: String

    public var timeZone: TimeZone { TimeZone(identifier: timeZoneName) ?? TimeZone(identifier: "UTC")! }

    public init(identifier: String, timeZoneName: String, locale: String) {
        self.identifier = identifier
        self.timeZoneName = timeZoneName
        self.locale = locale
    }

    public init(identifier: String, timeZone: TimeZone, locale: String) {
        self.init(identifier: identifier, timeZoneName: timeZone.identifier, locale: locale)
    }
}

/// A value the directory refuses, with what is wrong with it.
public struct TenancyError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case invalidTenant, invalidRecipient, invalidApp, invalidTimeZone, invalidLocale, invalidName, noScopes, unknownTenant, tenantExists
    }

    public let kind: Kind
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
