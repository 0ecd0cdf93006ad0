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
    /// How long before its instant a fire is recorded in the store (`FiresAhead`): the durable write, the
    /// reads and the presentation's preparation happen in this lead, and the instant itself only hands
    /// the prepared notification to the presenter. Until its instant the fire is not listed as delivered,
    /// and removing or replacing its request cancels it, as before a fire. Long enough to cover one
    /// round of recording under load; 0 records each fire at its instant.
    public var fireLead: TimeInterval = 0.05
    /// Where the engine journals the fires it recorded ahead of their instants, so a new process shows
    /// those a killed one recorded but never showed (`PresentationJournal`). `nil`: no journal, and such
    /// fires stay recorded but not shown; the daemon always keeps one beside its store.
    public var presentationJournal: URL?
    /// iOS keeps at most 64 pending requests per app, the soonest, and silently drops the rest. Chime has
    /// no cap (`nil`, the default); set 64 to test an app's own handling of that limit. After each add,
    /// an app's pending requests beyond the limit — those that fire last, undated ones before all — are
    /// removed.
    public var pendingLimitPerApp: Int?
    /// iOS monitors at most 20 regions per app and refuses more (Core Location reports
    /// `regionMonitoringFailure`). Chime has no cap (`nil`, the default); set 20 on an engine built in
    /// code to test an app's handling of that limit, as `pendingLimitPerApp` does for the 64 pending
    /// requests: an add that would leave the app more pending location triggers than this fails with
    /// `valueOutOfRange` and changes nothing. Replacing a request does not count it twice.
    public var locationTriggerLimitPerApp: Int?

    public init() {}
}
