public import Foundation

/// The engine's tunables, with defaults that suit a desktop.
public struct EngineConfiguration: Sendable {
    /// A fire delivered more than this many seconds after its date counts as missed (the process or the
    /// machine was down) and follows the request's misfire policy. Shorter delays are ordinary latency.
    public var misfireTolerance: TimeInterval = 60
    /// How long a foreground app's `willPresent` may take to answer before the system presents the
    /// notification itself, as it would for an app in the background. An app that lets
    /// `unansweredWillPresentLimit` questions in a row time out is not asked again until a late answer
    /// arrives, so a hung app costs that many timeouts, and only for its own notifications.
    public var willPresentTimeout: TimeInterval = 5
    public var unansweredWillPresentLimit = 2
    /// How long an app's response handler may take before the engine logs that it never completed.
    public var responseHandlerTimeout: TimeInterval = 30
    /// Where attachments are moved when a request is added (one folder per app and request). `nil`
    /// leaves them where they are, which only tests should do.
    public var attachmentsDirectory: URL?
    /// How far ahead the scheduler keeps fires in memory; the rest stays in the store.
    public var schedulingWindow: TimeInterval = 600
    /// The most fires the scheduler loads from the store at once.
    public var schedulingPageSize = 1000
    /// iOS keeps at most 64 pending requests per app, the soonest, and silently drops the rest. Chime has
    /// no cap (`nil`, the default); set 64 to test an app's own handling of that limit. After each add,
    /// an app's pending requests beyond the limit — those that fire last, undated ones before all — are
    /// removed.
    public var pendingLimitPerApp: Int?

    public init() {}
}
