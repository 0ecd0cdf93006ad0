import ChimeCore
import Foundation

extension FuzzTarget {
    /// ChimeCore's APNs payload codec: accepts at most 4 KB, and what it accepts writes back (when that
    /// fits 4 KB too) to a payload it reads as the same.
    static let apnsPayload = FuzzTarget("apns-payload", "APNs payloads (APNsPayload, its strict JSON)") { bytes in
        guard let payload = try? APNsPayload(jsonData: Data(bytes)) else { return .refused }
        guard bytes.count <= APNsPayload.maximumSize else { return .violated("accepted \(bytes.count) bytes, over the 4 KB rule") }
        guard let written = try? payload.jsonData() else { return .held }  // refusing to write over 4 KB is the rule too
        guard written.count <= APNsPayload.maximumSize else { return .violated("wrote \(written.count) bytes, over the 4 KB rule") }
        guard let again = try? APNsPayload(jsonData: written) else {
            return .violated("could not read what it wrote: \(String(decoding: written, as: UTF8.self))")
        }
        return again == payload ? .held : .violated("read back differently: \(String(decoding: written, as: UTF8.self))")
    }

    /// The strict JSON parser under the APNs codec: a value it accepts, written by Foundation's encoder,
    /// parses back equal.
    static let strictJSON = FuzzTarget("strict-json", "strict JSON (StrictJSONParser)") { bytes in
        guard let value = try? StrictJSONParser.parse(bytes) else { return .refused }
        guard let written = try? JSONEncoder().encode(value) else { return .violated("Foundation could not write an accepted value") }
        guard let again = try? StrictJSONParser.parse(Array(written)) else { return .violated("could not read \(String(decoding: written, as: UTF8.self))") }
        return again == value ? .held : .violated("read back differently: \(String(decoding: written, as: UTF8.self))")
    }

    /// `Localizable.strings` files: the same text in UTF-8 and in UTF-16 (with its byte-order mark) is the
    /// same table, or refused both ways.
    static let stringsFile = FuzzTarget("strings-file", "Localizable.strings files (StringsTable, UTF-8 and UTF-16)") { bytes in
        let table = try? StringsTable(data: Data(bytes))
        guard let source = text(bytes), !source.hasPrefix("\u{FEFF}") else { return table == nil ? .refused : .held }
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in source.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let wide = try? StringsTable(data: Data(utf16))
        guard table == wide else {
            return .violated("UTF-8 read \(table.map { "\($0.entries.count) entries" } ?? "nothing"), UTF-16 \(wide.map { "\($0.entries.count) entries" } ?? "nothing")")
        }
        return table == nil ? .refused : .held
    }

    /// Instants as text: what is read writes back (in UTC) to text read as the same instant, to the
    /// microsecond the text keeps.
    static let instantText = FuzzTarget("instant-text", "RFC 3339 instants (InstantText)") { bytes in
        guard let source = text(bytes), let date = try? InstantText.parse(source) else { return .refused }
        guard InstantText.supportedRange.contains(date) else { return .violated("read \(date), outside the supported years") }
        let written = InstantText.utc(date)
        guard let again = try? InstantText.parse(written) else { return .violated("could not read \(written)") }
        // Written to the microsecond: the same instant within that (or within what a Date holds so far from
        // 2001: about 8 µs in the year 1), and the text a fixed point.
        let precision = max(1e-6, 2 * abs(date.timeIntervalSinceReferenceDate).ulp)
        guard abs(again.timeIntervalSince(date)) <= precision, InstantText.utc(again) == written else {
            return .violated("\(written) reads as \(again.timeIntervalSince1970), not \(date.timeIntervalSince1970)")
        }
        return .held
    }
}
