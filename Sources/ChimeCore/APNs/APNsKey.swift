/// The key names of an APNs payload that Chime reads and writes, in one place for both directions.
///
/// From Apple's "Generating a remote notification" payload key reference; `summary-arg` and
/// `summary-arg-count` are the alert keys Apple introduced with grouped notifications (WWDC 2018,
/// "Using Grouped Notifications").
enum APNsKey {
    static let aps = "aps"

    // The aps dictionary.
    static let alert = "alert"
    static let badge = "badge"
    static let sound = "sound"
    static let threadID = "thread-id"
    static let category = "category"
    static let contentAvailable = "content-available"
    static let mutableContent = "mutable-content"
    static let targetContentID = "target-content-id"
    static let interruptionLevel = "interruption-level"
    static let relevanceScore = "relevance-score"
    static let filterCriteria = "filter-criteria"

    // The alert dictionary.
    static let title = "title"
    static let titleLocKey = "title-loc-key"
    static let titleLocArgs = "title-loc-args"
    static let subtitle = "subtitle"
    static let subtitleLocKey = "subtitle-loc-key"
    static let subtitleLocArgs = "subtitle-loc-args"
    static let body = "body"
    static let locKey = "loc-key"
    static let locArgs = "loc-args"
    static let launchImage = "launch-image"
    static let summaryArg = "summary-arg"
    static let summaryArgCount = "summary-arg-count"

    // The sound dictionary.
    static let critical = "critical"
    static let name = "name"
    static let volume = "volume"

    /// The sound name that means the system's sound rather than a file.
    static let defaultSoundName = "default"
}
