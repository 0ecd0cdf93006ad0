public import ChimeAPI

/// Pushes to the user's browsers (Web Push), which the web center turns on for its browser: the daemon
/// holds the key and sends; the API passes the page's calls on. Errors are `APIError`s.
public protocol BrowserPushing: Sendable {
    /// The key the page subscribes with, made on first use, and how many browsers receive pushes.
    func status() async throws -> BrowserPushStatus
    /// Starts pushing to a browser (its `PushSubscription`), made on the web center at `origin`; the same
    /// endpoint again replaces its keys.
    func subscribe(_ subscription: WebPushAddress, origin: String?) async throws -> BrowserPushSubscribed
    /// Stops pushing to the subscription `id` names; an unknown one is already stopped.
    func unsubscribe(id: String) async throws
}
