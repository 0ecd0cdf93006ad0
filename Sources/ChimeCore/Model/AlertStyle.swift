/// How the user wants the app's notifications to appear when they arrive (Apple's `UNAlertStyle`, same
/// raw values).
///
/// ```swift
/// settings.alertStyle == .alert  // stays on screen until the user acts
/// ```
///
/// Encoded as the case name (`"banner"`); decoding also accepts the raw value.
public enum AlertStyle: Int, Sendable, Hashable, CaseIterable {
    /// Nothing appears on arrival; the notification goes to the list only.
    case none = 0
    /// A banner that goes away by itself.
    case banner = 1
    /// A banner that stays until the user acts on it (freedesktop: no expiry timeout).
    case alert = 2
}

extension AlertStyle: NamedCaseCodable {
    static let caseNames = ["none", "banner", "alert"]
}
