/// Parses JSON exactly as RFC 8259 defines it into a `JSONValue`, naming the key path of any error.
///
/// Foundation's parsers on Linux are lenient: `JSONDecoder` and `JSONSerialization` both accept
/// `{"a":1,}` and silently keep one of two repeated keys. An APNs payload is written by one program and
/// read by another, so leniency here only hides bugs in the sender. This parser rejects trailing commas,
/// repeated keys, comments, single quotes, leading zeros, bare control characters in strings, lone
/// surrogate escapes, invalid UTF-8, numbers too large for a `Double`, and nesting deeper than
/// `maximumDepth`. A byte-order mark is not JSON either (RFC 8259 §8.1 lets a parser refuse it).
///
/// Numbers without a fraction or exponent that fit in `Int` become `.int`; every other number becomes
/// `.double`, so `2.0` is `.double(2)`, which `JSONValue` treats as equal to `.int(2)`.
///
/// ```swift
/// let value = try StrictJSONParser.parse(Array(#"{"aps":{"badge":1}}"#.utf8))
/// value["aps"]?["badge"]?.intValue  // 1
/// try StrictJSONParser.parse(Array(#"{"aps":{"badge":1,}}"#.utf8))
/// // ChimeError.invalidPayload (aps): the payload is not valid JSON: a trailing comma
/// ```
///
/// Errors are `ChimeError.invalidPayload` with a fixed message and, as `field`, the key path of the
/// container or key where parsing stopped (`"aps.alert"`, `"aps.alert.loc-args[1]"`), or `nil` at the
/// top level. They never quote the input.
package struct StrictJSONParser {
    /// How many arrays and objects may be nested inside each other.
    static let maximumDepth = 64

    /// - Throws: `ChimeError.invalidPayload` when `bytes` is not exactly one JSON value, optionally
    ///   surrounded by whitespace.
    package static func parse(_ bytes: [UInt8]) throws(ChimeError) -> JSONValue {
        var parser = StrictJSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw parser.error("text follows the JSON value")
        }
        return value
    }

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    private let bytes: [UInt8]
    private var position = 0
    private var path: [PathComponent] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - Values

    private mutating func parseValue() throws(ChimeError) -> JSONValue {
        guard let byte = peek() else { throw error("the text ends too early") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("an unexpected character")
        }
    }

    private mutating func parseObject() throws(ChimeError) -> JSONValue {
        try enterContainer()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) {
            return .object(members)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error(peek() == UInt8(ascii: "}") ? "a trailing comma" : "expected a key in quotes")
            }
            let key = try parseString()
            path.append(.key(key))
            guard members[key] == nil else { throw error("a key appears twice") }
            path.removeLast()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected a colon after a key") }
            skipWhitespace()
            path.append(.key(key))
            members[key] = try parseValue()
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: "}")) {
                break
            }
            guard consume(UInt8(ascii: ",")) else { throw error("expected a comma or a closing brace") }
            skipWhitespace()
        }
        return .object(members)
    }

    private mutating func parseArray() throws(ChimeError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) {
            return .array(elements)
        }
        while true {
            if peek() == UInt8(ascii: "]") {
                throw error("a trailing comma")
            }
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: "]")) {
                break
            }
            guard consume(UInt8(ascii: ",")) else { throw error("expected a comma or a closing bracket") }
            skipWhitespace()
        }
        return .array(elements)
    }

    /// Counts the container just opened against `maximumDepth` and steps over its opening byte.
    ///
    /// `path` has one component per enclosing container, so its length is the current depth.
    private mutating func enterContainer() throws(ChimeError) {
        guard path.count < Self.maximumDepth else {
            throw error("the payload nests deeper than \(Self.maximumDepth) levels")
        }
        position += 1
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(ChimeError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            position + count <= bytes.count && bytes[position..<position + count].elementsEqual(expected)
        }
        guard matches else { throw error("an unexpected character") }
        position += count
        return value
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(ChimeError) -> JSONValue {
        let start = position
        var isInteger = true
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if let next = peek(), isDigit(next) { throw error("a number has a leading zero") }
        } else {
            guard consumeDigits() else { throw error("an invalid number") }
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard consumeDigits() else { throw error("an invalid number") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            isInteger = false
            if !consume(UInt8(ascii: "+")) {
                _ = consume(UInt8(ascii: "-"))
            }
            guard consumeDigits() else { throw error("an invalid number") }
        }
        // The scanned bytes are ASCII digits and signs, so decoding them cannot fail.
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return .int(integer)
        }
        guard let number = Double(text), number.isFinite else {
            throw error("a number is too large")
        }
        return .double(number)
    }

    /// Steps over a run of digits; `false` when there is none.
    private mutating func consumeDigits() -> Bool {
        let start = position
        while let byte = peek(), isDigit(byte) {
            position += 1
        }
        return position > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    // MARK: - Strings

    private mutating func parseString() throws(ChimeError) -> String {
        position += 1  // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("a string is not closed") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw error("a string holds an unescaped control character")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(ChimeError) {
        guard let byte = peek() else { throw error("a string is not closed") }
        position += 1
        let scalar: Unicode.Scalar
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = Unicode.Scalar(byte)
        case UInt8(ascii: "b"): scalar = "\u{08}"
        case UInt8(ascii: "f"): scalar = "\u{0C}"
        case UInt8(ascii: "n"): scalar = "\n"
        case UInt8(ascii: "r"): scalar = "\r"
        case UInt8(ascii: "t"): scalar = "\t"
        case UInt8(ascii: "u"): scalar = try parseUnicodeEscape()
        default: throw error("a string holds an invalid escape")
        }
        utf8.append(contentsOf: String(scalar).utf8)
    }

    /// Reads the hex digits after `\u`, joining a surrogate pair written as two escapes.
    private mutating func parseUnicodeEscape() throws(ChimeError) -> Unicode.Scalar {
        let first = try parseHexQuad()
        switch first {
        case 0xD800..<0xDC00:
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                throw error("a string holds a lone surrogate escape")
            }
            let second = try parseHexQuad()
            guard (0xDC00..<0xE000).contains(second) else {
                throw error("a string holds a lone surrogate escape")
            }
            // A high and a low surrogate always combine to a valid scalar.
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        case 0xDC00..<0xE000:
            throw error("a string holds a lone surrogate escape")
        default:
            // Everything outside the surrogate range below 0x10000 is a valid scalar.
            return Unicode.Scalar(first)!
        }
    }

    private mutating func parseHexQuad() throws(ChimeError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("a string holds an invalid escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a string holds an invalid escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: - Bytes

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    // MARK: - Errors

    /// An error naming where parsing stopped: the key path of the value being read.
    private func error(_ reason: String) -> ChimeError {
        ChimeError(.invalidPayload, field: Self.keyPath(path), "the payload is not valid JSON: \(reason)")
    }

    /// `"aps.alert.loc-args[1]"` for the components aps, alert, loc-args, 1; `nil` for none.
    private static func keyPath(_ components: [PathComponent]) -> String? {
        guard !components.isEmpty else { return nil }
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
