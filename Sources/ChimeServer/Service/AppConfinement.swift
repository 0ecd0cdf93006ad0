public import ChimeAPI

/// What an app connection may do (see `ClientIdentity`): act for itself only, and never make the user's
/// decisions. The user (the CLI, the web page) may do everything.
///
/// - Routes that name an app (`/v1/apps/{app}/…`) must name the app itself: no reading another app's
///   lists, removing its notifications, answering for it, or taking its event stream.
/// - The user's decisions and what spans apps are the user's alone: deciding authorization, changing
///   settings, registering an app (its launch command runs on a response), Do Not Disturb, the lists
///   and events of every app, the list of apps. Asking for authorization is the app's (the user answers).
public enum AppConfinement {
    static let userOnly: Set<Route> = [
        .decideAuthorization, .updateSettings, .registerApp, .setFocus, .apps, .allPending, .allDelivered, .center, .events, .webLogin,
        .webPush, .subscribeWebPush, .unsubscribeWebPush, .apnsKey, .setAPNsKey, .removeAPNsKey,
    ]

    /// Why `identity` may not call `route` with `parameters`, or `nil` when it may.
    public static func refusal(_ route: Route, parameters: [String: String], identity: ClientIdentity) -> APIError? {
        guard case .app(let app, let sandboxed) = identity else { return nil }
        if userOnly.contains(route) {
            return APIError(.forbidden, "this is the user's to do (with chime or the web page), not an app's; \(app) may act only for itself")
        }
        if let named = parameters["app"], named != app {
            let how = sandboxed ? "its sandbox says it is \(app)" : "it said it is \(app)"
            return APIError(.forbidden, field: "app", "an app may act only for itself: \(how)")
        }
        return nil
    }
}
