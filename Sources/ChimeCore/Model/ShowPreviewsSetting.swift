/// When a notification's text may be shown (Apple's `UNShowPreviewsSetting`, same raw values).
///
/// When previews are hidden, a presenter shows the app's name and the category's
/// `hiddenPreviewsBodyPlaceholder` instead of the body, plus the title and subtitle only if the category
/// has `.hiddenPreviewsShowTitle` and `.hiddenPreviewsShowSubtitle`.
///
/// ```swift
/// let showsText = settings.showPreviewsSetting.showsPreviews(sessionUnlocked: session.isUnlocked)
/// ```
///
/// Encoded as the case name (`"whenAuthenticated"`); decoding also accepts the raw value.
public enum ShowPreviewsSetting: Int, Sendable, Hashable, CaseIterable {
    /// Always show the text.
    case always = 0
    /// Show the text only while the session is unlocked.
    case whenAuthenticated = 1
    /// Never show the text.
    case never = 2

    /// Whether the text may be shown now.
    public func showsPreviews(sessionUnlocked: Bool) -> Bool {
        switch self {
        case .always: true
        case .whenAuthenticated: sessionUnlocked
        case .never: false
        }
    }
}

extension ShowPreviewsSetting: NamedCaseCodable {
    static let caseNames = ["always", "whenAuthenticated", "never"]
}
