/// What a notification server says it can do (`GetCapabilities`), read once per server.
///
/// See https://specifications.freedesktop.org/notification-spec/latest/protocol.html#command-get-capabilities.
struct ServerCapabilities: Sendable, Hashable {
    let names: Set<String>

    init(_ names: some Sequence<String>) {
        self.names = Set(names)
    }

    /// Buttons (`actions`): without it a notification has none, and nothing can be asked.
    var actions: Bool { names.contains("actions") }
    /// A body under the summary (`body`): without it the text goes into the summary.
    var body: Bool { names.contains("body") }
    /// The body is read as markup (`body-markup`), so app text in it must be escaped.
    var bodyMarkup: Bool { names.contains("body-markup") }
    /// KDE's inline reply (`inline-reply`): a text field, answered with `NotificationReplied`.
    var inlineReply: Bool { names.contains("inline-reply") }
}
