/// How strongly a notification may interrupt the user (Apple's `UNNotificationInterruptionLevel`).
///
/// Raw values are Apple's; `apnsName` is the `interruption-level` string of an APNs payload. Levels are
/// ordered by urgency, so `level >= .timeSensitive` asks whether it breaks through a focus.
///
/// ```swift
/// InterruptionLevel(apnsName: "time-sensitive")  // .timeSensitive
/// InterruptionLevel.critical.rawValue            // 3
/// ```
///
/// Encoded as its APNs name (`"time-sensitive"`); decoding also accepts the raw integer.
public enum InterruptionLevel: Int, Sendable, Hashable, CaseIterable {
    /// Added to the notification list quietly: no sound, no banner, never lights the screen.
    case passive = 0
    /// Presented at once, with sound, unless a focus or Do Not Disturb holds it back. The default.
    case active = 1
    /// Presented at once and breaks through a focus, unless the user turned that off.
    case timeSensitive = 2
    /// Presented at once with sound, bypassing focus, Do Not Disturb and the mute switch. Needs the
    /// critical-alert permission.
    case critical = 3

    public static let `default` = InterruptionLevel.active

    /// The value of `aps.interruption-level` in an APNs payload.
    public var apnsName: String {
        switch self {
        case .passive: "passive"
        case .active: "active"
        case .timeSensitive: "time-sensitive"
        case .critical: "critical"
        }
    }

    /// The level named `apnsName` in an APNs payload, or `nil` for an unknown name.
    public init?(apnsName: String) {
        guard let level = Self.allCases.first(where: { $0.apnsName == apnsName }) else { return nil }
        self = level
    }
}

extension InterruptionLevel: Comparable {
    public static func < (lhs: InterruptionLevel, rhs: InterruptionLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension InterruptionLevel: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let name = try? container.decode(String.self) {
            guard let level = InterruptionLevel(apnsName: name) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown interruption level")
            }
            self = level
        } else {
            let raw = try container.decode(Int.self)
            guard let level = InterruptionLevel(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown interruption level")
            }
            self = level
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(apnsName)
    }
}
