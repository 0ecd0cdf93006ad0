import ChimeCore
import ChimeEngine
import ChimeStoreCoding
import Foundation

/// How the SQLite store turns values into column values and back: records as blobs in the stores' shared
/// record codec (`StoreRecord`), in its compact form, dates as `REAL` reference-date seconds.
enum StoreCoding {
    /// A row that does not have the shape the schema gives it: the file was changed behind the store's back.
    static let corruptRow = SQLiteError(.corrupt, "a row of the notification store has an unexpected shape")

    static func encode<Value: Encodable>(_ value: Value) throws -> SQLiteValue {
        .blob(try StoreRecord.encode(value, form: .compact))
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from column: SQLiteValue) throws -> Value {
        guard case .blob(let bytes) = column else { throw corruptRow }
        return try StoreRecord.decode(type, from: bytes)
    }

    /// The records of pending rows, packed. A pending request's identifier is the row's `request_id`, so
    /// its record leaves it out (from schema version 6 on): `StoreRecord.encodeForKeyedRow(_:form:)`.
    static func encodePending(_ requests: ArraySlice<PendingRequest>) throws -> PackedRecords {
        var packer = StoreRecordPacker(form: .compact, records: requests.count)
        for index in requests.indices { try packer.append(requests[index].request) }
        return packer.records
    }

    /// The request of a pending row, with the identifier of its `request_id`.
    static func decodePending(from column: SQLiteValue, identifier: SQLiteValue) throws -> NotificationRequest {
        guard case .blob(let bytes) = column, case .text(let identifier) = identifier else { throw corruptRow }
        return try StoreRecord.decode(NotificationRequest.self, from: bytes, identifier: identifier)
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
