/// The binary form in which the stores keep their records (requests, delivered
/// notifications, apps, missed fires): what `Codable` produces, written as tagged values instead of JSON
/// text.
///
/// JSON through Foundation's coders costs tens of microseconds per request on Linux, paid on every add
/// and every fire; this form is written and read by `StoreRecordEncoder` and `StoreRecordDecoder` without
/// formatting or parsing text, several times faster. It keeps JSON's data model — keyed values are looked
/// up by name, absent keys stay absent — so types decode the same values with the same rules, and a
/// record written by an older version of a type decodes as it would from JSON.
///
/// Layout (integers little-endian):
/// ```
/// record  := 0xC1 value                         0xC1 never starts JSON text, so old JSON blobs stay readable
/// value   := 0x00                               null
///          | 0x01 | 0x02                        false | true
///          | 0x03 varint                        signed integer, zigzag
///          | 0x04 varint                        unsigned integer
///          | 0x05 f64                           floating point, IEEE 754 bits
///          | 0x06 varint bytes                  string, UTF-8 byte count then bytes
///          | 0x07 u32 u32 value*                array: byte length of the elements, element count
///          | 0x08 u32 u32 (varint bytes value)* object: byte length of the entries, entry count;
///                                               each entry a key (as a string, without tag) and a value
/// ```
/// The lengths let a reader step over a value it does not need without reading inside it.
enum StoreRecordFormat {
    /// The first byte of every binary record.
    static let marker: UInt8 = 0xC1

    enum Tag: UInt8 {
        case null = 0x00
        case `false` = 0x01
        case `true` = 0x02
        case signed = 0x03
        case unsigned = 0x04
        case double = 0x05
        case string = 0x06
        case array = 0x07
        case object = 0x08

        /// What a type mismatch found, for its error. A constant: types probe with `try?` (a JSON value
        /// tries Bool before Int), so mismatches are common and must stay cheap.
        var found: String {
            switch self {
            case .null: "found null in the store record"
            case .false, .true: "found a boolean in the store record"
            case .signed, .unsigned, .double: "found a number in the store record"
            case .string: "found a string in the store record"
            case .array: "found an array in the store record"
            case .object: "found an object in the store record"
            }
        }
    }

    /// The size of an array's or object's header after its tag: byte length and count, 4 bytes each.
    static let containerHeaderSize = 8
}

/// A coding key made from a string or an array index (whose string form is made only when asked for).
struct StoreRecordKey: CodingKey {
    private let name: String?
    let intValue: Int?

    init(stringValue: String) {
        name = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        name = nil
        self.intValue = intValue
    }

    var stringValue: String { name ?? String(intValue ?? 0) }

    static let `super` = StoreRecordKey(stringValue: "super")
}

/// A coding path kept as parent links, turned into an array only when someone asks for it (errors,
/// mostly), so coding a nested value does not copy its parent's path.
final class StoreRecordPath {
    let parent: StoreRecordPath?
    let key: any CodingKey

    init(parent: StoreRecordPath?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func keys(_ path: StoreRecordPath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = path
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// Where a value sits, for error messages: its container's path and its key. It becomes a coding path
/// only when an error is thrown, so reading a field costs no allocation for its path.
struct StoreRecordPlace {
    let parent: StoreRecordPath?
    let key: (any CodingKey)?

    var codingPath: [any CodingKey] {
        StoreRecordPath.keys(parent) + (key.map { [$0] } ?? [])
    }

    /// The path of a value that gets its own decoder.
    var path: StoreRecordPath? {
        key.map { StoreRecordPath(parent: parent, key: $0) } ?? parent
    }
}
