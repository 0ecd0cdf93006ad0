public import Foundation

/// One app's strings table in one language: the contents of a `Localizable.strings` file.
///
/// The `.strings` format is Apple's: `"key" = "value";` entries, `/* */` and `//` comments, backslash
/// escapes (`\"`, `\\`, `\n`, `\t`, `\r`, `\U00E9`), unquoted keys and values made of letters, digits and
/// `_.$:/-`, and `"key";` as shorthand for a value equal to its key. Files are UTF-8 or UTF-16 with a
/// byte-order mark, as Xcode writes them.
///
/// ```swift
/// let table = try StringsTable(parsing: #""TEA_READY_BODY" = "Your %@ is ready";"#)
/// table["TEA_READY_BODY"]  // "Your %@ is ready"
/// ```
public struct StringsTable: Sendable, Hashable {
    public private(set) var entries: [String: String]

    public init(entries: [String: String] = [:]) {
        self.entries = entries
    }

    public subscript(key: String) -> String? { entries[key] }

    /// Parses a `.strings` file's bytes.
    ///
    /// - Throws: `ChimeError.invalidStringsTable` naming the line of the first syntax error, or when the
    ///   bytes are not UTF-8 or BOM-marked UTF-16.
    public init(data: Data) throws(ChimeError) {
        let text: String?
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            text = String(data: data, encoding: .utf16)
        } else {
            let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
            text = String(validating: bytes, as: UTF8.self)
        }
        guard let text else {
            throw ChimeError(.invalidStringsTable, field: "encoding", "a strings table must be UTF-8 or UTF-16 with a byte-order mark")
        }
        try self.init(parsing: text)
    }

    /// Parses the text of a `.strings` file.
    ///
    /// - Throws: `ChimeError.invalidStringsTable` naming the line of the first syntax error.
    public init(parsing text: String) throws(ChimeError) {
        var parser = StringsTableParser(text)
        entries = try parser.parse()
    }
}

/// A hand-written recursive-descent reader for the `.strings` grammar.
private struct StringsTableParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func parse() throws(ChimeError) -> [String: String] {
        var entries: [String: String] = [:]
        while true {
            try skipWhitespaceAndComments()
            guard position < scalars.count else { return entries }
            let key = try readString()
            try skipWhitespaceAndComments()
            if peek == ";" {
                advance()
                entries[key] = key
                continue
            }
            try expect("=", after: "a key")
            try skipWhitespaceAndComments()
            let value = try readString()
            try skipWhitespaceAndComments()
            try expect(";", after: "a value")
            entries[key] = value
        }
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func advance() {
        if scalars[position] == "\n" { line += 1 }
        position += 1
    }

    private func fail(_ message: String) -> ChimeError {
        ChimeError(.invalidStringsTable, field: "line \(line)", message)
    }

    private mutating func expect(_ scalar: Unicode.Scalar, after what: String) throws(ChimeError) {
        guard peek == scalar else { throw fail("expected '\(scalar)' after \(what)") }
        advance()
    }

    private mutating func skipWhitespaceAndComments() throws(ChimeError) {
        while let scalar = peek {
            if scalar.properties.isWhitespace {
                advance()
            } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
                position += 2
                while position + 1 < scalars.count, !(scalars[position] == "*" && scalars[position + 1] == "/") {
                    advance()
                }
                guard position + 1 < scalars.count else { throw fail("a /* comment is not closed") }
                position += 2
            } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "/" {
                while let next = peek, next != "\n" { advance() }
            } else {
                return
            }
        }
    }

    private static func isUnquotedCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.$:/-".unicodeScalars.contains(scalar)
    }

    private mutating func readString() throws(ChimeError) -> String {
        guard let first = peek else { throw fail("expected a string") }
        if first != "\"" {
            guard Self.isUnquotedCharacter(first) else { throw fail("expected a quoted string") }
            var text = String.UnicodeScalarView()
            while let scalar = peek, Self.isUnquotedCharacter(scalar) {
                text.append(scalar)
                advance()
            }
            return String(text)
        }
        advance()
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw fail("a quoted string is not closed") }
            advance()
            switch scalar {
            case "\"":
                return String(text)
            case "\\":
                text.append(try readEscape())
            default:
                text.append(scalar)
            }
        }
    }

    private mutating func readEscape() throws(ChimeError) -> Unicode.Scalar {
        guard let scalar = peek else { throw fail("a quoted string is not closed") }
        advance()
        switch scalar {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "U", "u":
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = peek, digit.isASCII, let nibble = UInt32(String(digit), radix: 16) else {
                    throw fail("\\U needs four hexadecimal digits")
                }
                value = value * 16 + nibble
                advance()
            }
            guard let decoded = Unicode.Scalar(value) else { throw fail("\\U names no Unicode character") }
            return decoded
        default:
            return scalar  // \" \\ \' and any other escaped character stand for themselves
        }
    }
}
