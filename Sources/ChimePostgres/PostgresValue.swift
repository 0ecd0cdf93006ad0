public import Foundation

/// A value sent to or read from PostgreSQL, in the binary wire format of its type.
///
/// Binary, not text: a `Date` travels as the exact bits of a `double precision`, a record as the bytes of
/// a `bytea` without escaping, and nothing is parsed on either side. Texts compare in the byte order of
/// their UTF-8 (the store's columns are `COLLATE "C"`), as identifiers do everywhere else in Chime.
public enum PostgresValue: Sendable, Hashable {
    case null
    case text(String)
    case integer(Int64)
    case double(Double)
    case bytes([UInt8])
    case boolean(Bool)
    /// A one-dimensional array of values of one type (`text[]`, `float8[]`, `bytea[]`…), nulls allowed:
    /// for `= ANY($n)` and for writing many rows with one statement through `unnest`.
    case array(Element, [PostgresValue])

    /// The element type of an array.
    public enum Element: Sendable, Hashable {
        case text, integer, double, bytes, boolean

        var typeOID: UInt32 {
            switch self {
            case .text: TypeOID.text
            case .integer: TypeOID.int8
            case .double: TypeOID.float8
            case .bytes: TypeOID.bytea
            case .boolean: TypeOID.boolean
            }
        }

        var arrayTypeOID: UInt32 {
            switch self {
            case .text: 1009
            case .integer: 1016
            case .double: 1022
            case .bytes: 1001
            case .boolean: 1000
            }
        }
    }

    public static func texts(_ texts: some Sequence<String>) -> PostgresValue {
        .array(.text, texts.map { .text($0) })
    }

    /// The type's object identifier, as PostgreSQL's `pg_type` numbers it.
    enum TypeOID {
        static let boolean: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let float8: UInt32 = 701
        static let varchar: UInt32 = 1043
        static let void: UInt32 = 2278
    }

    /// The type the parameter is declared with; `NULL` is left for the server to infer (0).
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .text: TypeOID.text
        case .integer: TypeOID.int8
        case .double: TypeOID.float8
        case .bytes: TypeOID.bytea
        case .boolean: TypeOID.boolean
        case .array(let element, _): element.arrayTypeOID
        }
    }

    /// The parameter's bytes in binary format; `nil` for `NULL`.
    var wireBytes: [UInt8]? {
        switch self {
        case .null: return nil
        case .text(let text): return Array(text.utf8)
        case .integer(let value): return value.bigEndianBytes
        case .double(let value): return value.bitPattern.bigEndianBytes
        case .bytes(let bytes): return bytes
        case .boolean(let value): return [value ? 1 : 0]
        case .array(let element, let elements):
            // ndim, has-null flag, element type; then the one dimension's length and lower bound; then
            // each element as its length (-1 for null) and bytes. Written in place, without a temporary
            // array per element: a batch's key columns are arrays of 10,000 texts.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(20 + elements.reduce(0) { total, value in
                if case .text(let text) = value { return total + 4 + text.utf8.count }
                return total + 12
            })
            bytes.appendBigEndian(Int32(1))
            let hasNullOffset = bytes.count
            bytes.appendBigEndian(Int32(0))
            bytes.appendBigEndian(element.typeOID)
            bytes.appendBigEndian(Int32(elements.count))
            bytes.appendBigEndian(Int32(1))
            for value in elements {
                switch value {
                case .null:
                    bytes[hasNullOffset + 3] = 1
                    bytes.appendBigEndian(Int32(-1))
                case .text(let text):
                    precondition(element.typeOID == TypeOID.text, "an array's elements are of its element type")
                    bytes.appendBigEndian(Int32(text.utf8.count))
                    bytes.append(contentsOf: text.utf8)
                default:
                    precondition(value.typeOID == element.typeOID, "an array's elements are of its element type")
                    let wire = value.wireBytes ?? []
                    bytes.appendBigEndian(Int32(wire.count))
                    bytes.append(contentsOf: wire)
                }
            }
            return bytes
        }
    }

    /// Reads a column in binary format. Types the store never selects are refused, not guessed.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, type: UInt32) throws(PostgresError) -> PostgresValue {
        func integer<T: FixedWidthInteger>(_: T.Type) throws(PostgresError) -> T {
            guard bytes.count == MemoryLayout<T>.size else { throw PostgresError.unexpectedResult("a \(T.self) of \(bytes.count) bytes") }
            return bytes.reduce(T(0)) { $0 << 8 | T($1) }
        }
        switch type {
        case TypeOID.text, TypeOID.varchar: return .text(String(decoding: bytes, as: UTF8.self))
        case TypeOID.bytea: return .bytes(Array(bytes))
        case TypeOID.int8: return .integer(Int64(bitPattern: try integer(UInt64.self)))
        case TypeOID.int4: return .integer(Int64(Int32(bitPattern: try integer(UInt32.self))))
        case TypeOID.int2: return .integer(Int64(Int16(bitPattern: try integer(UInt16.self))))
        case TypeOID.float8: return .double(Double(bitPattern: try integer(UInt64.self)))
        case TypeOID.boolean: return .boolean(try integer(UInt8.self) != 0)
        case TypeOID.void: return .null
        default: throw PostgresError.unexpectedResult("a column of type \(type), which the store does not read")
        }
    }
}

extension PostgresValue {
    /// A date as its exact `timeIntervalSinceReferenceDate` seconds (`double precision`), or `NULL`.
    public static func date(_ date: Date?) -> PostgresValue {
        date.map { .double($0.timeIntervalSinceReferenceDate) } ?? .null
    }

    public var date: Date? {
        if case .double(let seconds) = self { return Date(timeIntervalSinceReferenceDate: seconds) }
        return nil
    }

    public var double: Double? {
        if case .double(let value) = self { return value }
        return nil
    }

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }
}

extension FixedWidthInteger {
    fileprivate var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: bigEndian) { Array($0) }
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
