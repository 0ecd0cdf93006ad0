/// How many terminal columns text takes: East Asian wide and fullwidth characters (Hangul, CJK, kana) and
/// emoji take two, combining marks and other zero-width characters none, everything else one — what
/// `wcwidth(3)` answers, which the tests check it against.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// A grapheme's width: two when any of its scalars is wide (an emoji with its modifiers and joiners
    /// is one wide grapheme), none when all are zero-width, else one.
    static func of(_ character: Character) -> Int {
        // A flag is two regional indicators, drawn as one wide picture; one alone is a letter.
        if character.unicodeScalars.count > 1, let first = character.unicodeScalars.first, regionalIndicators.contains(first.value) { return 2 }
        var width = 0
        for scalar in character.unicodeScalars where !isZeroWidth(scalar) {
            if isWide(scalar) { return 2 }
            width = 1
        }
        return width
    }

    /// `text` cut to at most `columns` columns, ending in "…" when it was cut.
    static func truncated(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        // Format characters take no room, but the soft hyphen and the prepended concatenation marks
        // (Arabic number signs, which span the digits after them) are drawn.
        case .format: return scalar.value != 0x00AD && !prependedConcatenationMarks.contains(scalar.value)
        // Hangul medial vowels and final consonants join the syllable before them.
        default: return (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value) || scalar.value == 0x1171E
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation && !regionalIndicators.contains(scalar.value) { return true }
        return wideRanges.contains { $0.contains(scalar.value) }
    }

    private static let regionalIndicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF

    private static let prependedConcatenationMarks: Set<UInt32> = [
        0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
    ]

    /// East Asian Width W and F (UAX #11) outside the emoji, with the Yijing hexagrams, which glibc and
    /// terminals draw wide too.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FFF, 0x17000...0x18D8F, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
