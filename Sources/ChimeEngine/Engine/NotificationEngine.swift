public import ChimeCore
public import Foundation

/// The notification system for every app of one store: what iOS's notification service does.
///
/// It keeps authorization, settings, categories, pending requests and delivered notifications in its
/// `NotificationStore`; fires requests on time with one scheduler over all apps, driven by the injected
/// `NotificationClock`; decides how each notification is presented and hands it to the
/// `NotificationPresenter`; and routes the user's responses to the app's delegate.
///
/// Apps talk to it through `center(for:)`, one `AppNotificationCenter` per app identifier.
///
/// ```swift
/// let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: presenter)
/// await engine.start()
/// let center = await engine.center(for: "com.example.alarm")
/// try await center.add(request)
/// ```
///
/// An actor: every method may be called from any task. The scheduler runs in its own task between
/// `start()` and `stop()`.
public actor NotificationEngine {
    let store: any NotificationStore
    let clock: any NotificationClock
    let presenter: any NotificationPresenter
    let authorization: any AuthorizationResolver
    let log: any EngineLog
    let configuration: EngineConfiguration
    let vault: AttachmentVault?
    let journal: PresentationJournal?

    var timeline: SchedulerTimeline
    /// The user's situation now: focus, lock state, languages.
    public private(set) var environment: UserEnvironment
    /// The user's time zone now; calendar triggers without a zone float with it.
    public private(set) var timeZone: TimeZone
    /// Apps in the foreground, with the delegate that chooses how their notifications are presented.
    var foregroundDelegates: [String: WeakDelegate] = [:]
    /// Apps that attached a delegate (foreground or not) to receive responses.
    var delegates: [String: WeakDelegate] = [:]
    var localizers: [String: NotificationLocalizer] = [:]
    /// Per foreground app, its delivered notifications waiting for (or being asked) `willPresent`, in order.
    var foregroundLanes: [String: [DeliveredNotification]] = [:]

    var driver: Task<Void, Never>?
    var sleeper: Task<Void, any Error>?
    /// Fires recorded ahead of their instants, and the task that shows them while the driver is busy: its
    /// sleep, the date it sleeps until, and its wait while it has nothing to do.
    var ahead = FiresAhead()
    var presenting: Task<Void, Never>?
    var presentingSleeper: Task<Void, any Error>?
    var presentingUntil: Date?
    var presentingIdle: CheckedContinuation<Void, Never>?
    /// Whether the driver sleeps, and so wakes for the next fire's instant itself.
    var isDriverAsleep = false
    /// The batch of fires being recorded while the driver goes on (`recordingTask`), by request, and the
    /// error its recording ended with, for the driver to back off.
    var recording: [RequestKey: FireInFlight] = [:]
    var recordingTask: Task<Void, Never>?
    var recordingError: (any Error)?
    /// What the journal held unsettled when the engine was made: shown first when it starts.
    var unsettledAtStart: [PresentationJournal.Entry] = []
    var nextJournalSequence: UInt64 = 1
    /// Set while the driver waits for a page from the store; adds in that time are replayed afterwards,
    /// because the page may have been read before they were written.
    var isLoading = false
    var addedWhileLoading: [ScheduledFire] = []
    /// Adds waiting to be written, oldest first, and whether an add is being written (new ones then queue).
    var queuedAdds: [(add: QueuedAdd, continuation: CheckedContinuation<[PendingRequest], any Error>)] = []
    var isWritingAdds = false
    /// Requests for authorization waiting for the user, per app: a decision made through another door
    /// (`updateSettings`) answers them too.
    var authorizationWaiters: [String: [Int: CheckedContinuation<Bool?, Never>]] = [:]
    var nextAuthorizationWaiter = 0
    /// Per foreground app, how many `willPresent` questions in a row it let time out.
    var unansweredWillPresent: [String: Int] = [:]
    /// Notifications on screen but not in the delivered list, for routing their buttons.
    var unlisted = UnlistedNotifications()
    /// The wall clock and the elapsed-time clock when the scheduler last looked, to notice a step.
    var clockReading: (wall: Date, elapsed: TimeInterval)?
    /// Responses handed to apps whose handlers have not returned yet, by token.
    var unfinishedResponses: [UUID: (appIdentifier: String, notificationIdentifier: String, started: Date)] = [:]
    /// Where the last fixes placed the device relative to each pending location trigger's region, with
    /// the added date of the request it was for (a request replaced under the same key starts unknown).
    var regionStates: [RequestKey: (added: Date, state: RegionState)] = [:]
    /// Location triggers dated by a crossing whose fire is not recorded yet, with their added dates:
    /// still waited for.
    var crossedLocations: [RequestKey: Date] = [:]
    /// Told when location triggers may have come or gone (`watchLocationTriggers`).
    var locationWatchers: [@Sendable () -> Void] = []

    public init(
        store: any NotificationStore,
        clock: any NotificationClock,
        presenter: any NotificationPresenter,
        authorization: any AuthorizationResolver = FixedAuthorization.allowAll,
        environment: UserEnvironment = UserEnvironment(),
        timeZone: TimeZone = .current,
        log: any EngineLog = StandardErrorLog(),
        configuration: EngineConfiguration = EngineConfiguration()
    ) {
        self.store = store
        self.clock = clock
        self.presenter = presenter
        self.authorization = authorization
        self.environment = environment
        self.timeZone = timeZone
        self.log = log
        self.configuration = configuration
        vault = configuration.attachmentsDirectory.map(AttachmentVault.init(directory:))
        (journal, unsettledAtStart) = Self.openJournal(configuration.presentationJournal, log: log)
        nextJournalSequence = (unsettledAtStart.map(\.sequence).max() ?? 0) + 1
        timeline = SchedulerTimeline(window: configuration.schedulingWindow, pageSize: configuration.schedulingPageSize)
    }

    /// The notification center of one app.
    public nonisolated func center(for appIdentifier: String) -> AppNotificationCenter {
        AppNotificationCenter(appIdentifier: appIdentifier, engine: self)
    }

    /// Connects the presenter (`NotificationPresenter.connect(to:)`) and starts the scheduler. Fires
    /// whose dates passed while nothing ran are handled first, by each request's misfire policy.
    public func start() {
        guard driver == nil else { return }
        presenter.connect(to: self)
        driver = Task {
            await self.showUnsettled()
            await self.runScheduler()
        }
        presenting = Task { await self.runPresenting() }
    }

    /// Stops the scheduler and waits for it; state already recorded stays in the store. Fires recorded
    /// ahead and not shown yet wait for the next `start()`, and in the presentation journal for another
    /// process's.
    public func stop() async {
        let running = driver
        let showing = presenting
        driver = nil
        presenting = nil
        running?.cancel()
        showing?.cancel()
        sleeper?.cancel()
        presentingSleeper?.cancel()
        presentingIdle?.resume()
        presentingIdle = nil
        await running?.value
        await recordingTask?.value
        await showing?.value
    }

    /// Changes what the engine knows of the user's situation (focus, lock state, languages); it applies
    /// to the next presentation and response.
    public func updateEnvironment(_ environment: UserEnvironment) {
        self.environment = environment
    }

    /// The user's time zone changed: calendar triggers that float with it get new fire dates.
    public func updateTimeZone(_ timeZone: TimeZone) async throws {
        guard timeZone.identifier != self.timeZone.identifier else { return }
        self.timeZone = timeZone
        try await refloatCalendarTriggers()
    }

    /// The strings tables an app's localized texts resolve from.
    public func setLocalizer(_ localizer: NotificationLocalizer, for appIdentifier: String) {
        localizers[appIdentifier] = localizer
    }

    /// Attaches an app's delegate: it receives responses, and while `isForeground` it chooses how the
    /// app's notifications are presented. The engine holds it weakly, as iOS does.
    public func setDelegate(_ delegate: (any NotificationCenterDelegate)?, for appIdentifier: String, isForeground: Bool = true) {
        delegates[appIdentifier] = delegate.map(WeakDelegate.init)
        foregroundDelegates[appIdentifier] = isForeground ? delegate.map(WeakDelegate.init) : nil
    }

    func wakeScheduler() {
        sleeper?.cancel()
    }
}

/// An add waiting to be written: its app, its requests, the moment it was made (the anchor of its
/// time-interval triggers), and its caller.
struct QueuedAdd: Sendable {
    let appIdentifier: String
    let requests: [NotificationRequest]
    let now: Date
}

/// Attachments moved into the store for a request, and where they came from.
typealias MovedAttachments = (stored: [NotificationAttachment], original: [NotificationAttachment])

/// Holds a delegate without keeping it alive.
struct WeakDelegate: Sendable {
    weak var delegate: (any NotificationCenterDelegate)?

    init(_ delegate: any NotificationCenterDelegate) {
        self.delegate = delegate
    }
}
