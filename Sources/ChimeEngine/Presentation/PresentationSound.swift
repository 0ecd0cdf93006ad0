/// The sound a presenter plays for a notification, after the user's settings and the critical-alert
/// permission have been applied.
///
/// Unlike `NotificationSound`, which is what the app asked for, this is what to play: a critical sound
/// appears here only when the user allows the app's critical alerts; otherwise the policy has already
/// turned it into the ordinary sound of the same file. Silence is `nil` (`Presentation.sound`).
///
/// ```swift
/// switch presentation.sound {
/// case nil: break                                          // silent
/// case .critical(let name, let volume): play(name ?? "alarm", volume: volume, overridingMute: true)
/// case .named(let name): play(name)
/// default: playSystemSound()
/// }
/// ```
public enum PresentationSound: Sendable, Hashable {
    /// The system's notification sound, at the system volume.
    case `default`
    /// The system's ringtone.
    case defaultRingtone
    /// A sound file of the app (`"chime.aiff"`), looked up in the app's sounds directory.
    case named(String)
    /// A sound file of the app played as a ringtone.
    case ringtone(String)
    /// A critical alert: played over mute, focus and Do Not Disturb at `volume` (0 silent ... 1 full).
    /// `named` is the app's sound file, or `nil` for the system's critical-alert sound.
    case critical(named: String?, volume: Float)

    /// Whether the sound plays as a critical alert.
    public var isCritical: Bool {
        if case .critical = self { return true }
        return false
    }
}
