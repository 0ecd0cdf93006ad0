public import ChimeCore

/// Decides whether the user allows an app's notifications, when the app asks for the first time.
///
/// Authorization is the user's decision. On a desktop the decider shows a prompt through the presenter —
/// a presenter that can ask (a notification with Allow / Don't Allow) conforms to this protocol too and is
/// passed as the engine's `authorization`; headless services use a fixed policy (`FixedAuthorization`);
/// tests use `SimulatedUser`. Once decided, the answer is stored and the app is not asked again.
public protocol AuthorizationResolver: Sendable {
    /// Whether the user allows `appIdentifier` to notify with `options`; `nil` when nobody could answer
    /// (no input, the prompt went away): the app stays undecided and may ask again later.
    func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool?
}

/// A fixed answer, for headless use and for tests that do not care: allow everything, or nothing.
public struct FixedAuthorization: AuthorizationResolver {
    public let allows: Bool

    public init(allows: Bool) {
        self.allows = allows
    }

    public static let allowAll = FixedAuthorization(allows: true)
    public static let denyAll = FixedAuthorization(allows: false)

    public func decide(appIdentifier: String, options: AuthorizationOptions) async -> Bool? {
        allows
    }
}
