#if !canImport(Darwin)
import ChimeCore
public import ChimeEngine
public import Foundation

/// The app's notification center (Apple's `UNUserNotificationCenter`): authorization, categories,
/// scheduling, delivered notifications and the delegate, over Chime's engine.
///
/// ```swift
/// let center = UNUserNotificationCenter.current()
/// center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in
///     guard granted else { return }
///     center.setNotificationCategories([meetingCategory])
///     center.delegate = self
/// }
/// center.add(request) { error in ... }
/// // or
/// let granted = try await center.requestAuthorization(options: [.alert, .sound])
/// try await center.add(request)
/// ```
///
/// **Which center.** `current()` is the process's center for its app identity, on the embedded engine
/// (see `current()`); tests make their own with `init(appIdentifier:engine:clock:log:)` on an in-memory
/// store and a `ManualClock`, and run iOS code that calls `current()` inside
/// `withCurrent(_:operation:)`.
///
/// **Order and threads.** Calls take effect in the order they are made, also those that return at once
/// (`setNotificationCategories`, `removePendingNotificationRequests`, setting `delegate`). Completion
/// handlers are called on the center's callout queue — a serial background queue, as on Apple — in call
/// order; delegate methods on a second serial queue (see `UNUserNotificationCenterDelegate`). Inside both,
/// `current()` is this center.
///
/// **Errors.** `add` and `setBadgeCount` report failures as `UNError` where Apple has a code, else as
/// `ChimeError` (see `UNError`). Calls that have no error to report (`setNotificationCategories`, the
/// removals, the getters) log a failure to standard error and change nothing; getters then answer empty.
// @unchecked Sendable: the delegate, the foreground flag and the content extensions sit behind `state`'s
// lock; everything else is immutable.
public final class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    struct State {
        weak var delegate: (any UNUserNotificationCenterDelegate)?
        var isApplicationInForeground = true
        var extensionFactories: [String: @Sendable () -> any UNNotificationContentExtension] = [:]
        var loadedExtensions: [String: LoadedExtension] = [:]
    }

    /// A content extension made for one delivered notification.
    struct LoadedExtension {
        let object: Unchecked<any UNNotificationContentExtension>
        let context: UNNotificationContentExtensionContext
    }

    /// The app whose notifications this center handles.
    public let appIdentifier: String
    /// The source of time for `nextTriggerDate()` of the triggers this center returns.
    let clock: any NotificationClock
    let log: any EngineLog
    let backend: CenterBackend
    let state = Locked(State())
    let bridge: DelegateBridge
    let calloutQueue: DispatchQueue
    let delegateQueue: DispatchQueue

    /// A center for `appIdentifier` on `engine` (Chime; Apple's center has no initializer).
    ///
    /// ```swift
    /// let clock = ManualClock(now: start)
    /// let engine = NotificationEngine(store: InMemoryNotificationStore(), clock: clock,
    ///                                 presenter: RecordingPresenter(), authorization: SimulatedUser(answersAuthorization: true))
    /// let center = UNUserNotificationCenter(appIdentifier: "com.example.alarm", engine: engine, clock: clock)
    /// ```
    ///
    /// The identifier is used as given (no `CHIME_APP_ID` override). The engine's scheduler is started on
    /// the center's first call if it is not running.
    ///
    /// - Parameters:
    ///   - clock: The engine's clock, which triggers read for `nextTriggerDate()`.
    ///   - log: Where failures without an error channel are reported.
    public convenience init(
        appIdentifier: String, engine: NotificationEngine, clock: any NotificationClock = SystemClock(), log: any EngineLog = StandardErrorLog()
    ) {
        let backend = CenterBackend {
            await engine.start()
            return engine.center(for: appIdentifier)
        }
        self.init(appIdentifier: appIdentifier, clock: clock, log: log, backend: backend)
    }

    init(appIdentifier: String, clock: any NotificationClock, log: any EngineLog, backend: CenterBackend) {
        self.appIdentifier = appIdentifier
        self.clock = clock
        self.log = log
        self.backend = backend
        bridge = DelegateBridge()
        calloutQueue = DispatchQueue(label: "UserNotifications.callout.\(appIdentifier)")
        delegateQueue = DispatchQueue(label: "UserNotifications.delegate.\(appIdentifier)")
        super.init()
        bridge.center = self
    }

    // MARK: Delegate

    /// The app's delegate, held weakly as on Apple.
    public var delegate: (any UNUserNotificationCenterDelegate)? {
        get { state.withLock { $0.delegate } }
        set {
            state.withLock { $0.delegate = newValue }
            updateEngineDelegate()
        }
    }

    /// Whether the app counts as being in the foreground, so `willPresent` decides how its notifications
    /// are presented (Chime; default `true`).
    ///
    /// A process using the embedded engine runs while its notifications fire, like an iOS app in use, and
    /// an app that sets a delegate without `willPresent` then shows nothing, as on iOS. A background
    /// service that wants the system to present its notifications while its delegate still receives
    /// responses sets this to `false`.
    public var isApplicationInForeground: Bool {
        get { state.withLock { $0.isApplicationInForeground } }
        set {
            state.withLock { $0.isApplicationInForeground = newValue }
            updateEngineDelegate()
        }
    }

    /// Registers the engine's view of the delegate: the bridge, while the app has a delegate or a content
    /// extension; asked about presentation only while it has a delegate and is in the foreground.
    func updateEngineDelegate() {
        let (registered, foreground) = state.withLock { state in
            (state.delegate != nil || !state.extensionFactories.isEmpty, state.delegate != nil && state.isApplicationInForeground)
        }
        let bridge = bridge
        backend.enqueue({ center in
            try await center.setDelegate(registered ? bridge : nil, isForeground: foreground)
        }) { result in
            self.value(result, or: (), "attaching the delegate")
        }
    }

    // MARK: Authorization and settings

    /// Asks the user once whether the app may notify; later calls answer from the user's decision.
    /// `.provisional` is granted at once, without asking.
    public func requestAuthorization(options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        backend.enqueue({ try await $0.requestAuthorization(options: options.chime) }) { result in
            self.callout {
                switch result {
                case .success(let granted): completionHandler(granted, nil)
                case .failure(let error): completionHandler(false, UNError.bridging(error))
                }
            }
        }
    }

    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        try await run { try await $0.requestAuthorization(options: options.chime) }
    }

    public func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        backend.enqueue({ try await $0.notificationSettings() }) { result in
            let settings = UNNotificationSettings(self.value(result, or: .notDetermined, "reading the notification settings"))
            self.callout { completionHandler(settings) }
        }
    }

    public func notificationSettings() async -> UNNotificationSettings {
        UNNotificationSettings(await answer(or: .notDetermined, "reading the notification settings") { try await $0.notificationSettings() })
    }

    // MARK: Categories

    /// Registers the app's categories, replacing those registered before.
    ///
    /// A category Chime cannot register (an action with an empty or reserved identifier, two actions with
    /// one identifier) makes the whole call change nothing; the reason is logged.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        let converted: [NotificationCategory]
        do {
            converted = try categories.map { category throws(ChimeError) in try category.notificationCategory() }
        } catch {
            log.warning("UserNotifications: setNotificationCategories changed nothing: \(error)")
            return
        }
        backend.enqueue({ try await $0.setNotificationCategories(converted) }) { result in
            self.value(result, or: (), "registering the categories")
        }
    }

    public func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        backend.enqueue({ try await $0.notificationCategories() }) { result in
            let categories = Set(self.value(result, or: [], "reading the categories").map(UNNotificationCategory.init))
            self.callout { completionHandler(categories) }
        }
    }

    public func notificationCategories() async -> Set<UNNotificationCategory> {
        Set(await answer(or: [], "reading the categories") { try await $0.notificationCategories() }.map(UNNotificationCategory.init))
    }

    // MARK: Requests

    /// Schedules `request`, replacing a pending request with the same identifier.
    ///
    /// The completion handler gets `nil` once the request is durable, or the error: `UNError` with
    /// `.notificationsNotAllowed` when the user denied the app, `.notificationInvalidNoDate` for an invalid
    /// or push trigger, an attachment code when its file cannot be moved into the store, `.badgeInputInvalid`
    /// for a negative badge; `ChimeError` for what Apple has no code for (see `UNError`). Nothing is
    /// scheduled then.
    public func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        backend.enqueue({ try await $0.add(try request.notificationRequest()) }) { result in
            guard let completionHandler else {
                if case .failure(let error) = result { self.log.warning("UserNotifications: request \(request.identifier) was not added: \(error)") }
                return
            }
            self.callout {
                switch result {
                case .success: completionHandler(nil)
                case .failure(let error): completionHandler(UNError.bridging(error))
                }
            }
        }
    }

    /// The `async` form of `add(_:withCompletionHandler:)`; throws what the completion handler would get.
    public func add(_ request: UNNotificationRequest) async throws {
        try await run { try await $0.add(try request.notificationRequest()) }
    }

    public func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        backend.enqueue({ try await $0.pendingNotificationRequests() }) { result in
            let requests = self.value(result, or: [], "reading the pending requests").map { UNNotificationRequest($0, clock: self.clock) }
            self.callout { completionHandler(requests) }
        }
    }

    public func pendingNotificationRequests() async -> [UNNotificationRequest] {
        await answer(or: [], "reading the pending requests") { try await $0.pendingNotificationRequests() }
            .map { UNNotificationRequest($0, clock: clock) }
    }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        backend.enqueue({ try await $0.removePendingNotificationRequests(withIdentifiers: identifiers) }) { result in
            self.value(result, or: (), "removing pending requests")
        }
    }

    public func removeAllPendingNotificationRequests() {
        backend.enqueue({ try await $0.removeAllPendingNotificationRequests() }) { result in
            self.value(result, or: (), "removing pending requests")
        }
    }

    // MARK: Delivered notifications

    /// The app's delivered notifications still in the list, newest first.
    public func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        backend.enqueue({ try await $0.deliveredNotifications() }) { result in
            let notifications = self.value(result, or: [], "reading the delivered notifications").map { UNNotification($0, clock: self.clock) }
            self.callout { completionHandler(notifications) }
        }
    }

    public func deliveredNotifications() async -> [UNNotification] {
        await answer(or: [], "reading the delivered notifications") { try await $0.deliveredNotifications() }
            .map { UNNotification($0, clock: clock) }
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        unloadExtensions(for: identifiers)
        backend.enqueue({ try await $0.removeDeliveredNotifications(withIdentifiers: identifiers) }) { result in
            self.value(result, or: (), "removing delivered notifications")
        }
    }

    public func removeAllDeliveredNotifications() {
        unloadExtensions(for: nil)
        backend.enqueue({ try await $0.removeAllDeliveredNotifications() }) { result in
            self.value(result, or: (), "removing delivered notifications")
        }
    }

    // MARK: Badge

    /// Sets the number on the app's badge; 0 removes it. A negative count fails with
    /// `UNError.badgeInputInvalid`.
    public func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        backend.enqueue({ try await $0.setBadgeCount(newBadgeCount) }) { result in
            guard let completionHandler else {
                self.value(result, or: (), "setting the badge")
                return
            }
            self.callout {
                switch result {
                case .success: completionHandler(nil)
                case .failure(let error): completionHandler(UNError.bridging(error))
                }
            }
        }
    }

    public func setBadgeCount(_ newBadgeCount: Int) async throws {
        try await run { try await $0.setBadgeCount(newBadgeCount) }
    }

    /// Whether content extensions work: Chime runs their response logic and dynamic actions
    /// (`registerContentExtension(forCategoryIdentifiers:_:)`), though presenters show no custom view.
    public var supportsContentExtensions: Bool { true }

    // MARK: Running operations

    /// Runs an operation in order and throws its failure as the app sees it.
    private func run<T: Sendable>(_ operation: @escaping @Sendable (any CenterService) async throws -> T) async throws -> T {
        do {
            return try await backend.enqueue(operation).value
        } catch {
            throw UNError.bridging(error)
        }
    }

    /// Runs an operation in order; a failure is logged and answered with `fallback`.
    private func answer<T: Sendable>(or fallback: T, _ what: String, _ operation: @escaping @Sendable (any CenterService) async throws -> T) async -> T {
        value(await backend.enqueue(operation).result, or: fallback, what)
    }

    @discardableResult
    private func value<T>(_ result: Result<T, any Error>, or fallback: T, _ what: String) -> T {
        switch result {
        case .success(let value):
            return value
        case .failure(let error):
            log.warning("UserNotifications: \(what) failed: \(error)")
            return fallback
        }
    }

    /// Calls a completion handler on the callout queue, with `current()` bound to this center.
    func callout(_ body: @escaping @Sendable () -> Void) {
        calloutQueue.async {
            Self.$bound.withValue(self) { body() }
        }
    }

    /// Calls into the app's delegate or content extension on the delegate queue, with `current()` bound
    /// to this center.
    func onDelegateQueue(_ body: @escaping @Sendable () -> Void) {
        delegateQueue.async {
            Self.$bound.withValue(self) { body() }
        }
    }
}
#endif
