/// Reads JSON text value by value, without building a tree, for the hand-written readers of the bodies
/// that come in large numbers (`RecipientRequest.read(from:)`). Several times cheaper than `JSONDecoder`,
/// which goes through `Codable`'s containers for every key.
///
/// It takes only what it is sure of: RFC 8259 JSON (no trailing commas, comments, leading zeros, bare
/// control characters, invalid UTF-8, lone surrogate escapes), no key twice in one object (`JSONDecoder`
/// keeps the first, and a reader that took the last would disagree), numbers a `Double` holds, at most
/// `maximumDepth` levels when it skips a value. On anything else — and on any value its caller does not
/// expect — it throws `Declined`, and the caller decodes the text with `JSONDecoder` instead, which gives
/// the answer or the error. So a reader built on it must only ever agree with `JSONDecoder` or decline.
struct WireJSONReader {
    /// The text is not something this reader takes; `JSONDecoder` decides.
    struct Declined: Error {}

    static let maximumDepth = 64
    /// The most keys one object may have.
    static let maximumKeys = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int

    /// A reader of `bytes`, which must outlive it.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = 0
    }

    /// Whether only whitespace is left.
    mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return position == bytes.count
    }

    // MARK: Containers

    /// Reads an object, handing each member's key to `member`, which must read or skip its value.
    mutating func readObject(_ member: (inout WireJSONReader, String) throws(Declined) -> Void) throws(Declined) {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if try take(UInt8(ascii: "}")) { return }
        var keys: [String] = []
        keys.reserveCapacity(16)
        repeat {
            skipWhitespace()
            let key = try readString()
            // The repeated-key check is quadratic: an object this reader's callers expect is small.
            guard keys.count < Self.maximumKeys, !keys.contains(key) else { throw Declined() }
            keys.append(key)
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            skipWhitespace()
        } while try take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// Reads `[]`, or declines.
    mutating func readEmptyArray() throws(Declined) {
        try expect(UInt8(ascii: "["))
        try expect(UInt8(ascii: "]"))
    }

    /// Reads `{}`, or declines.
    mutating func readEmptyObject() throws(Declined) {
        try expect(UInt8(ascii: "{"))
        try expect(UInt8(ascii: "}"))
    }

    /// Reads `null` if it comes next.
    mutating func readNull() throws(Declined) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "n") else { return false }
        try expectWord("null")
        return true
    }

    /// Whether a string comes next.
    mutating func nextIsString() -> Bool {
        skipWhitespace()
        return position < bytes.count && bytes[position] == UInt8(ascii: "\"")
    }

    /// Steps over any valid value.
    mutating func skipValue() throws(Declined) {
        try skipValue(depth: 0)
    }

    private mutating func skipValue(depth: Int) throws(Declined) {
        skipWhitespace()
        guard depth < Self.maximumDepth, position < bytes.count else { throw Declined() }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try readObject { reader, _ throws(Declined) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            position += 1
            skipWhitespace()
            if try take(UInt8(ascii: "]")) { return }
            repeat {
                try skipValue(depth: depth + 1)
                skipWhitespace()
            } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): try expectWord("null")
        default: _ = try readDouble()
        }
    }

    // MARK: Scalars

    mutating func readBool() throws(Declined) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw Declined() }
        if bytes[position] == UInt8(ascii: "t") {
            try expectWord("true")
            return true
        }
        try expectWord("false")
        return false
    }

    /// An integer written without a fraction or exponent, as `Int` holds it.
    mutating func readInt() throws(Declined) -> Int {
        let digits = try numberText()
        guard !digits.hasFraction else { throw Declined() }
        var value = 0
        var index = digits.range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        while index < digits.range.upperBound {
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = shifted.addingReportingOverflow(Int(bytes[index] &- UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { throw Declined() }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    /// Any number, rounded to the nearest `Double` as `JSONDecoder` rounds it; declines one too large or
    /// too small for a normal `Double` (the decoder refuses some of those).
    mutating func readDouble() throws(Declined) -> Double {
        let number = try numberText()
        let text = UnsafeBufferPointer(rebasing: bytes[number.range])
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { throw Declined() }
        if value.isZero {
            // Only a zero written as one: `1e-400` is not.
            let mantissa = text.prefix { $0 | 0x20 != UInt8(ascii: "e") }
            guard mantissa.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else { throw Declined() }
        } else if !value.isNormal {
            throw Declined()
        }
        return value
    }

    mutating func readString() throws(Declined) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        // The common case: no escapes, so the text is the bytes between the quotes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try Self.validString(text)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Declined() }
            position += 1
        }
        var unescaped = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try unescaped.withUnsafeBufferPointer { text throws(Declined) in try Self.validString(text) }
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw Declined() }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escaped)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { throw Declined() }
                        position += 2
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw Declined() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw Declined()
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw Declined() }
                    unescaped.append(contentsOf: UTF8.encode(unicode)!)
                default: throw Declined()
                }
            default:
                guard byte >= 0x20 else { throw Declined() }
                unescaped.append(byte)
            }
        }
        throw Declined()
    }

    /// The string these bytes encode in UTF-8, or `Declined` when they are not UTF-8. ASCII, the common
    /// case, needs no check; otherwise the decoding repairs what is not UTF-8 (U+FFFD), so the bytes are
    /// UTF-8 exactly when the string's are the same.
    private static func validString(_ text: UnsafeBufferPointer<UInt8>) throws(Declined) -> String {
        let string = String(decoding: text, as: UTF8.self)
        guard text.allSatisfy({ $0 < 0x80 }) || string.utf8.elementsEqual(text) else { throw Declined() }
        return string
    }

    // MARK: Lexing

    private mutating func hexQuad() throws(Declined) -> UInt32 {
        guard position + 4 <= bytes.count else { throw Declined() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Declined()
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// The extent of a number in RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func numberText() throws(Declined) -> (range: Range<Int>, hasFraction: Bool) {
        skipWhitespace()
        let start = position
        func isDigit(_ index: Int) -> Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }
        func digits() throws(Declined) {
            guard isDigit(position) else { throw Declined() }
            while isDigit(position) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(position) else { throw Declined() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            guard !isDigit(position) else { throw Declined() }
        } else {
            try digits()
        }
        var hasFraction = false
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            try digits()
            hasFraction = true
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            try digits()
            hasFraction = true
        }
        return (start..<position, hasFraction)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) throws(Declined) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws(Declined) {
        guard try take(byte) else { throw Declined() }
    }

    private mutating func expectWord(_ word: StaticString) throws(Declined) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Declined() }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw Declined() }
        position += count
    }
}
