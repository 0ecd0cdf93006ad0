/// What the user is doing when a notification arrives: the facts about the user, not the app, that decide
/// how it is presented.
///
/// The engine reads them from the session (a desktop's Do Not Disturb switch and screen lock, `LANG`) or
/// takes them from the caller, and passes them to `PresentationPolicy` with each delivery. They are a
/// snapshot: when they change (the session unlocks), a presenter that wants to re-render a notification
/// asks the policy again.
///
/// ```swift
/// let evening = UserEnvironment(focus: .on(allowsTimeSensitive: true), isLocked: true,
///                               preferredLanguages: ["ko-KR", "en"])
/// evening.focus.isOn  // true
/// ```
public struct UserEnvironment: Sendable, Hashable {
    /// Whether a focus (Do Not Disturb, Sleep, Work, ...) holds notifications back.
    public enum Focus: Sendable, Hashable {
        /// No focus: notifications alert as their settings say.
        case off
        /// A focus is on. Active notifications go quietly to the list; time-sensitive ones break through
        /// when the focus allows them (`allowsTimeSensitive`, the user's choice for that focus); critical
        /// ones always do. Plain Do Not Disturb is a focus like any other.
        case on(allowsTimeSensitive: Bool)

        /// Whether a focus is on.
        public var isOn: Bool {
            self != .off
        }
    }

    public var focus: Focus
    /// Whether the session is locked. Only the show-previews rule reads it (`.whenAuthenticated` hides
    /// text while locked); where a notification may appear does not depend on it, see
    /// `PresentationDestinations.lockScreen`.
    public var isLocked: Bool
    /// The user's languages, most preferred first (`["ko-KR", "en"]`), for localized text. Empty means
    /// the app's development language.
    public var preferredLanguages: [String]

    public init(focus: Focus = .off, isLocked: Bool = false, preferredLanguages: [String] = []) {
        self.focus = focus
        self.isLocked = isLocked
        self.preferredLanguages = preferredLanguages
    }
}
