public import ChimeEngine

/// What the desktop session says about the user right now: whether notifications are held back (Do Not
/// Disturb) and whether the screen is locked. `nil` means the desktop does not say.
///
/// ```swift
/// let state = DesktopEnvironmentState(notificationsInhibited: true, sessionLocked: false)
/// state.applied(to: UserEnvironment()).focus   // .on(allowsTimeSensitive: true)
/// ```
public struct DesktopEnvironmentState: Sendable, Hashable {
    /// The notification server's `Inhibited` property (KDE Plasma, the spec's newer drafts): `true` while
    /// the user's Do Not Disturb is on. `nil` when the server has no such property, or there is no
    /// server.
    public var notificationsInhibited: Bool?
    /// dunst's own Do Not Disturb, its `paused` property (`dunstctl set-paused true`, interface
    /// `org.dunstproject.cmd0`): `nil` when the server is not dunst.
    public var notificationsPaused: Bool?
    /// GNOME's `show-banners` setting, which its Do Not Disturb switch turns off: `nil` when the session
    /// is not GNOME's.
    public var bannersShown: Bool?
    /// logind's `LockedHint` for the user's session (system bus). `nil` when there is no system bus (as in
    /// most containers), no logind, or no session to be found.
    public var sessionLocked: Bool?

    public init(notificationsInhibited: Bool? = nil, notificationsPaused: Bool? = nil, bannersShown: Bool? = nil, sessionLocked: Bool? = nil) {
        self.notificationsInhibited = notificationsInhibited
        self.notificationsPaused = notificationsPaused
        self.bannersShown = bannersShown
        self.sessionLocked = sessionLocked
    }

    /// The desktop's Do Not Disturb, from whichever of its switches the server has: on when any is on;
    /// `nil` when the server has none.
    public var doNotDisturb: Bool? {
        guard notificationsInhibited != nil || notificationsPaused != nil || bannersShown != nil else { return nil }
        return notificationsInhibited == true || notificationsPaused == true || bannersShown == false
    }

    /// `environment` with what the desktop says put in: a focus while notifications are inhibited (one
    /// that lets time-sensitive notifications through when `focusAllowsTimeSensitive`, as a focus does by
    /// default on iOS), and the lock state. What the desktop does not say (`nil`) is left as it was.
    public func applied(to environment: UserEnvironment, focusAllowsTimeSensitive: Bool = true) -> UserEnvironment {
        var result = environment
        if let doNotDisturb {
            result.focus = doNotDisturb ? .on(allowsTimeSensitive: focusAllowsTimeSensitive) : .off
        }
        if let sessionLocked { result.isLocked = sessionLocked }
        return result
    }
}
