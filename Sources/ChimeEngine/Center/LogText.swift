/// Text made safe for a log line.
///
/// Log messages carry identifiers and names that clients choose. Written raw, a line break in one would
/// start a forged line (`x\n2026-01-01T00:00:00.000Z chimed: error: …`), and terminal or bidi controls
/// would rewrite what a reader of the log sees. Every control character (Unicode category Cc) and every
/// bidirectional formatting character is written as an escape instead, so one message is one line that
/// shows what was sent.
public enum LogText {
    public static func escaped(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: needsEscape) else { return message }
        var result = ""
        result.reserveCapacity(message.utf8.count + 8)
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        // Left-to-right and right-to-left marks, embeddings, overrides and isolates.
        switch scalar.value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
