import Foundation

/// How stores turn records (apps, pending requests, delivered notifications, missed fires) into bytes and
/// back: one codec, so that every store keeps the same bytes for the same value and reads what another
/// wrote.
///
/// Records are written in `StoreRecordFormat`, a binary form of what `Codable` produces. Blobs written as
/// JSON — by the first versions of the SQLite store, or for a value whose `encode(to:)` the binary
/// encoder cannot stream — are still read: a binary record starts with a byte no JSON text starts with.
///
/// ```swift
/// let bytes = try StoreRecord.encode(request)
/// let again = try StoreRecord.decode(NotificationRequest.self, from: bytes)
/// ```
public enum StoreRecord {
    public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        do {
            return try StoreRecordEncoder.encode(value)
        } catch is StoreRecordEncoder.Unsupported {
            return Array(try JSONEncoder().encode(value))
        }
    }

    /// - Throws: `DecodingError` when the bytes are not a record of `type` (damaged, cut short, another
    ///   type's); never traps.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        if bytes.first == StoreRecordFormat.marker {
            return try StoreRecordDecoder.decode(type, from: bytes)
        }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// Whether the bytes are in the binary form (not a JSON blob of an older store).
    public static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.first == StoreRecordFormat.marker
    }
}
