import ChimeCore
import Foundation

/// How the store turns values into column values and back: records as blobs in `StoreRecordFormat`
/// (a binary form of what `Codable` produces), dates as `REAL` reference-date seconds.
///
/// Blobs written as JSON — by the store's first versions, or for a value whose `encode(to:)` the binary
/// encoder cannot stream — are still read: a binary record starts with a byte no JSON text starts with.
enum StoreCoding {
    /// A row that does not have the shape the schema gives it: the file was changed behind the store's back.
    static let corruptRow = SQLiteError(.corrupt, "a row of the notification store has an unexpected shape")

    static func encode<Value: Encodable>(_ value: Value) throws -> SQLiteValue {
        do {
            return .blob(try StoreRecordEncoder.encode(value))
        } catch is StoreRecordEncoder.Unsupported {
            return .blob(Array(try JSONEncoder().encode(value)))
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from column: SQLiteValue) throws -> Value {
        guard case .blob(let bytes) = column else { throw corruptRow }
        if bytes.first == StoreRecordFormat.marker {
            return try StoreRecordDecoder.decode(type, from: bytes)
        }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }
}

extension SQLiteValue {
    /// A date as its exact `timeIntervalSinceReferenceDate`, or `NULL`.
    static func date(_ date: Date?) -> SQLiteValue {
        date.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
    }

    var date: Date? {
        switch self {
        case .real(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): Date(timeIntervalSinceReferenceDate: Double(seconds))
        default: nil
        }
    }

    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
