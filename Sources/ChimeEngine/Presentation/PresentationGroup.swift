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
    /// The content's `threadIdentifier`: notifications with the same one are grouped together. Empty means
    /// the app's own group, which holds every notification of the app without a thread identifier.
    public var threadIdentifier: String
    /// How many delivered notifications the thread holds, this one included.
    public var count: Int
    /// The summary line, from the category's `categorySummaryFormat` or the policy's default.
    public var summary: String

    public init(threadIdentifier: String, count: Int, summary: String) {
        self.threadIdentifier = threadIdentifier
        self.count = count
        self.summary = summary
    }
}
