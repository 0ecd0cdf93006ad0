public import ChimeCore
public import Foundation

// Bodies of the app routes: the registry, authorization, settings, categories, badge.

/// One app as the registry knows it (`PUT /v1/apps/{app}` takes it without `identifier`).
public struct AppEntry: Codable, Sendable, Hashable {
    public var identifier: String
    public var displayName: String?
    public var iconPath: String?
    /// The program and its arguments that launch the app to handle a response.
    public var launchCommand: [String]?

    public init(identifier: String, displayName: String? = nil, iconPath: String? = nil, launchCommand: [String]? = nil) {
        self.identifier = identifier
        self.displayName = displayName
        self.iconPath = iconPath
        self.launchCommand = launchCommand
    }
}

/// `PUT /v1/apps/{app}`: what the registry keeps of an app besides its identifier.
public struct AppRegistration: Codable, Sendable, Hashable {
    public var displayName: String?
    public var iconPath: String?
    public var launchCommand: [String]?

    public init(displayName: String? = nil, iconPath: String? = nil, launchCommand: [String]? = nil) {
        self.displayName = displayName
        self.iconPath = iconPath
        self.launchCommand = launchCommand
    }
}

/// `GET /v1/apps/{app}`, and each app of `GET /v1/apps`.
public struct AppInfo: Codable, Sendable, Hashable {
    public var entry: AppEntry
    public var settings: NotificationSettings
    /// Whether the app has an event stream open now.
    public var connected: Bool
    /// Responses waiting for the app.
    public var queuedResponses: Int
    /// The number on the app's badge (0: none).
    public var badge: Int
    /// The permission question the app is waiting on, while the user has not answered it.
    public var authorizationQuestion: AuthorizationQuestion?

    public init(
        entry: AppEntry, settings: NotificationSettings, connected: Bool, queuedResponses: Int, badge: Int = 0,
        authorizationQuestion: AuthorizationQuestion? = nil
    ) {
        self.entry = entry
        self.settings = settings
        self.connected = connected
        self.queuedResponses = queuedResponses
        self.badge = badge
        self.authorizationQuestion = authorizationQuestion
    }
}

/// An app asked to notify and waits for the user's answer (`PUT /v1/apps/{app}/authorization` gives it).
public struct AuthorizationQuestion: Codable, Sendable, Hashable {
    /// What the app asked for.
    public var options: AuthorizationOptions
    /// When it asked.
    public var since: Date

    public init(options: AuthorizationOptions, since: Date) {
        self.options = options
        self.since = since
    }
}

/// `GET /v1/apps`.
public struct AppList: Codable, Sendable, Hashable {
    public var apps: [AppInfo]
    public init(apps: [AppInfo]) { self.apps = apps }
}

/// `POST /v1/apps/{app}/authorization/request`: the app asks (as `requestAuthorization(options:)`).
public struct AuthorizationRequest: Codable, Sendable, Hashable {
    public var options: AuthorizationOptions
    public init(options: AuthorizationOptions) { self.options = options }
}

/// The answer to an app's request: whether it may notify.
public struct AuthorizationResult: Codable, Sendable, Hashable {
    public var granted: Bool
    public init(granted: Bool) { self.granted = granted }
}

/// `PUT /v1/apps/{app}/authorization`: the user allows or denies the app (answers with its settings).
public struct AuthorizationDecision: Codable, Sendable, Hashable {
    public var allowed: Bool
    public init(allowed: Bool) { self.allowed = allowed }
}

/// `GET` and `PUT /v1/apps/{app}/categories`.
public struct CategoryList: Codable, Sendable, Hashable {
    public var categories: [NotificationCategory]
    public init(categories: [NotificationCategory]) { self.categories = categories }
}

/// `PUT /v1/apps/{app}/badge`.
public struct BadgeCount: Codable, Sendable, Hashable {
    public var count: Int
    public init(count: Int) { self.count = count }
}

/// `GET` and `PUT /v1/focus`: the user's focus switch (`chime focus on`), and what else of the session
/// decides how notifications arrive.
public struct FocusState: Codable, Sendable, Hashable {
    public var on: Bool
    /// Whether the desktop's Do Not Disturb is on, when the desktop says (read only).
    public var desktopInhibited: Bool?
    /// Whether the session is locked, when the desktop says (read only).
    public var sessionLocked: Bool?

    public init(on: Bool, desktopInhibited: Bool? = nil, sessionLocked: Bool? = nil) {
        self.on = on
        self.desktopInhibited = desktopInhibited
        self.sessionLocked = sessionLocked
    }
}

/// `GET /v1/status`: what `chime doctor` shows.
public struct StatusResult: Codable, Sendable, Hashable {
    public struct Server: Codable, Sendable, Hashable {
        public var name: String
        public var vendor: String
        public var version: String
        public var capabilities: [String]

        public init(name: String, vendor: String, version: String, capabilities: [String]) {
            self.name = name
            self.vendor = vendor
            self.version = version
            self.capabilities = capabilities
        }
    }

    public var version: String
    public var processIdentifier: Int32
    public var storePath: String
    public var socketPath: String
    /// The loopback address the API is also served on, when it is.
    public var httpAddress: String?
    /// `desktop` or `log`.
    public var presenter: String
    public var notificationServer: Server?
    public var apps: Int
    public var pending: Int
    public var delivered: Int
    public var queuedResponses: Int
    public var focus: Bool
    /// Event streams open now.
    public var eventStreams: Int
    /// Stored records that no longer decode, set aside untouched; `nil` when there are none.
    public var quarantined: Int?
    /// Who answers an app's first permission question: `desktop` (a prompt on the desktop; the web center
    /// too), `ask` (the user, in the web center or with `chime apps allow|deny`), or `allow` / `deny`
    /// (answered at once, for headless use).
    public var authorization: String?
    /// Where location triggers get their positions, while some wait for one: `running` (GeoClue gives
    /// them), `starting`, `unavailable: …` (no GeoClue to ask) or `denied: …` (GeoClue refused chimed); the
    /// triggers stay pending either way. `nil` when no location trigger is pending.
    public var location: String?

    public init(
        version: String, processIdentifier: Int32, storePath: String, socketPath: String, httpAddress: String?, presenter: String,
        notificationServer: Server?, apps: Int, pending: Int, delivered: Int, queuedResponses: Int, focus: Bool, eventStreams: Int
    ) {
        self.version = version
        self.processIdentifier = processIdentifier
        self.storePath = storePath
        self.socketPath = socketPath
        self.httpAddress = httpAddress
        self.presenter = presenter
        self.notificationServer = notificationServer
        self.apps = apps
        self.pending = pending
        self.delivered = delivered
        self.queuedResponses = queuedResponses
        self.focus = focus
        self.eventStreams = eventStreams
    }
}

/// A one-time link into the web notification center (`chime web`): opened once within `expiresAt`, it
/// gives that browser a session.
public struct WebLogin: Codable, Sendable, Hashable {
    public var url: String
    public var expiresAt: Date

    public init(url: String, expiresAt: Date) {
        self.url = url
        self.expiresAt = expiresAt
    }
}
