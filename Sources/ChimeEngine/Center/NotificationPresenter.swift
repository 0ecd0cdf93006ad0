/// Shows notifications to the user: a desktop notification server, a terminal, a web page, or a
/// recording in tests.
///
/// The engine has already applied every rule (authorization, settings, focus, previews, the foreground
/// app's choice); a presenter shows what `Presentation` says, nothing more. When the user acts on a
/// notification, the presenter reports it with `NotificationEngine.respond(...)`.
public protocol NotificationPresenter: Sendable {
    /// Shows a notification, or updates the one already shown with the same app and notification
    /// identifiers (new buttons, a repeat alert).
    func present(_ presentation: Presentation) async

    /// Removes notifications from the screen (they were removed from the delivered list, or dismissed).
    func withdraw(appIdentifier: String, identifiers: [String]) async

    /// The number on the app's badge changed; 0 hides it.
    func updateBadge(appIdentifier: String, count: Int) async

    /// Tells the presenter which engine its users' answers go to; the engine calls it when it starts.
    /// A presenter that takes answers (a terminal, a desktop server's buttons) holds `engine` weakly,
    /// since the engine holds its presenter. The default does nothing.
    func connect(to engine: NotificationEngine)
}

extension NotificationPresenter {
    public func connect(to engine: NotificationEngine) {}
}
