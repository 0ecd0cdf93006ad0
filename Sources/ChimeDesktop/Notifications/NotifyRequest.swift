/// The arguments of one `Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions,
/// a{sv} hints, i expire_timeout)` call, and what each of its action keys means when the server reports
/// it back.
struct NotifyRequest: Sendable, Hashable {
    /// What an action key stands for.
    enum ActionMeaning: Sendable, Hashable {
        /// The default action (`default`): the user opened the notification.
        case open
        /// One of the notification's buttons.
        case action(String)
        /// The text-input action answered inline (`inline-reply`, with `NotificationReplied`).
        case inlineReply(String)
        /// A text-input action the server cannot take text for: pressing it can only say that a reply is
        /// wanted (`DesktopPresenter.Configuration.onReplyNeeded`).
        case replyElsewhere(PresentationActionSummary)
        /// The authorization prompt's buttons.
        case allow
        case deny
    }

    var appName: String
    var replacesID: UInt32
    var appIcon: String
    var summary: String
    var body: String
    /// Keys and labels in pairs, in the order the server shows them.
    var actions: [(key: String, label: String)]
    var hints: [String: BusValue]
    /// Milliseconds; -1 is the server's default, 0 never expires.
    var expireTimeout: Int32
    /// The meaning of each key in `actions`.
    var meanings: [String: ActionMeaning]

    var arguments: [BusValue] {
        [
            .string(appName), .uint32(replacesID), .string(appIcon), .string(summary), .string(body),
            .strings(actions.flatMap { [$0.key, $0.label] }), .dictionary(hints), .int32(expireTimeout),
        ]
    }

    static func == (lhs: NotifyRequest, rhs: NotifyRequest) -> Bool {
        lhs.arguments == rhs.arguments && lhs.meanings == rhs.meanings
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(arguments)
        hasher.combine(meanings)
    }
}

/// What the presenter keeps of a text-input action it could not show as a text field.
struct PresentationActionSummary: Sendable, Hashable {
    let identifier: String
    let title: String
    let placeholder: String
}
