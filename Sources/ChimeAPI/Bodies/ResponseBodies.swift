public import ChimeCore

// Bodies of the response routes: what the user did, what the app decided, the app's answers.

/// `POST /v1/apps/{app}/delivered/{id}/response`: the user acts on a delivered notification.
///
/// `{"kind":"open"}`, `{"kind":"dismiss"}`, `{"kind":"action","action":"snooze"}`,
/// `{"kind":"reply","action":"reply","text":"On my way"}`.
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

/// The engine's `ResponseOutcome`, answered to a user's action.
public struct RespondResult: Codable, Sendable, Hashable {
    /// `none`, `background` or `foreground`.
    public var launch: String
    /// The response handed to the app; `nil` for a dismissal nobody asked for.
    public var response: NotificationResponse?
    /// Whether a running app received it now; otherwise it is queued for the app.
    public var deliveredToApp: Bool
    /// Whether it was queued durably for the app.
    public var queued: Bool
    /// When the response asks to bring in an app that is not connected: whether its launch command was
    /// started (`false`: it has none, and the response waits until the app connects); `nil` otherwise.
    public var launched: Bool?

    public init(launch: String, response: NotificationResponse?, deliveredToApp: Bool, queued: Bool, launched: Bool? = nil) {
        self.launch = launch
        self.response = response
        self.deliveredToApp = deliveredToApp
        self.queued = queued
        self.launched = launched
    }
}

/// The engine's `ResponseDisposition` on the wire: what becomes of a notification after the app handled a
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

/// `POST /v1/apps/{app}/responses/{delivery}/acknowledgment`: the app handled a response event; the daemon
/// forgets it, and applies `disposition` when it waits for the app's decision (the stream was opened with
/// `decides=true`), or afterwards for a response replayed to an app that was away (see
/// `NotificationEngine.applyLateDecision`). Without one, the standard behaviour.
public struct Acknowledgment: Codable, Sendable, Hashable {
    public var disposition: WireDisposition?
    public init(disposition: WireDisposition? = nil) { self.disposition = disposition }
}

/// `POST /v1/apps/{app}/questions/{question}`: a foreground app's answer to `willPresent`.
public struct QuestionAnswer: Codable, Sendable, Hashable {
    public var options: PresentationOptions
    public init(options: PresentationOptions) { self.options = options }
}
