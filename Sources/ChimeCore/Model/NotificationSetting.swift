/// The state of one notification setting of an app (Apple's `UNNotificationSetting`, same raw values).
///
/// ```swift
/// if settings.soundSetting == .enabled { content.sound = .default }
/// ```
///
/// Encoded as the case name (`"enabled"`); decoding also accepts the raw value.
public enum NotificationSetting: Int, Sendable, Hashable, CaseIterable {
    /// The app did not ask for it, or the system cannot do it.
    case notSupported = 0
    /// The user turned it off.
    case disabled = 1
    /// The user allows it.
    case enabled = 2
}

extension NotificationSetting: NamedCaseCodable {
    static let caseNames = ["notSupported", "disabled", "enabled"]
}
