#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// The name of a sound file of the app (Apple's `UNNotificationSoundName`).
///
/// ```swift
/// content.sound = .criticalSoundNamed(.init("warning-sound"), withAudioVolume: 1.00)
/// ```
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// The sound played when a notification is presented (Apple's `UNNotificationSound`).
///
/// ```swift
/// content.sound = UNNotificationSound.default
/// content.sound = UNNotificationSound(named: UNNotificationSoundName("chime.aiff"))
/// content.sound = .defaultCritical                        // needs the .criticalAlert permission
/// ```
///
/// As on Apple, creating a sound never fails. A sound Chime cannot play — an empty name, a critical
/// volume outside 0...1 — makes `add` fail with a `ChimeError` that names it.
// @unchecked Sendable: immutable.
public final class UNNotificationSound: NSObject, NSCopying, @unchecked Sendable {
    let kind: NotificationSound.Kind

    init(kind: NotificationSound.Kind) {
        self.kind = kind
    }

    init(_ sound: NotificationSound) {
        kind = sound.kind
    }

    /// The system's notification sound.
    public static let `default` = UNNotificationSound(kind: .default)
    /// The system's ringtone.
    public static let defaultRingtone = UNNotificationSound(kind: .defaultRingtone)
    /// The system's critical-alert sound, at full volume.
    public static let defaultCritical = UNNotificationSound(kind: .defaultCritical(volume: 1))

    /// A sound file of the app.
    public convenience init(named name: UNNotificationSoundName) {
        self.init(kind: .named(name.rawValue))
    }

    /// The system's critical-alert sound at `volume` (0 silent ... 1 full).
    public static func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(kind: .defaultCritical(volume: volume))
    }

    /// A sound file played as a ringtone.
    public static func ringtoneSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(kind: .ringtone(name.rawValue))
    }

    /// A sound file played as a critical alert, at full volume.
    public static func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(kind: .criticalNamed(name.rawValue, volume: 1))
    }

    /// A sound file played as a critical alert at `volume` (0 silent ... 1 full).
    public static func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(kind: .criticalNamed(name.rawValue, volume: volume))
    }

    /// - Throws: `ChimeError` for an empty name or a volume outside 0...1.
    func notificationSound() throws(ChimeError) -> NotificationSound {
        try NotificationSound(kind)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationSound)?.kind == kind
    }

    public override var hash: Int {
        kind.hashValue
    }
}
#endif
