import ChimeCore
import Foundation

/// Reads a `Decodable` value from a record in `StoreRecordFormat`, in place: containers are located by
/// their lengths, and only the values a type asks for are read.
///
/// Conversions follow JSONDecoder's: integers and floating-point numbers convert into each other when the
/// value fits exactly, nothing else converts. A record that is cut short or malformed throws
/// `DecodingError.dataCorrupted`; it never traps.
///
/// ```swift
/// let request = try StoreRecordDecoder.decode(NotificationRequest.self, from: bytes)
/// ```
enum StoreRecordDecoder {
    /// - Parameter impliedRequestIdentifier: the identifier of a request whose record was written without
    ///   it (`StoreRecord.encodeForKeyedRow(_:form:)`).
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], impliedRequestIdentifier: String? = nil) throws -> Value {
        let reader = StoreRecordReader(bytes, impliedRequestIdentifier: impliedRequestIdentifier)
        guard StoreRecord.isBinary(bytes), try reader.end(of: 1) == bytes.count else {
            throw reader.corrupted("not a store record, or one with bytes missing or left over")
        }
        return try reader.decode(type, at: 1, place: StoreRecordPlace(parent: nil, key: nil))
    }
}

/// The record's bytes and the primitive readers over them. Every read checks its bounds.
final class StoreRecordReader {
    typealias Tag = StoreRecordFormat.Tag

    let bytes: [UInt8]
    /// Whether the record is in the compact form (varint sizes, known keys as numbers).
    let compact: Bool
    /// The identifier of a request whose record leaves it out, kept beside the record by its store.
    let impliedRequestIdentifier: String?

    init(_ bytes: [UInt8], impliedRequestIdentifier: String? = nil) {
        self.bytes = bytes
        compact = bytes.first == StoreRecordFormat.compactMarker
        self.impliedRequestIdentifier = impliedRequestIdentifier
    }

    func corrupted(at place: StoreRecordPlace, _ description: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: place.codingPath, debugDescription: description))
    }

    func corrupted(_ description: String) -> DecodingError {
        corrupted(at: StoreRecordPlace(parent: nil, key: nil), description)
    }

    private func mismatch(_ type: Any.Type, at place: StoreRecordPlace, found tag: Tag) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(codingPath: place.codingPath, debugDescription: tag.found))
    }

    func tag(at offset: Int) throws -> Tag {
        guard offset < bytes.count, let tag = Tag(rawValue: bytes[offset]) else {
            throw corrupted("unknown value tag in the store record")
        }
        return tag
    }

    func varint(at offset: inout Int) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw corrupted("a number in the store record is cut short")
    }

    func uint32(at offset: Int) throws -> Int {
        guard offset >= 0, offset + 4 <= bytes.count else { throw corrupted("the store record is cut short") }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    /// The byte range of the UTF-8 text of a string (or key) whose length is at `offset`.
    func stringBytes(at offset: Int) throws -> Range<Int> {
        var position = offset
        let count = try varint(at: &position)
        guard count <= UInt64(bytes.count - position) else { throw corrupted("a string in the store record is cut short") }
        return position..<(position + Int(count))
    }

    /// The header of the array or object at `offset`: where its content starts and ends, and its count.
    func container(at offset: Int) throws -> (start: Int, end: Int, count: Int) {
        let length: Int
        let count: Int
        let start: Int
        if compact {
            var position = offset + 1
            let size = try varint(at: &position)
            let number = try varint(at: &position)
            guard size <= UInt64(bytes.count - position), number <= size else {
                throw corrupted("a container in the store record is cut short, or counts more values than it holds")
            }
            (length, count, start) = (Int(size), Int(number), position)
        } else {
            length = try uint32(at: offset + 1)
            count = try uint32(at: offset + 5)
            start = offset + 1 + StoreRecordFormat.containerHeaderSize
        }
        guard length <= bytes.count - start else { throw corrupted("a container in the store record is cut short") }
        // Every element takes at least a byte: a larger count is damage, not a reason to reserve memory.
        guard count <= length else { throw corrupted("a container in the store record counts more values than it holds") }
        return (start, start + length, count)
    }

    /// Where the value at `offset` ends.
    func end(of offset: Int) throws -> Int {
        switch try tag(at: offset) {
        case .null, .false, .true:
            return offset + 1
        case .signed, .unsigned:
            var position = offset + 1
            _ = try varint(at: &position)
            return position
        case .double:
            guard offset + 9 <= bytes.count else { throw corrupted("a number in the store record is cut short") }
            return offset + 9
        case .string:
            return try stringBytes(at: offset + 1).upperBound
        case .array, .object:
            return try container(at: offset).end
        }
    }

    // MARK: Values

    func decode<T: Decodable>(_ type: T.Type, at offset: Int, place: StoreRecordPlace) throws -> T {
        if T.self == String.self {
            return unsafeBitCast(try string(at: offset, place: place), to: T.self)
        } else if T.self == Int.self {
            return unsafeBitCast(try integer(Int.self, at: offset, place: place), to: T.self)
        } else if T.self == Double.self {
            return unsafeBitCast(try double(at: offset, place: place), to: T.self)
        } else if T.self == Bool.self {
            return unsafeBitCast(try bool(at: offset, place: place), to: T.self)
        } else if T.self == Date.self {
            // What Date's own init(from:) reads, without the detour.
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: try double(at: offset, place: place)), to: T.self)
        } else if T.self == JSONValue.self {
            return unsafeBitCast(try jsonValue(at: offset, place: place), to: T.self)
        } else if T.self == [String: JSONValue].self {
            return unsafeBitCast(try jsonObject(at: offset, place: place), to: T.self)
        } else if T.self == NotificationRequest.self, let request = requestDirectly(at: offset) {
            return unsafeBitCast(request, to: T.self)
        }
        return try T(from: StoreRecordSlotDecoder(reader: self, offset: offset, path: place.path))
    }

    func isNull(at offset: Int) throws -> Bool {
        try tag(at: offset) == .null
    }

    func bool(at offset: Int, place: StoreRecordPlace) throws -> Bool {
        switch try tag(at: offset) {
        case .true: return true
        case .false: return false
        case let tag: throw mismatch(Bool.self, at: place, found: tag)
        }
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type, at offset: Int, place: StoreRecordPlace) throws -> I {
        var position = offset + 1
        let converted: I?
        switch try tag(at: offset) {
        case .signed:
            let zigzag = try varint(at: &position)
            converted = I(exactly: Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
        case .unsigned:
            converted = I(exactly: try varint(at: &position))
        case .double:
            converted = I(exactly: try double(at: offset, place: place))
        case let tag:
            throw mismatch(type, at: place, found: tag)
        }
        guard let converted else {
            throw corrupted(at: place, "a number in the store record does not fit \(type)")
        }
        return converted
    }

    func double(at offset: Int, place: StoreRecordPlace) throws -> Double {
        switch try tag(at: offset) {
        case .double:
            guard offset + 9 <= bytes.count else { throw corrupted(at: place, "a number in the store record is cut short") }
            var bits: UInt64 = 0
            for index in stride(from: offset + 8, through: offset + 1, by: -1) {
                bits = bits << 8 | UInt64(bytes[index])
            }
            // The encoder keeps infinities (a Codable value may hold one), but no value Chime stores is NaN,
            // which is also never equal to itself: only a damaged record holds one.
            let value = Double(bitPattern: bits)
            guard !value.isNaN else { throw corrupted(at: place, "a number in the store record is not a number (NaN)") }
            return value
        case .signed:
            return Double(try integer(Int64.self, at: offset, place: place))
        case .unsigned:
            return Double(try integer(UInt64.self, at: offset, place: place))
        case let tag:
            throw mismatch(Double.self, at: place, found: tag)
        }
    }

    func float(at offset: Int, place: StoreRecordPlace) throws -> Float {
        let value = try double(at: offset, place: place)
        let float = Float(value)
        guard float.isFinite || !value.isFinite else {
            throw corrupted(at: place, "a number in the store record does not fit Float")
        }
        return float
    }

    func string(at offset: Int, place: StoreRecordPlace) throws -> String {
        let tag = try tag(at: offset)
        guard tag == .string else { throw mismatch(String.self, at: place, found: tag) }
        return try text(try stringBytes(at: offset + 1), place: place)
    }

    func text(_ range: Range<Int>, place: StoreRecordPlace) throws -> String {
        let text = bytes.withUnsafeBufferPointer { buffer in
            String(validating: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
        guard let text else { throw corrupted(at: place, "a string in the store record is not UTF-8") }
        return text
    }

    // A JSON value (a notification's userInfo) is read directly, with the rules of JSONValue's own
    // init(from:): which probes null, Bool, Int, Double, String, array, object in turn, each failed probe
    // costing an error.

    /// How deep a JSON value in a record may nest: twice what content takes (`userInfo` nests at most
    /// `NotificationContent.maximumUserInfoDepth` levels, as deep as JSON readers go), so only damage
    /// reaches it, and well within the stack a reader's thread has (a compact container costs three
    /// bytes, so a damaged record could otherwise nest thousands deep).
    static let maximumJSONDepth = 1_024

    func jsonValue(at offset: Int, place: StoreRecordPlace, depth: Int = 0) throws -> JSONValue {
        switch try tag(at: offset) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .signed, .unsigned, .double:
            // A whole number that fits Int is an int, any other number a double.
            if let int = try? integer(Int.self, at: offset, place: place) { return .int(int) }
            return .double(try double(at: offset, place: place))
        case .string: return .string(try string(at: offset, place: place))
        case .array:
            guard depth < Self.maximumJSONDepth else { throw corrupted(at: place, "a value in the store record nests too deep") }
            let (start, end, count) = try container(at: offset)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            var position = start
            for _ in 0..<count {
                elements.append(try jsonValue(at: position, place: place, depth: depth + 1))
                position = try self.end(of: position)
                guard position <= end else { throw corrupted(at: place, "an array in the store record is cut short") }
            }
            return .array(elements)
        case .object: return .object(try jsonObject(at: offset, place: place, depth: depth))
        }
    }

    func jsonObject(at offset: Int, place: StoreRecordPlace, depth: Int = 0) throws -> [String: JSONValue] {
        let tag = try tag(at: offset)
        guard tag == .object else { throw mismatch([String: JSONValue].self, at: place, found: tag) }
        guard depth < Self.maximumJSONDepth else { throw corrupted(at: place, "a value in the store record nests too deep") }
        let (start, end, count) = try container(at: offset)
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(count)
        var position = start
        for _ in 0..<count {
            let key = try storedKey(at: position)
            members[try text(of: key, place: place)] = try jsonValue(at: key.value, place: place, depth: depth + 1)
            position = try self.end(of: key.value)
            guard position <= end else { throw corrupted(at: place, "an object in the store record is cut short") }
        }
        return members
    }

    /// The key of the object entry at `offset`, and where its value starts.
    func storedKey(at offset: Int) throws -> StoredKey {
        guard compact else {
            let text = try stringBytes(at: offset)
            return StoredKey(text: text, known: -1, value: text.upperBound)
        }
        var position = offset
        let number = try varint(at: &position)
        if number & 1 == 1 {
            guard number >> 1 < UInt64(StoreRecordFormat.knownKeyNames.count) else { throw corrupted("an unknown key number in the store record") }
            return StoredKey(text: position..<position, known: Int(number >> 1), value: position)
        }
        let length = number >> 1
        guard length <= UInt64(bytes.count - position) else { throw corrupted("a key in the store record is cut short") }
        let text = position..<(position + Int(length))
        return StoredKey(text: text, known: -1, value: text.upperBound)
    }

    /// Whether the stored key is `key`.
    func key(_ stored: StoredKey, equals key: String) -> Bool {
        if stored.known >= 0 { return StoreRecordFormat.knownKeyNames[stored.known] == key }
        var key = key
        return key.withUTF8 { utf8 in
            guard utf8.count == stored.text.count else { return false }
            return bytes.withUnsafeBufferPointer { buffer in
                utf8.isEmpty || memcmp(buffer.baseAddress! + stored.text.lowerBound, utf8.baseAddress!, utf8.count) == 0
            }
        }
    }

    /// Whether the stored key is the known `key`; a number compared with a number in the compact form.
    func key(_ stored: StoredKey, is key: StoreRecordKnownKey) -> Bool {
        if stored.known >= 0 { return stored.known == key.rawValue }
        let utf8 = StoreRecordFormat.knownKeyUTF8[key.rawValue]
        return utf8.count == stored.text.count && bytes[stored.text].elementsEqual(utf8)
    }

    /// The stored key's text.
    func text(of stored: StoredKey, place: StoreRecordPlace) throws -> String {
        if stored.known >= 0 { return StoreRecordFormat.knownKeyNames[stored.known] }
        return try text(stored.text, place: place)
    }
}

/// An object's key as a record holds it: its text's place in the record, or a known key's number.
struct StoredKey {
    /// The key's UTF-8 text in the record; empty for a known key.
    let text: Range<Int>
    /// The key's number (`StoreRecordKnownKey`), or -1 for a key written as text.
    let known: Int
    /// Where the entry's value starts.
    let value: Int

    /// The key's length in UTF-8 bytes.
    var count: Int { known >= 0 ? StoreRecordFormat.knownKeyUTF8[known].count : text.count }
}

/// The decoder for one value of the record.
struct StoreRecordSlotDecoder: Decoder {
    let reader: StoreRecordReader
    let offset: Int
    let path: StoreRecordPath?

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] {
        reader.impliedRequestIdentifier.map { [.impliedRequestIdentifier: $0] } ?? [:]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let tag = try reader.tag(at: offset)
        guard tag == .object else {
            if tag == .null {
                throw DecodingError.valueNotFound(
                    KeyedDecodingContainer<Key>.self, DecodingError.Context(codingPath: codingPath, debugDescription: "found null"))
            }
            throw DecodingError.typeMismatch([String: Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: tag.found))
        }
        return KeyedDecodingContainer(try StoreRecordKeyedDecoding<Key>(reader: reader, offset: offset, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let tag = try reader.tag(at: offset)
        guard tag == .array else {
            if tag == .null {
                throw DecodingError.valueNotFound(
                    (any UnkeyedDecodingContainer).self, DecodingError.Context(codingPath: codingPath, debugDescription: "found null"))
            }
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: tag.found))
        }
        return try StoreRecordUnkeyedDecoding(reader: reader, offset: offset, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        StoreRecordSingleValueDecoding(reader: reader, offset: offset, path: path)
    }
}

/// An object's entries, found once when the container is made; lookups start after the previous match,
/// because types read their keys in the order they wrote them.
final class StoreRecordObject {
    struct Entry {
        let key: StoredKey
        var value: Int { key.value }
    }

    let entries: [Entry]
    /// Unchecked exclusivity: read and written only by the synchronous lookups of one decoding.
    @exclusivity(unchecked) var next = 0

    init(reader: StoreRecordReader, offset: Int) throws {
        let (start, end, count) = try reader.container(at: offset)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var position = start
        for _ in 0..<count {
            let key = try reader.storedKey(at: position)
            position = try reader.end(of: key.value)
            guard position <= end else { throw reader.corrupted("an object in the store record is cut short") }
            entries.append(Entry(key: key))
        }
        guard position == end else { throw reader.corrupted("an object in the store record has bytes left over") }
        self.entries = entries
    }

    /// The offset of the value stored under `key`, if any.
    func value(for key: String, in reader: StoreRecordReader) -> Int? {
        let count = entries.count
        var index = next
        for _ in 0..<count {
            if index >= count { index = 0 }
            if reader.key(entries[index].key, equals: key) {
                next = index + 1
                return entries[index].value
            }
            index += 1
        }
        return nil
    }
}

struct StoreRecordKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: StoreRecordReader
    let object: StoreRecordObject
    let path: StoreRecordPath?

    init(reader: StoreRecordReader, offset: Int, path: StoreRecordPath?) throws {
        self.reader = reader
        object = try StoreRecordObject(reader: reader, offset: offset)
        self.path = path
    }

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }

    var allKeys: [Key] {
        object.entries.compactMap { entry in
            (try? reader.text(of: entry.key, place: StoreRecordPlace(parent: path, key: nil))).flatMap { Key(stringValue: $0) }
        }
    }

    func contains(_ key: Key) -> Bool {
        object.value(for: key.stringValue, in: reader) != nil
    }

    private func value(_ key: Key) throws -> Int {
        guard let offset = object.value(for: key.stringValue, in: reader) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for the key"))
        }
        return offset
    }

    /// The value's offset, or `nil` when the key is absent or its value is null.
    private func presentValue(_ key: Key) throws -> Int? {
        guard let offset = object.value(for: key.stringValue, in: reader), try !reader.isNull(at: offset) else { return nil }
        return offset
    }

    private func child(_ key: Key) -> StoreRecordPlace {
        StoreRecordPlace(parent: path, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try reader.isNull(at: try value(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.bool(at: try value(key), place: child(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.string(at: try value(key), place: child(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.double(at: try value(key), place: child(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader.float(at: try value(key), place: child(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader.integer(type, at: try value(key), place: child(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader.integer(type, at: try value(key), place: child(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try reader.decode(type, at: try value(key), place: child(key))
    }

    // One lookup instead of the three (contains, decodeNil, decode) of the default implementations.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(key).map { try reader.bool(at: $0, place: child(key)) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(key).map { try reader.string(at: $0, place: child(key)) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(key).map { try reader.double(at: $0, place: child(key)) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try presentValue(key).map { try reader.integer(type, at: $0, place: child(key)) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(key).map { try reader.decode(type, at: $0, place: child(key)) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try StoreRecordSlotDecoder(reader: reader, offset: try value(key), path: child(key).path).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try StoreRecordSlotDecoder(reader: reader, offset: try value(key), path: child(key).path).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let offset = object.value(for: StoreRecordKey.super.stringValue, in: reader) else {
            throw DecodingError.keyNotFound(StoreRecordKey.super, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for the key"))
        }
        return StoreRecordSlotDecoder(reader: reader, offset: offset, path: StoreRecordPath(parent: path, key: StoreRecordKey.super))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        StoreRecordSlotDecoder(reader: reader, offset: try value(key), path: child(key).path)
    }
}

struct StoreRecordUnkeyedDecoding: UnkeyedDecodingContainer {
    let reader: StoreRecordReader
    let path: StoreRecordPath?
    let count: Int?
    private(set) var currentIndex = 0
    private var position: Int
    private let end: Int

    init(reader: StoreRecordReader, offset: Int, path: StoreRecordPath?) throws {
        self.reader = reader
        self.path = path
        let (start, end, count) = try reader.container(at: offset)
        self.count = count
        position = start
        self.end = end
    }

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }
    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    /// The offset of the next element, after checking there is one.
    private func next(_ type: Any.Type) throws -> Int {
        guard !isAtEnd, position < end else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        return position
    }

    private mutating func advance(past offset: Int) throws {
        position = try reader.end(of: offset)
        guard position <= end else { throw reader.corrupted(at: StoreRecordPlace(parent: path, key: nil), "an array in the store record is cut short") }
        currentIndex += 1
    }

    private var child: StoreRecordPlace {
        StoreRecordPlace(parent: path, key: StoreRecordKey(intValue: currentIndex))
    }

    private mutating func decodeNext<T>(_ type: T.Type, _ read: (Int, StoreRecordPlace) throws -> T) throws -> T {
        let offset = try next(type)
        let value = try read(offset, child)
        try advance(past: offset)
        return value
    }

    mutating func decodeNil() throws -> Bool {
        let offset = try next(Never.self)
        guard try reader.isNull(at: offset) else { return false }
        try advance(past: offset)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) { [reader] in try reader.bool(at: $0, place: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) { [reader] in try reader.string(at: $0, place: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) { [reader] in try reader.double(at: $0, place: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) { [reader] in try reader.float(at: $0, place: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type) { [reader] in try reader.integer(type, at: $0, place: $1) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeNext(type) { [reader] in try reader.decode(type, at: $0, place: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try decodeNext(KeyedDecodingContainer<NestedKey>.self) { [reader] offset, place in
            try StoreRecordSlotDecoder(reader: reader, offset: offset, path: place.path).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decodeNext((any UnkeyedDecodingContainer).self) { [reader] offset, place in
            try StoreRecordSlotDecoder(reader: reader, offset: offset, path: place.path).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try decodeNext((any Decoder).self) { [reader] offset, place in StoreRecordSlotDecoder(reader: reader, offset: offset, path: place.path) }
    }
}

struct StoreRecordSingleValueDecoding: SingleValueDecodingContainer {
    let reader: StoreRecordReader
    let offset: Int
    let path: StoreRecordPath?

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }
    private var place: StoreRecordPlace { StoreRecordPlace(parent: path, key: nil) }

    func decodeNil() -> Bool { (try? reader.isNull(at: offset)) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.bool(at: offset, place: place) }
    func decode(_ type: String.Type) throws -> String { try reader.string(at: offset, place: place) }
    func decode(_ type: Double.Type) throws -> Double { try reader.double(at: offset, place: place) }
    func decode(_ type: Float.Type) throws -> Float { try reader.float(at: offset, place: place) }
    func decode(_ type: Int.Type) throws -> Int { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer(type, at: offset, place: place) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer(type, at: offset, place: place) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decode(type, at: offset, place: place) }
}
