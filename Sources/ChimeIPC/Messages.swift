public import ChimeCore
public import Foundation

// Parameters and results of each method. App-scoped parameters take `app`; when it is absent the app the
// connection named in `hello` is meant.

public struct Hello: Codable, Sendable {
    public var token: String
    /// The app this connection speaks for, if any.
    public var app: String?
    /// Receive this app's events (responses, and `willPresent` while `foreground`); replays the app's
    /// queued responses.
    public var subscribe: Bool
    /// The app is in the foreground: its notifications ask it how to present them (`willPresent`).
    public var foreground: Bool?
    /// The app answers each response it receives live with its decision for the notification
    /// (`AcknowledgeParams.disposition`), and the daemon waits for it (within a timeout) before applying it.
    /// Without it the daemon applies the standard behaviour at once.
    public var decidesResponses: Bool?

    public init(token: String, app: String?, subscribe: Bool, foreground: Bool? = nil, decidesResponses: Bool? = nil) {
        self.token = token
        self.app = app
        self.subscribe = subscribe
        self.foreground = foreground
        self.decidesResponses = decidesResponses
    }

    private enum CodingKeys: String, CodingKey { case token, app, subscribe, foreground, decidesResponses }

    /// `subscribe` and `foreground` default to false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        app = try container.decodeIfPresent(String.self, forKey: .app)
        subscribe = try container.decodeIfPresent(Bool.self, forKey: .subscribe) ?? false
        foreground = try container.decodeIfPresent(Bool.self, forKey: .foreground)
        decidesResponses = try container.decodeIfPresent(Bool.self, forKey: .decidesResponses)
    }
}

public struct HelloResult: Codable, Sendable {
    public var version: String
    public init(version: String) { self.version = version }
}

/// Parameters that only name the app.
public struct AppParams: Codable, Sendable {
    public var app: String?
    public init(app: String? = nil) { self.app = app }
}

public struct AuthorizationParams: Codable, Sendable {
    public var app: String?
    public var options: AuthorizationOptions
    public init(app: String? = nil, options: AuthorizationOptions) {
        self.app = app
        self.options = options
    }
}

public struct SettingsParams: Codable, Sendable {
    public var app: String?
    public var settings: NotificationSettings
    public init(app: String? = nil, settings: NotificationSettings) {
        self.app = app
        self.settings = settings
    }
}

public struct CategoriesParams: Codable, Sendable {
    public var app: String?
    public var categories: [NotificationCategory]
    public init(app: String? = nil, categories: [NotificationCategory]) {
        self.app = app
        self.categories = categories
    }
}

public struct AddParams: Codable, Sendable {
    public var app: String?
    /// Added in one transaction: all or nothing.
    public var requests: [NotificationRequest]
    public init(app: String? = nil, requests: [NotificationRequest]) {
        self.app = app
        self.requests = requests
    }
}

/// Pending requests or delivered notifications of one app, or of every app when `app` is absent and the
/// connection named none (`all` forces every app).
public struct ListParams: Codable, Sendable {
    public var app: String?
    public var all: Bool?
    public init(app: String? = nil, all: Bool? = nil) {
        self.app = app
        self.all = all
    }
}

/// Removes these identifiers, or everything of the app when `identifiers` is absent.
public struct RemoveParams: Codable, Sendable {
    public var app: String?
    public var identifiers: [String]?
    public init(app: String? = nil, identifiers: [String]?) {
        self.app = app
        self.identifiers = identifiers
    }
}

public struct BadgeParams: Codable, Sendable {
    public var app: String?
    public var count: Int
    public init(app: String? = nil, count: Int) {
        self.app = app
        self.count = count
    }
}

public struct PendingItem: Codable, Sendable, Hashable {
    public var app: String
    public var request: NotificationRequest
    public var nextFireDate: Date?
    public init(app: String, request: NotificationRequest, nextFireDate: Date?) {
        self.app = app
        self.request = request
        self.nextFireDate = nextFireDate
    }
}

public struct DeliveredItem: Codable, Sendable, Hashable {
    public var app: String
    public var notification: DeliveredNotification
    public init(app: String, notification: DeliveredNotification) {
        self.app = app
        self.notification = notification
    }
}

/// What the user did, as `respond` carries it.
public enum WireUserAction: Codable, Sendable, Hashable {
    case open
    case dismiss
    case action(String)
    case reply(action: String, text: String)

    private enum CodingKeys: String, CodingKey { case kind, action, text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "open": self = .open
        case "dismiss": self = .dismiss
        case "action": self = .action(try container.decode(String.self, forKey: .action))
        case "reply": self = .reply(action: try container.decode(String.self, forKey: .action), text: try container.decode(String.self, forKey: .text))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "kind must be open, dismiss, action or reply")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .open: try container.encode("open", forKey: .kind)
        case .dismiss: try container.encode("dismiss", forKey: .kind)
        case .action(let action):
            try container.encode("action", forKey: .kind)
            try container.encode(action, forKey: .action)
        case .reply(let action, let text):
            try container.encode("reply", forKey: .kind)
            try container.encode(action, forKey: .action)
            try container.encode(text, forKey: .text)
        }
    }
}

public struct RespondParams: Codable, Sendable {
    public var app: String
    public var notification: String
    public var action: WireUserAction
    public init(app: String, notification: String, action: WireUserAction) {
        self.app = app
        self.notification = notification
        self.action = action
    }
}

/// The engine's `ResponseOutcome` on the wire.
public struct RespondResult: Codable, Sendable, Hashable {
    /// `none`, `background` or `foreground`.
    public var launch: String
    /// The response handed to the app; `nil` for a dismissal nobody asked for.
    public var response: NotificationResponse?
    /// Whether a running app received it now; otherwise it is queued for the app.
    public var deliveredToApp: Bool
    /// Whether it was queued durably for the app.
    public var queued: Bool
    public init(launch: String, response: NotificationResponse?, deliveredToApp: Bool, queued: Bool) {
        self.launch = launch
        self.response = response
        self.deliveredToApp = deliveredToApp
        self.queued = queued
    }
}

/// One app in the registry.
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

public struct AppInfo: Codable, Sendable, Hashable {
    public var entry: AppEntry
    public var settings: NotificationSettings
    /// Whether a subscribed connection speaks for the app now.
    public var connected: Bool
    /// Responses waiting for the app.
    public var queuedResponses: Int
    public init(entry: AppEntry, settings: NotificationSettings, connected: Bool, queuedResponses: Int) {
        self.entry = entry
        self.settings = settings
        self.connected = connected
        self.queuedResponses = queuedResponses
    }
}

/// The user allows or denies an app.
public struct SetAuthorizationParams: Codable, Sendable {
    public var app: String
    public var allowed: Bool
    public init(app: String, allowed: Bool) {
        self.app = app
        self.allowed = allowed
    }
}

/// Turns the focus on or off; without `on` only reads it.
public struct FocusParams: Codable, Sendable {
    public var on: Bool?
    public init(on: Bool? = nil) { self.on = on }
}

public struct FocusResult: Codable, Sendable, Hashable {
    /// The user's focus (from `chime focus`).
    public var on: Bool
    /// Whether the desktop's Do Not Disturb is on, when it says.
    public var desktopInhibited: Bool?
    public init(on: Bool, desktopInhibited: Bool?) {
        self.on = on
        self.desktopInhibited = desktopInhibited
    }
}

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
    /// `desktop` or `log`.
    public var presenter: String
    public var notificationServer: Server?
    public var apps: Int
    public var pending: Int
    public var delivered: Int
    public var queuedResponses: Int
    public var focus: Bool

    public init(
        version: String, processIdentifier: Int32, storePath: String, socketPath: String, presenter: String, notificationServer: Server?,
        apps: Int, pending: Int, delivered: Int, queuedResponses: Int, focus: Bool
    ) {
        self.version = version
        self.processIdentifier = processIdentifier
        self.storePath = storePath
        self.socketPath = socketPath
        self.presenter = presenter
        self.notificationServer = notificationServer
        self.apps = apps
        self.pending = pending
        self.delivered = delivered
        self.queuedResponses = queuedResponses
        self.focus = focus
    }
}

public struct AcknowledgeParams: Codable, Sendable {
    public var delivery: String
    /// What the app decided for the notification, when it said hello with `decidesResponses`; `nil` is
    /// the standard behaviour.
    public var disposition: WireDisposition?
    public init(delivery: String, disposition: WireDisposition? = nil) {
        self.delivery = delivery
        self.disposition = disposition
    }
}

/// The engine's `ResponseDisposition` on the wire: what happens to a notification after the app handled a
/// response (its buttons replaced or cleared, kept on screen, dismissed, or opened as the default action).
///
/// `{"actions":[…],"outcome":"keepOnScreen"}`; without `actions` the buttons stay, with `[]` they go.
public struct WireDisposition: Codable, Sendable, Hashable {
    public enum Outcome: String, Codable, Sendable, Hashable {
        case standard, keepOnScreen, dismiss, performDefaultAction
    }

    /// The buttons shown instead of the notification's own (`[]`: none); `nil` keeps them.
    public var actions: [NotificationAction]?
    public var outcome: Outcome

    public init(actions: [NotificationAction]? = nil, outcome: Outcome = .standard) {
        self.actions = actions
        self.outcome = outcome
    }
}

public struct PresentationOptionsParams: Codable, Sendable {
    public var question: Int
    public var options: PresentationOptions
    public init(question: Int, options: PresentationOptions) {
        self.question = question
        self.options = options
    }
}

// MARK: Events

/// A response for the app: handle it, then `acknowledge` its `delivery`; unacknowledged ones come again
/// when the app next subscribes.
public struct ResponseEvent: Codable, Sendable, Hashable {
    public var delivery: String
    public var app: String
    public var response: NotificationResponse
    /// Whether the app was launched for it, and how (`background`, `foreground`); `nil` when it was running.
    public var launch: String?
    public init(delivery: String, app: String, response: NotificationResponse, launch: String?) {
        self.delivery = delivery
        self.app = app
        self.response = response
        self.launch = launch
    }
}

public struct WillPresentEvent: Codable, Sendable, Hashable {
    public var question: Int
    public var app: String
    public var notification: DeliveredNotification
    public init(question: Int, app: String, notification: DeliveredNotification) {
        self.question = question
        self.app = app
        self.notification = notification
    }
}
