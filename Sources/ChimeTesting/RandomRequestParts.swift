public import ChimeCore
public import Foundation

/// Random parts of notification requests for tests that compare two writers or readers of the same
/// value: texts made of the pieces every encoding must take care of (empty, non-ASCII, NUL and other
/// control characters, quotes, backslashes, slashes, a long run), and date components that a calendar
/// trigger accepts, each component present or not.
///
/// ```swift
/// var random = SeededGenerator(seed: 7)
/// let title = RandomRequestParts.localizable(using: &random)
/// ```
public enum RandomRequestParts {
    static let pieces = [
        "", "a", "Order", "한글", "☕️", "\u{0}", "\u{1F}", "\"\\", "\n\t\r\u{8}\u{C}", "/", "\u{2028}", "\u{7F}", "é", String(repeating: "x", count: 200),
    ]

    /// Up to three pieces joined.
    public static func text(using random: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// A literal, or a localized text with up to three arguments.
    public static func localizable(using random: inout some RandomNumberGenerator) -> LocalizableText {
        guard Bool.random(using: &random) else { return .literal(text(using: &random)) }
        let key = "K" + text(using: &random)
        return .localized(key: key, arguments: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(using: &random) })
    }

    /// Content with every text, identifier and number set at random and each optional one present or not;
    /// the relevance score is one of `relevanceScores` (the callers differ in which numbers they can take).
    public static func content(relevanceScores: [Double], using random: inout some RandomNumberGenerator) -> NotificationContent {
        var content = NotificationContent(title: localizable(using: &random), subtitle: localizable(using: &random), body: localizable(using: &random))
        content.badge = Bool.random(using: &random) ? Int.random(in: 0...Int.max, using: &random) : nil
        content.categoryIdentifier = text(using: &random)
        content.threadIdentifier = text(using: &random)
        content.targetContentIdentifier = Bool.random(using: &random) ? text(using: &random) : nil
        content.interruptionLevel = [.passive, .active, .timeSensitive, .critical].randomElement(using: &random)!
        content.relevanceScore = relevanceScores.randomElement(using: &random)!
        content.filterCriteria = Bool.random(using: &random) ? text(using: &random) : nil
        content.launchImageName = text(using: &random)
        content.summaryArgument = text(using: &random)
        content.summaryArgumentCount = Int.random(in: 0...Int.max, using: &random)
        return content
    }

    /// At least one of the numbered components, each in its range (a weekday only without a year, so the
    /// date need not fall on it; days up to 28, so every month has them).
    public static func dateComponents(using random: inout some RandomNumberGenerator) -> DateComponents {
        func maybe(_ range: ClosedRange<Int>) -> Int? { Bool.random(using: &random) ? Int.random(in: range, using: &random) : nil }
        var components = DateComponents()
        repeat {
            components.era = maybe(1...1)
            components.year = maybe(1...9999)
            components.month = maybe(1...12)
            components.day = maybe(1...28)
            components.hour = maybe(0...23)
            components.minute = maybe(0...59)
            components.second = maybe(0...59)
            components.nanosecond = maybe(0...999_999_999)
            components.weekday = components.year == nil ? maybe(1...7) : nil
            components.weekdayOrdinal = maybe(0...3).map { [-5, -1, 1, 5][$0] }
            components.quarter = maybe(1...4)
            components.weekOfMonth = maybe(1...6)
            components.weekOfYear = maybe(1...53)
            components.yearForWeekOfYear = maybe(1...9999)
        } while components == DateComponents()
        return components
    }
}
