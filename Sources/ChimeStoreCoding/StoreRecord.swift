public import ChimeCore
import Foundation

/// How stores turn records (apps, pending requests, delivered notifications, missed fires) into bytes and
/// back: one codec, so that every store reads what another wrote.
///
/// Records are written in one of the two forms of `StoreRecordFormat`: binary forms of what `Codable`
/// produces, compact (what the SQLite store writes) or wide (what the PostgreSQL store writes). Every
/// form is read back, and so are blobs written as JSON — by the first versions of the SQLite store, or for
/// a value whose `encode(to:)` the binary encoder cannot stream: a binary record starts with a byte no
/// JSON text starts with.
///
/// ```swift
/// let bytes = try StoreRecord.encode(request, form: .compact)
/// let again = try StoreRecord.decode(NotificationRequest.self, from: bytes)
/// ```
public enum StoreRecord {
    /// How a record is written.
    public enum Form: Sendable {
        /// Container sizes as varints, the keys of Chime's types as numbers: the smallest records.
        case compact
        /// Container sizes in 8 bytes, every key as text: what every version reads.
        case wide
    }

    public static func encode<Value: Encodable>(_ value: Value, form: Form) throws -> [UInt8] {
        do {
            return try StoreRecordEncoder.encode(value, compact: form == .compact)
        } catch is StoreRecordEncoder.Unsupported {
            return Array(try JSONEncoder().encode(value))
        }
    }

    /// - Throws: `DecodingError` when the bytes are not a record of `type` (damaged, cut short, another
    ///   type's); never traps.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        if isBinary(bytes) {
            return try StoreRecordDecoder.decode(type, from: bytes)
        }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// A request's record for a store that keeps the request's identifier beside it, in the row's key:
    /// without the identifier, which would be the same bytes twice (13 of a typical reminder's 122).
    /// A request the direct writer leaves to `encode(to:)` (attachments, a location trigger, a zoned
    /// calendar) keeps it. Read it back with `decode(_:from:identifier:)`.
    public static func encodeForKeyedRow(_ request: NotificationRequest, form: Form) throws -> [UInt8] {
        var packer = StoreRecordPacker(form: form, records: 1)
        try packer.append(request)
        return packer.records.record(at: 0)
    }

    /// The request of a record written by `encodeForKeyedRow(_:form:)`, whose identifier the
    /// store kept: `identifier` stands in for one the record leaves out.
    ///
    /// - Throws: `DecodingError` also when the record holds an identifier other than `identifier`: the
    ///   record is not the one its key says.
    public static func decode(_ type: NotificationRequest.Type, from bytes: [UInt8], identifier: String) throws -> NotificationRequest {
        let request =
            if isBinary(bytes) {
                try StoreRecordDecoder.decode(type, from: bytes, impliedRequestIdentifier: identifier)
            } else {
                try decode(type, from: bytes)
            }
        guard request.identifier == identifier else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "the record is of request \"\(request.identifier)\", kept under \"\(identifier)\""))
        }
        return request
    }

    /// Whether the bytes are in a binary form (not a JSON blob of an older store).
    public static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.first == StoreRecordFormat.marker || bytes.first == StoreRecordFormat.compactMarker
    }
}
