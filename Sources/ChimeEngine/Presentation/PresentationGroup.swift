/// The group a notification is shown in: its thread, how many notifications the thread holds, and the
/// summary line a presenter shows under a collapsed group.
///
/// ```swift
/// presentation.group.threadIdentifier  // "photos-jane"
/// presentation.group.count             // 3
/// presentation.group.summary           // "3 more photos from Jane"
/// ```
///
/// Presenters usually show the summary only when `count` is more than 1.
public struct PresentationGroup: Sendable, Hashable {
    /// The stack's thread: the content's `threadIdentifier` (grouping automatic), notifications with the
    /// same one grouped together; empty for the app's own group, which holds every notification of the app
    /// without a thread identifier, or all of them when the user groups by app.
    public var threadIdentifier: String
    /// How many delivered notifications the stack holds, this one included.
    public var count: Int
    /// The summary line, from the category's `categorySummaryFormat` or the policy's default.
    public var summary: String
    /// Whether the user turned grouping off for the app: the notification is not stacked with any other
    /// (`threadIdentifier` is then the content's, for reference, and `count` is 1).
    public var standsAlone: Bool

    public init(threadIdentifier: String, count: Int, summary: String, standsAlone: Bool = false) {
        self.threadIdentifier = threadIdentifier
        self.count = count
        self.summary = summary
        self.standsAlone = standsAlone
    }
}
