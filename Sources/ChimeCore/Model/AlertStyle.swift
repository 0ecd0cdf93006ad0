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

    var name: String {
        switch self {
        case .none: "none"
        case .banner: "banner"
        case .alert: "alert"
        }
    }
}

extension AlertStyle: Codable {
    public init(from decoder: any Decoder) throws {
        self = try NamedCaseCoding.decode(from: decoder, name: \.name)
    }

    public func encode(to encoder: any Encoder) throws {
        try NamedCaseCoding.encode(name, to: encoder)
    }
}
