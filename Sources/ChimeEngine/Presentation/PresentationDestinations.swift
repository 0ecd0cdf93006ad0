/// Where a notification appears.
///
/// An empty set means the notification is shown nowhere, although it stays in the app's list of
/// delivered notifications (`getDeliveredNotifications`) until it is removed.
///
/// ```swift
/// presentation.destinations                        // [.banner, .list, .lockScreen]
/// presentation.destinations.contains(.banner)      // pop it up now
/// ```
///
/// Destinations say where the notification *may* appear, not what the session shows this instant: the
/// policy offers `.lockScreen` whenever the user's settings allow it, and a presenter shows it there only
/// while the session is locked (now, or when it locks while the notification is still listed). An
/// unlocked session shows the `.banner`; a presenter without a lock screen ignores `.lockScreen`.
public struct PresentationDestinations: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Pops up on arrival (a freedesktop notification bubble, a terminal line, a web toast).
    public static let banner = PresentationDestinations(rawValue: 1 << 0)
    /// Kept in the notification list (a desktop's message tray, the web notification center).
    public static let list = PresentationDestinations(rawValue: 1 << 1)
    /// Shown on the lock screen while the session is locked, waking the screen on arrival.
    public static let lockScreen = PresentationDestinations(rawValue: 1 << 2)
}
