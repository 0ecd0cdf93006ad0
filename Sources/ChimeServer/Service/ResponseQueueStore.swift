public import ChimeCore

/// Where responses wait for their app: from the moment the user acted until the app acknowledges them,
/// so they survive a crash of the daemon and reach the app in the order given, at least once.
///
/// Requirements: durable when a mutating method returns; `entries` oldest first; any task may call any
/// method. The per-user daemon keeps them in SQLite (`SQLiteResponseQueue`).
public protocol ResponseQueueStore: Sendable {
    /// Keeps `response` for `app` and returns its delivery identifier.
    func enqueue(app: String, response: NotificationResponse, launch: String?) async throws -> String
    /// The app's queued responses, oldest first, at most `limit`.
    func entries(app: String, limit: Int) async throws -> [QueuedResponse]
    /// Forgets an acknowledged response of `app`; false when there was none.
    func remove(delivery: String, app: String) async throws -> Bool
    /// How many responses wait, per app.
    func counts() async throws -> [String: Int]
}

/// A response waiting for its app.
public struct QueuedResponse: Sendable, Hashable {
    public let delivery: String
    public let app: String
    public let response: NotificationResponse
    /// `background` or `foreground` when the app was launched for it.
    public let launch: String?

    public init(delivery: String, app: String, response: NotificationResponse, launch: String?) {
        self.delivery = delivery
        self.app = app
        self.response = response
        self.launch = launch
    }
}
