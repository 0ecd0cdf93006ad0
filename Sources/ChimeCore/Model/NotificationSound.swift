/// The sound played when a notification is presented (Apple's `UNNotificationSound`).
///
/// Build one with the static members, which validate what they are given, so every `NotificationSound`
/// is valid: names are not empty, and critical volumes are finite and within `0...1`. A name is a sound
/// file name (`"warning-sound.aiff"`), looked up by the presenter in the app's sounds directory.
///
/// ```swift
/// content.sound = .default
/// content.sound = try .named("chime.aiff")
/// content.sound = try .criticalNamed("warning-sound.aiff", volume: 0.8)
/// ```
///
/// Critical sounds play even when the device is muted or in Do Not Disturb, and need the critical-alert
/// permission. Without an explicit volume they play at full volume (1.0).
public struct NotificationSound: Sendable, Hashable {
    /// Which sound, with what it needs. Constructing a `Kind` checks nothing; `NotificationSound(_:)`
    /// does.
    public enum Kind: Sendable, Hashable {
        /// The system's notification sound (`UNNotificationSound.default`).
        case `default`
        /// The system's ringtone (`UNNotificationSound.defaultRingtone`).
        case defaultRingtone
        /// A sound file of the app (`UNNotificationSound(named:)`).
        case named(String)
        /// A sound file played as a ringtone (`UNNotificationSound.ringtoneSoundNamed(_:)`).
        case ringtone(String)
        /// The system's critical-alert sound (`UNNotificationSound.defaultCriticalSound(withAudioVolume:)`).
        case defaultCritical(volume: Float)
        /// A sound file played as a critical alert (`UNNotificationSound.criticalSoundNamed(_:withAudioVolume:)`).
        case criticalNamed(String, volume: Float)
    }

    public let kind: Kind

    /// - Throws: `ChimeError.invalidIdentifier` when a sound name is empty; `ChimeError.valueOutOfRange`
    ///   when a critical volume is not a finite number within `0...1`.
    public init(_ kind: Kind) throws(ChimeError) {
        switch kind {
        case .default, .defaultRingtone:
            break
        case .named(let name), .ringtone(let name):
            try Self.check(name: name)
        case .defaultCritical(let volume):
            try Self.check(volume: volume)
        case .criticalNamed(let name, let volume):
            try Self.check(name: name)
            try Self.check(volume: volume)
        }
        self.kind = kind
    }

    /// Apple's `UNNotificationSound(named:)`.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `name` is empty.
    public init(named name: String) throws(ChimeError) {
        try self.init(.named(name))
    }

    /// The system's notification sound.
    public static let `default` = NotificationSound(unchecked: .default)

    /// The system's ringtone.
    public static let defaultRingtone = NotificationSound(unchecked: .defaultRingtone)

    /// The system's critical-alert sound at full volume.
    public static let defaultCritical = NotificationSound(unchecked: .defaultCritical(volume: 1))

    /// The system's critical-alert sound at `volume` (0 silent ... 1 full).
    ///
    /// - Throws: `ChimeError.valueOutOfRange` when `volume` is not a finite number within `0...1`.
    public static func defaultCritical(volume: Float) throws(ChimeError) -> NotificationSound {
        try NotificationSound(.defaultCritical(volume: volume))
    }

    /// A sound file of the app.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `name` is empty.
    public static func named(_ name: String) throws(ChimeError) -> NotificationSound {
        try NotificationSound(.named(name))
    }

    /// A sound file played as a ringtone.
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `name` is empty.
    public static func ringtone(_ name: String) throws(ChimeError) -> NotificationSound {
        try NotificationSound(.ringtone(name))
    }

    /// A sound file played as a critical alert at `volume` (0 silent ... 1 full).
    ///
    /// - Throws: `ChimeError.invalidIdentifier` when `name` is empty; `ChimeError.valueOutOfRange` when
    ///   `volume` is not a finite number within `0...1`.
    public static func criticalNamed(_ name: String, volume: Float = 1) throws(ChimeError) -> NotificationSound {
        try NotificationSound(.criticalNamed(name, volume: volume))
    }

    /// The sound file name, or `nil` for a system sound.
    public var name: String? {
        switch kind {
        case .named(let name), .ringtone(let name), .criticalNamed(let name, _): name
        case .default, .defaultRingtone, .defaultCritical: nil
        }
    }

    /// The playback volume of a critical sound, or `nil` for a sound that follows the system volume.
    public var volume: Float? {
        switch kind {
        case .defaultCritical(let volume), .criticalNamed(_, let volume): volume
        case .default, .defaultRingtone, .named, .ringtone: nil
        }
    }

    /// Whether the sound plays as a critical alert.
    public var isCritical: Bool {
        volume != nil
    }

    private init(unchecked kind: Kind) {
        self.kind = kind
    }

    private static func check(name: String) throws(ChimeError) {
        guard !name.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "name", "a sound name must not be empty")
        }
    }

    private static func check(volume: Float) throws(ChimeError) {
        guard volume.isFinite, (0...1).contains(volume) else {
            throw ChimeError(.valueOutOfRange, field: "volume", "a critical sound's volume must be between 0 and 1")
        }
    }
}

extension NotificationSound: Codable {
    private enum CodingKeys: String, CodingKey { case kind, name, volume }

    private enum KindName: String, Codable {
        case `default`, defaultRingtone, named, ringtone, defaultCritical, criticalNamed
    }

    /// Decodes `{"kind": "criticalNamed", "name": "warning-sound.aiff", "volume": 0.8}` and re-validates
    /// it. A missing volume means full volume; a missing name is rejected like an empty one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        let volume = try container.decodeIfPresent(Float.self, forKey: .volume) ?? 1
        switch try container.decode(KindName.self, forKey: .kind) {
        case .default: try self.init(.default)
        case .defaultRingtone: try self.init(.defaultRingtone)
        case .named: try self.init(.named(name))
        case .ringtone: try self.init(.ringtone(name))
        case .defaultCritical: try self.init(.defaultCritical(volume: volume))
        case .criticalNamed: try self.init(.criticalNamed(name, volume: volume))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let kindName: KindName = switch kind {
        case .default: .default
        case .defaultRingtone: .defaultRingtone
        case .named: .named
        case .ringtone: .ringtone
        case .defaultCritical: .defaultCritical
        case .criticalNamed: .criticalNamed
        }
        try container.encode(kindName, forKey: .kind)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(volume, forKey: .volume)
    }
}
