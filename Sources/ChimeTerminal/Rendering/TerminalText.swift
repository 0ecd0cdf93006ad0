/// Text as a terminal shows it: app text made safe to print, widths in columns, lines wrapped to fit.
enum TerminalText {
    /// `text` with everything that could drive the terminal removed: control characters (an app's text
    /// must not move the cursor, change colours or ring the bell: those are the presenter's) and the
    /// bidirectional overrides that make text read differently from what it is. Tabs become spaces; line
    /// breaks stay when `keepsLineBreaks`, else become spaces.
    static func sanitized(_ text: String, keepsLineBreaks: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCarriageReturn:
                continue  // "\r\n" is one break, already written for the "\r"
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}":
                result.append(keepsLineBreaks ? "\n" : " ")
            case "\t":
                result.append(" ")
            case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                continue
            default:
                if scalar.properties.generalCategory == .control { continue }
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// How many columns `text` takes: wide (East Asian, emoji) characters take two, combining marks none.
    static func columns(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control:
                continue
            default:
                break
            }
            if scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value) { continue }  // joiners, selectors
            width = max(width, isWide(scalar) || properties.isEmojiPresentation ? 2 : 1)
        }
        return width
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, the blocks that matter).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` broken into lines of at most `width` columns, at spaces where it can and inside a word only
    /// when the word alone is wider. Line breaks in `text` are kept; an empty text is one empty line.
    static func wrapped(_ text: String, width: Int) -> [String] {
        precondition(width > 0, "a line holds at least one column")
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                var word = Substring(word)
                var wordWidth = columns(word)
                if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    let (head, rest) = split(word, columns: width)
                    lines.append(String(head))
                    word = rest
                    wordWidth = columns(word)
                }
                line = String(word)
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` cut to `width` columns, ending with "…" when something was cut.
    static func truncated(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        return String(split(Substring(text), columns: max(0, width - 1)).head) + "…"
    }

    /// The longest prefix of `text` that fits in `columns` (at least one character, so wrapping always
    /// advances), and the rest.
    private static func split(_ text: Substring, columns limit: Int) -> (head: Substring, rest: Substring) {
        var used = 0
        var end = text.startIndex
        while end < text.endIndex {
            let width = columns(of: text[end])
            if used + width > limit && end > text.startIndex { break }
            used += width
            end = text.index(after: end)
        }
        return (text[..<end], text[end...])
    }
}
