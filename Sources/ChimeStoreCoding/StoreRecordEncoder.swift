import ChimeCore
import Foundation

/// Writes an `Encodable` value in `StoreRecordFormat`, straight into one byte buffer.
///
/// Values are written as they are encoded, without building a tree first: a container's header is written
/// when the container is opened and its size filled in when it is closed (in the compact form, varints
/// replace the header's reserved bytes and the content moves up to them), which happens as soon as an
/// enclosing container takes its next entry (or at the end). That is the order every synthesized and
/// hand-written `encode(to:)` in Chime follows. An encoding that writes to a container after a later one
/// was started, or uses `superEncoder`, cannot be streamed: `encode` then throws `Unsupported` and the
/// caller writes JSON instead, so any `Encodable` can be stored.
///
/// ```swift
/// let bytes = try StoreRecordEncoder.encode(request, compact: true)   // [0xC2, 0x08, ...]
/// ```
enum StoreRecordEncoder {
    /// The value encodes itself in a way this encoder does not stream; use another encoder.
    struct Unsupported: Error {}

    static func encode<Value: Encodable>(_ value: Value, compact: Bool) throws -> [UInt8] {
        let writer = StoreRecordWriter(compact: compact)
        let root = StoreRecordSlotEncoder(writer: writer, depth: 0, slot: writer.currentSlot, path: nil)
        try root.encodeValue(value)
        return try writer.finish()
    }
}

/// The buffer being written, with the containers still open.
final class StoreRecordWriter {
    private struct Frame {
        let id: Int
        let headerOffset: Int
        var count: UInt32
    }

    // Unchecked exclusivity: every container and slot encoder shares this writer, so each access to a
    // stored property of the class would otherwise be checked at run time (about a third of the cost of
    // encoding a request). Only synchronous code uses a writer (`encode`, and a `StoreRecordPacker`
    // reusing one), and no access overlaps another.
    @exclusivity(unchecked) private(set) var bytes: [UInt8]
    /// The compact form (varint sizes, known keys as numbers), or the wide one.
    let compact: Bool
    /// The open containers, outermost first; a container's depth is its index here.
    @exclusivity(unchecked) private var frames: [Frame] = []
    private var lastID = 0
    /// The slot (a value's place in a container, or the root) that the latest entry opened. Only it may
    /// be filled; a slot encoder for an older one was kept too long.
    private(set) var currentSlot = 0
    /// Set when the value asked for something that cannot be streamed; the result is then refused.
    private var unsupported = false

    init(compact: Bool) {
        self.compact = compact
        bytes = [compact ? StoreRecordFormat.compactMarker : StoreRecordFormat.marker]
        bytes.reserveCapacity(512)
    }

    /// Makes the writer ready for the next record, keeping its buffers' capacity: one writer can write
    /// many records (`StoreRecordPacker`).
    func reset() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(compact ? StoreRecordFormat.compactMarker : StoreRecordFormat.marker)
        frames.removeAll(keepingCapacity: true)
        lastID = 0
        currentSlot = 0
        unsupported = false
    }

    /// Marks the encoding as not streamable and returns the error to throw.
    func refuse() -> StoreRecordEncoder.Unsupported {
        unsupported = true
        return StoreRecordEncoder.Unsupported()
    }

    /// Whether `slot` may be filled now: no entry began since, and nothing deeper than `depth` is open.
    func canFill(slot: Int, depth: Int) -> Bool {
        slot == currentSlot && frames.count == depth
    }

    /// Whether the container `id` at `depth` is still open.
    func isOpen(_ id: Int, depth: Int) -> Bool {
        depth < frames.count && frames[depth].id == id
    }

    /// Starts a new entry in the open container `id` at `depth`: closes the containers opened inside its
    /// previous entry, counts the entry, and returns the new slot.
    func beginEntry(in id: Int, depth: Int) throws -> Int {
        guard !unsupported, isOpen(id, depth: depth) else { throw refuse() }
        while frames.count > depth + 1 { closeInnermost() }
        frames[depth].count += 1
        lastID += 1
        currentSlot = lastID
        return currentSlot
    }

    /// The number of entries of the open container `id` at `depth`.
    func count(of id: Int, depth: Int) -> Int {
        isOpen(id, depth: depth) ? Int(frames[depth].count) : 0
    }

    /// Writes the header of an array or object and opens it at the next depth; returns its id.
    func openContainer(_ tag: StoreRecordFormat.Tag) -> Int {
        lastID += 1
        frames.append(Frame(id: lastID, headerOffset: bytes.count, count: 0))
        bytes.append(tag.rawValue)
        bytes.append(contentsOf: repeatElement(0, count: StoreRecordFormat.containerHeaderSize))
        return lastID
    }

    private func closeInnermost() {
        let frame = frames.removeLast()
        fillHeader(at: frame.headerOffset, count: Int(frame.count))
    }

    /// Writes the size of the container whose header is at `header`, now that its content is written.
    /// The compact form puts two varints where the wide one's 8 bytes were reserved and moves the content
    /// up to them: only containers still open, whose headers come earlier, have offsets to keep.
    private func fillHeader(at header: Int, count: Int) {
        let reserved = header + 1..<header + 1 + StoreRecordFormat.containerHeaderSize
        guard let length = UInt32(exactly: bytes.count - reserved.upperBound), let count = UInt32(exactly: count) else {
            unsupported = true  // over 4 GiB: refused by `finish`
            return
        }
        if compact {
            let needed = Self.varintLength(UInt64(length)) + Self.varintLength(UInt64(count))
            if needed < reserved.count {
                bytes.removeSubrange(reserved.lowerBound + needed..<reserved.upperBound)
            } else if needed > reserved.count {
                bytes.insert(contentsOf: repeatElement(0, count: needed - reserved.count), at: reserved.upperBound)
            }
            let afterLength = Self.putVarint(UInt64(length), in: &bytes, at: reserved.lowerBound)
            _ = Self.putVarint(UInt64(count), in: &bytes, at: afterLength)
        } else {
            put(length, at: reserved.lowerBound)
            put(count, at: reserved.lowerBound + 4)
        }
    }

    private func put(_ value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value >> 24)
    }

    /// Closes what is open and returns the record.
    func finish() throws -> [UInt8] {
        while !frames.isEmpty { closeInnermost() }
        guard !unsupported else { throw StoreRecordEncoder.Unsupported() }
        return bytes
    }

    /// Closes what is open and appends the record to `buffer`, leaving the writer's own buffer unshared
    /// for the next `reset`.
    func finish(appendingTo buffer: inout [UInt8]) throws {
        while !frames.isEmpty { closeInnermost() }
        guard !unsupported else { throw StoreRecordEncoder.Unsupported() }
        buffer.append(contentsOf: bytes)
    }

    // MARK: Values

    func writeNull() { bytes.append(StoreRecordFormat.Tag.null.rawValue) }

    func write(_ value: Bool) {
        bytes.append(value ? StoreRecordFormat.Tag.true.rawValue : StoreRecordFormat.Tag.false.rawValue)
    }

    func writeSigned(_ value: Int64) {
        bytes.append(StoreRecordFormat.Tag.signed.rawValue)
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    func writeUnsigned(_ value: UInt64) {
        bytes.append(StoreRecordFormat.Tag.unsigned.rawValue)
        writeVarint(value)
    }

    func write(_ value: Double) {
        bytes.append(StoreRecordFormat.Tag.double.rawValue)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    func write(_ value: String) {
        bytes.append(StoreRecordFormat.Tag.string.rawValue)
        writeText(value, shift: 0)
    }

    /// An object's key: in the compact form a known key's number, or its text after an even varint.
    func writeKey(_ key: String) {
        if compact, let known = StoreRecordFormat.knownKeyNumbers[key] {
            writeVarint(UInt64(known) << 1 | 1)
        } else {
            writeText(key, shift: compact ? 1 : 0)
        }
    }

    /// A key the writer names itself, without looking it up.
    func writeKey(_ key: StoreRecordKnownKey) {
        if compact {
            writeVarint(UInt64(key.rawValue) << 1 | 1)
        } else {
            let utf8 = StoreRecordFormat.knownKeyUTF8[key.rawValue]
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Text without a tag: its UTF-8 byte count shifted left by `shift`, then the bytes.
    private func writeText(_ text: String, shift: UInt64) {
        var text = text
        text.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count) << shift)
            bytes.append(contentsOf: utf8)
        }
    }

    private func writeVarint(_ value: UInt64) {
        Self.appendVarint(value, to: &bytes)
    }

    private static func varintLength(_ value: UInt64) -> Int {
        var value = value
        var length = 1
        while value >= 0x80 {
            value >>= 7
            length += 1
        }
        return length
    }

    /// Writes `value` over the bytes at `offset`; returns the offset after it.
    private static func putVarint(_ value: UInt64, in bytes: inout [UInt8], at offset: Int) -> Int {
        var value = value
        var at = offset
        while value >= 0x80 {
            bytes[at] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            at += 1
        }
        bytes[at] = UInt8(value)
        return at + 1
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Writes `value` if it is of a type the format holds directly; returns whether it did.
    ///
    /// Each test compares metadata pointers; the cast after a match cannot fail.
    func writePrimitive<T>(_ value: T) -> Bool {
        if T.self == String.self {
            write(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeSigned(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Double.self {
            write(unsafeBitCast(value, to: Double.self))
        } else if T.self == Bool.self {
            write(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Date.self {
            // A date codes itself as its reference-date seconds; this writes the same, without the detour.
            write(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate)
        } else if T.self == Int64.self {
            writeSigned(unsafeBitCast(value, to: Int64.self))
        } else if T.self == UInt.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if T.self == UInt64.self {
            writeUnsigned(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Float.self {
            write(Double(unsafeBitCast(value, to: Float.self)))
        } else if T.self == Int32.self {
            writeSigned(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if T.self == UInt32.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if T.self == Int16.self {
            writeSigned(Int64(unsafeBitCast(value, to: Int16.self)))
        } else if T.self == UInt16.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt16.self)))
        } else if T.self == Int8.self {
            writeSigned(Int64(unsafeBitCast(value, to: Int8.self)))
        } else if T.self == UInt8.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else if T.self == JSONValue.self {
            write(unsafeBitCast(value, to: JSONValue.self))
        } else if T.self == [String: JSONValue].self {
            write(unsafeBitCast(value, to: [String: JSONValue].self))
        } else if T.self == NotificationRequest.self {
            return writeDirectly(unsafeBitCast(value, to: NotificationRequest.self))
        } else if T.self == DeliveredNotification.self {
            return writeDirectly(unsafeBitCast(value, to: DeliveredNotification.self))
        } else {
            return false
        }
        return true
    }

    // A JSON value (a notification's userInfo) is what this format holds natively: it is written directly,
    // as JSONValue's own encode(to:) would write it through the containers, without them.

    func write(_ value: JSONValue) {
        switch value {
        case .null: writeNull()
        case .bool(let bool): write(bool)
        case .int(let int): writeSigned(Int64(int))
        case .double(let double): write(double)
        case .string(let string): write(string)
        case .array(let elements):
            let header = beginInlineContainer(.array)
            for element in elements { write(element) }
            endInlineContainer(header, count: elements.count)
        case .object(let members): write(members)
        }
    }

    func write(_ members: [String: JSONValue]) {
        let header = beginInlineContainer(.object)
        for (key, member) in members {
            writeKey(key)
            write(member)
        }
        endInlineContainer(header, count: members.count)
    }

    /// Writes the header of a container that is written whole before the call returns (not one that
    /// codes through the container protocols); returns where it is, for `endInlineContainer`.
    func beginInlineContainer(_ tag: StoreRecordFormat.Tag) -> Int {
        let header = bytes.count
        bytes.append(tag.rawValue)
        bytes.append(contentsOf: repeatElement(0, count: StoreRecordFormat.containerHeaderSize))
        return header
    }

    func endInlineContainer(_ header: Int, count: Int) {
        fillHeader(at: header, count: count)
    }
}

/// The encoder for one slot: the root, or one entry's value in a container.
final class StoreRecordSlotEncoder: Encoder {
    private enum State {
        case empty
        case keyed(id: Int)
        case unkeyed(id: Int)
        case single
    }

    let writer: StoreRecordWriter
    /// The depth of a container opened for this slot.
    let depth: Int
    let slot: Int
    let path: StoreRecordPath?
    private var state = State.empty

    init(writer: StoreRecordWriter, depth: Int, slot: Int, path: StoreRecordPath?) {
        self.writer = writer
        self.depth = depth
        self.slot = slot
        self.path = path
    }

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Fills the slot with `value`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        guard case .empty = state, writer.canFill(slot: slot, depth: depth) else { throw writer.refuse() }
        if writer.writePrimitive(value) {
            state = .single
            return
        }
        try value.encode(to: self)
        if case .empty = state {
            // Like JSONEncoder, a value that encoded nothing is an empty object.
            state = .keyed(id: writer.openContainer(.object))
        }
    }

    /// Writes a primitive through a single-value container.
    func fillSingle(_ write: (StoreRecordWriter) -> Void) throws {
        guard case .empty = state, writer.canFill(slot: slot, depth: depth) else { throw writer.refuse() }
        write(writer)
        state = .single
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let id: Int
        switch state {
        case .keyed(let open) where writer.isOpen(open, depth: depth):
            id = open
        case .empty where writer.canFill(slot: slot, depth: depth):
            id = writer.openContainer(.object)
            state = .keyed(id: id)
        default:
            _ = writer.refuse()
            id = -1  // every write to it throws
        }
        return KeyedEncodingContainer(StoreRecordKeyedEncoding<Key>(writer: writer, depth: depth, id: id, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let id: Int
        switch state {
        case .unkeyed(let open) where writer.isOpen(open, depth: depth):
            id = open
        case .empty where writer.canFill(slot: slot, depth: depth):
            id = writer.openContainer(.array)
            state = .unkeyed(id: id)
        default:
            _ = writer.refuse()
            id = -1
        }
        return StoreRecordUnkeyedEncoding(writer: writer, depth: depth, id: id, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StoreRecordSingleValueEncoding(encoder: self)
    }
}

struct StoreRecordKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: StoreRecordWriter
    let depth: Int
    let id: Int
    let path: StoreRecordPath?

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }

    private func begin(_ key: Key) throws -> Int {
        let slot = try writer.beginEntry(in: id, depth: depth)
        writer.writeKey(key.stringValue)
        return slot
    }

    mutating func encodeNil(forKey key: Key) throws {
        _ = try begin(key)
        writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        _ = try begin(key)
        writer.write(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        _ = try begin(key)
        writer.write(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        _ = try begin(key)
        writer.write(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        _ = try begin(key)
        writer.write(Double(value))
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeSigned(value)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        _ = try begin(key)
        writer.writeUnsigned(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let slot = try begin(key)
        if writer.writePrimitive(value) { return }
        try StoreRecordSlotEncoder(writer: writer, depth: depth + 1, slot: slot, path: StoreRecordPath(parent: path, key: key))
            .encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: Int
        do {
            _ = try begin(key)
            nested = writer.openContainer(.object)
        } catch {
            nested = -1  // refused: every write to it throws
        }
        return KeyedEncodingContainer(
            StoreRecordKeyedEncoding<NestedKey>(writer: writer, depth: depth + 1, id: nested, path: StoreRecordPath(parent: path, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: Int
        do {
            _ = try begin(key)
            nested = writer.openContainer(.array)
        } catch {
            nested = -1
        }
        return StoreRecordUnkeyedEncoding(writer: writer, depth: depth + 1, id: nested, path: StoreRecordPath(parent: path, key: key))
    }

    /// Not streamed (the super encoder may be filled at any later time): the record falls back to JSON.
    mutating func superEncoder() -> any Encoder {
        _ = writer.refuse()
        return StoreRecordSlotEncoder(writer: writer, depth: depth + 1, slot: -1, path: StoreRecordPath(parent: path, key: StoreRecordKey.super))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        _ = writer.refuse()
        return StoreRecordSlotEncoder(writer: writer, depth: depth + 1, slot: -1, path: StoreRecordPath(parent: path, key: key))
    }
}

struct StoreRecordUnkeyedEncoding: UnkeyedEncodingContainer {
    let writer: StoreRecordWriter
    let depth: Int
    let id: Int
    let path: StoreRecordPath?

    var codingPath: [any CodingKey] { StoreRecordPath.keys(path) }
    var count: Int { writer.count(of: id, depth: depth) }

    private func begin() throws -> Int {
        try writer.beginEntry(in: id, depth: depth)
    }

    mutating func encodeNil() throws {
        _ = try begin()
        writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        _ = try begin()
        writer.write(value)
    }

    mutating func encode(_ value: String) throws {
        _ = try begin()
        writer.write(value)
    }

    mutating func encode(_ value: Double) throws {
        _ = try begin()
        writer.write(value)
    }

    mutating func encode(_ value: Float) throws {
        _ = try begin()
        writer.write(Double(value))
    }

    mutating func encode(_ value: Int) throws {
        _ = try begin()
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int8) throws {
        _ = try begin()
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int16) throws {
        _ = try begin()
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int32) throws {
        _ = try begin()
        writer.writeSigned(Int64(value))
    }

    mutating func encode(_ value: Int64) throws {
        _ = try begin()
        writer.writeSigned(value)
    }

    mutating func encode(_ value: UInt) throws {
        _ = try begin()
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt8) throws {
        _ = try begin()
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt16) throws {
        _ = try begin()
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt32) throws {
        _ = try begin()
        writer.writeUnsigned(UInt64(value))
    }

    mutating func encode(_ value: UInt64) throws {
        _ = try begin()
        writer.writeUnsigned(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        let slot = try begin()
        if writer.writePrimitive(value) { return }
        try StoreRecordSlotEncoder(
            writer: writer, depth: depth + 1, slot: slot, path: StoreRecordPath(parent: path, key: StoreRecordKey(intValue: index))
        ).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = count
        let nested: Int
        do {
            _ = try begin()
            nested = writer.openContainer(.object)
        } catch {
            nested = -1
        }
        return KeyedEncodingContainer(StoreRecordKeyedEncoding<NestedKey>(
            writer: writer, depth: depth + 1, id: nested, path: StoreRecordPath(parent: path, key: StoreRecordKey(intValue: index))))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        let nested: Int
        do {
            _ = try begin()
            nested = writer.openContainer(.array)
        } catch {
            nested = -1
        }
        return StoreRecordUnkeyedEncoding(
            writer: writer, depth: depth + 1, id: nested, path: StoreRecordPath(parent: path, key: StoreRecordKey(intValue: index)))
    }

    mutating func superEncoder() -> any Encoder {
        _ = writer.refuse()
        return StoreRecordSlotEncoder(writer: writer, depth: depth + 1, slot: -1, path: path)
    }
}

struct StoreRecordSingleValueEncoding: SingleValueEncodingContainer {
    let encoder: StoreRecordSlotEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { try encoder.fillSingle { $0.writeNull() } }
    mutating func encode(_ value: Bool) throws { try encoder.fillSingle { $0.write(value) } }
    mutating func encode(_ value: String) throws { try encoder.fillSingle { $0.write(value) } }
    mutating func encode(_ value: Double) throws { try encoder.fillSingle { $0.write(value) } }
    mutating func encode(_ value: Float) throws { try encoder.fillSingle { $0.write(Double(value)) } }
    mutating func encode(_ value: Int) throws { try encoder.fillSingle { $0.writeSigned(Int64(value)) } }
    mutating func encode(_ value: Int8) throws { try encoder.fillSingle { $0.writeSigned(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { try encoder.fillSingle { $0.writeSigned(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { try encoder.fillSingle { $0.writeSigned(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { try encoder.fillSingle { $0.writeSigned(value) } }
    mutating func encode(_ value: UInt) throws { try encoder.fillSingle { $0.writeUnsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { try encoder.fillSingle { $0.writeUnsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt16) throws { try encoder.fillSingle { $0.writeUnsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt32) throws { try encoder.fillSingle { $0.writeUnsigned(UInt64(value)) } }
    mutating func encode(_ value: UInt64) throws { try encoder.fillSingle { $0.writeUnsigned(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}
