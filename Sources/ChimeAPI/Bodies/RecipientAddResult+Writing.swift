public import Foundation

extension RecipientAddResult {
    /// The answer's JSON, the same bytes `WireFormat.encoder()` writes (sorted keys, dates as seconds,
    /// slashes unescaped), about four times faster: an add of 10,000 requests answers with all of them.
    public func wireJSON() throws -> Data {
        var writer = WireJSONWriter()
        writer.raw(#"{"added":["#)
        for (index, item) in added.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw(#"{"app":"#)
            writer.string(item.app)
            writer.raw(#","identifier":"#)
            writer.string(item.identifier)
            if let date = item.nextFireDate {
                writer.raw(#","nextFireDate":"#)
                // A number the writer cannot write as the encoder does: the encoder writes the answer.
                guard writer.seconds(date) else { return try WireFormat.encoder().encode(self) }
            }
            writer.raw(#","recipient":"#)
            writer.string(item.recipient)
            writer.raw("}")
        }
        writer.raw("]}")
        return Data(writer.bytes)
    }
}

/// Writes JSON text as `WireFormat.encoder()` does, for the answers written by hand.
struct WireJSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A string in quotes: `"` and `\` escaped, the control characters as `\n`, `\t`… or `\u00XX`.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw(#"\""#)
            case UInt8(ascii: "\\"): raw(#"\\"#)
            case 0x08: raw(#"\b"#)
            case 0x0C: raw(#"\f"#)
            case 0x0A: raw(#"\n"#)
            case 0x0D: raw(#"\r"#)
            case 0x09: raw(#"\t"#)
            case ..<0x20:
                raw(#"\u00"#)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A date as seconds since 1970; `false`, writing nothing, for one whose text might differ from the
    /// encoder's (see `number`).
    mutating func seconds(_ date: Date) -> Bool {
        (try? number(date.timeIntervalSince1970)) != nil
    }

    /// A form the writer does not write as the encoder does; the caller writes the value with the encoder.
    struct Declined: Error {}

    /// A number as the encoder writes a `Double`: a whole number without a fraction, any other as the
    /// shortest text that reads back as the same number. Declined, writing nothing, beyond ±10^15 or within
    /// 10^-4 of zero (where the encoder writes exponents), and for -0 and non-finite numbers.
    mutating func number(_ value: Double) throws(Declined) {
        guard value.isFinite, value.magnitude < 1e15, value.magnitude >= 1e-4 || value == 0, value.sign == .plus || value != 0 else { throw Declined() }
        if value == value.rounded(.towardZero) {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// An integer in decimal.
    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
