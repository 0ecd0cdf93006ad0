/// Whether the user lets the app notify (Apple's `UNAuthorizationStatus`, same raw values).
///
/// ```swift
/// settings.authorizationStatus.allowsDelivery  // false until the user allows, or provisional
/// AuthorizationStatus.provisional.rawValue      // 3
/// ```
///
/// Encoded as the case name (`"notDetermined"`); decoding also accepts the raw value.
public enum AuthorizationStatus: Int, Sendable, Hashable, CaseIterable {
    /// The app has not asked yet.
    case notDetermined = 0
    /// The user refused; adding a request fails with `ChimeError.notificationsNotAllowed`.
    case denied = 1
    /// The user allowed notifications.
    case authorized = 2
    /// Granted without asking because the app requested `.provisional`: notifications go quietly to the
    /// list until the user decides.
    case provisional = 3
    /// Granted for a limited time (Apple's App Clips).
    case ephemeral = 4

    /// Whether notifications may be delivered at all: authorized, provisional or ephemeral.
    public var allowsDelivery: Bool {
        switch self {
        case .authorized, .provisional, .ephemeral: true
        case .notDetermined, .denied: false
        }
    }
}

extension AuthorizationStatus: NamedCaseCodable {
    static let caseNames = ["notDetermined", "denied", "authorized", "provisional", "ephemeral"]
}
