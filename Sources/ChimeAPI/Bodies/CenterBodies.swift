public import Foundation

// Bodies of the notification center's routes: the delivered list as the user sees it, for pages.

/// `GET /v1/center`: a page of every app's delivered notifications as the notification list shows them
/// now (by app, newest first, as `GET /v1/delivered`), with the session's state that decided it.
public struct CenterPage: Codable, Sendable, Hashable {
    public var items: [CenterItem]
    public var total: Int
    public var next: String?
    /// Whether the user's session is locked: previews set to show "when unlocked" are hidden, and
    /// actions that require authentication are refused until it unlocks.
    public var sessionLocked: Bool

    public init(items: [CenterItem], total: Int, next: String?, sessionLocked: Bool) {
        self.items = items
        self.total = total
        self.next = next
        self.sessionLocked = sessionLocked
    }
}

/// One delivered notification as the list shows it: every rule already applied (the previews setting
/// and lock, localization, the app's permissions on its interruption level, the grouping setting), so a
/// page draws it as it is.
public struct CenterItem: Codable, Sendable, Hashable {
    public var app: String
    public var identifier: String
    public var date: Date
    public var title: String
    public var subtitle: String
    /// The body, or the placeholder while previews are hidden.
    public var body: String
    public var previewsHidden: Bool
    /// `passive`, `active`, `timeSensitive` or `critical`, after the user's permissions.
    public var interruptionLevel: String
    public var isLate: Bool
    /// The fire date it was due at, for a late one.
    public var scheduledDate: Date?
    /// The stack it belongs to in its app's section; `nil` when the user turned grouping off (it stands
    /// alone). `""` is the app's own stack.
    public var stack: String?
    /// How many notifications its stack holds, itself included.
    public var stackCount: Int
    /// The line under a collapsed stack when this one is its newest ("2 more messages from Ann").
    public var othersSummary: String?
    public var categoryIdentifier: String
    public var actions: [CenterAction]
    /// Whether dismissing it sends the app a response (the category's `customDismissAction`).
    public var dismissReachesApp: Bool
    public var attachments: [CenterAttachment]

    public init(
        app: String, identifier: String, date: Date, title: String, subtitle: String, body: String, previewsHidden: Bool,
        interruptionLevel: String, isLate: Bool, scheduledDate: Date?, stack: String?, stackCount: Int, othersSummary: String?,
        categoryIdentifier: String, actions: [CenterAction], dismissReachesApp: Bool, attachments: [CenterAttachment]
    ) {
        self.app = app
        self.identifier = identifier
        self.date = date
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.previewsHidden = previewsHidden
        self.interruptionLevel = interruptionLevel
        self.isLate = isLate
        self.scheduledDate = scheduledDate
        self.stack = stack
        self.stackCount = stackCount
        self.othersSummary = othersSummary
        self.categoryIdentifier = categoryIdentifier
        self.actions = actions
        self.dismissReachesApp = dismissReachesApp
        self.attachments = attachments
    }
}

/// A button of a listed notification, its title resolved.
public struct CenterAction: Codable, Sendable, Hashable {
    public struct TextInput: Codable, Sendable, Hashable {
        /// The send button's title; empty for the page's own.
        public var buttonTitle: String
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    public var identifier: String
    public var title: String
    public var destructive: Bool
    /// Picking it brings the app up.
    public var foreground: Bool
    /// It runs only while the session is unlocked.
    public var authenticationRequired: Bool
    /// Set for an action that takes typed text.
    public var textInput: TextInput?

    public init(identifier: String, title: String, destructive: Bool, foreground: Bool, authenticationRequired: Bool, textInput: TextInput?) {
        self.identifier = identifier
        self.title = title
        self.destructive = destructive
        self.foreground = foreground
        self.authenticationRequired = authenticationRequired
        self.textInput = textInput
    }
}

/// An attachment of a listed notification, at a signed address that works for a few minutes.
public struct CenterAttachment: Codable, Sendable, Hashable {
    public var identifier: String
    /// `image`, `audio` or `movie`.
    public var kind: String
    /// The media type (`image/png`).
    public var mediaType: String
    public var size: Int
    /// A path on chimed's loopback address, signed and short-lived (`/web/attachments/…?expires=…&signature=…`).
    public var url: String
    public var expiresAt: Date

    public init(identifier: String, kind: String, mediaType: String, size: Int, url: String, expiresAt: Date) {
        self.identifier = identifier
        self.kind = kind
        self.mediaType = mediaType
        self.size = size
        self.url = url
        self.expiresAt = expiresAt
    }
}
