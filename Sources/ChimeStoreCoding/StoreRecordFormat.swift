/// The binary forms in which the stores keep their records (requests, delivered notifications, apps,
/// missed fires): what `Codable` produces, written as tagged values instead of JSON text.
///
/// JSON through Foundation's coders costs tens of microseconds per request on Linux, paid on every add
/// and every fire; these forms are written and read by `StoreRecordEncoder` and `StoreRecordDecoder`
/// without formatting or parsing text, several times faster. They keep JSON's data model — keyed values
/// are looked up by name, absent keys stay absent — so types decode the same values with the same rules,
/// and a record written by an older version of a type decodes as it would from JSON.
///
/// Two forms share the value tags (integers little-endian):
/// ```
/// record  := 0xC1 value | 0xC2 value            wide | compact; neither byte starts JSON text, so old
///                                               JSON blobs stay readable
/// value   := 0x00                               null
///          | 0x01 | 0x02                        false | true
///          | 0x03 varint                        signed integer, zigzag
///          | 0x04 varint                        unsigned integer
///          | 0x05 f64                           floating point, IEEE 754 bits
///          | 0x06 varint bytes                  string, UTF-8 byte count then bytes
///          | 0x07 size value*                   array
///          | 0x08 size (key value)*             object
/// wide:    size := u32 u32                      byte length of the entries, entry count
///          key  := varint bytes                 the key's text
/// compact: size := varint varint                byte length of the entries, entry count
///          key  := varint                       n: odd, the known key n >> 1 (`StoreRecordKnownKey`); even,
///                  [bytes]                      n >> 1 bytes of text follow
/// ```
/// The lengths let a reader step over a value it does not need without reading inside it. The compact
/// form is what the SQLite store writes: a typical reminder's record is less than half as long, because
/// the keys of Chime's own types take a byte each instead of their names. The wide form is what earlier
/// versions wrote, and what the PostgreSQL store still writes (nodes of one cluster may run different
/// versions while it is upgraded); both are read everywhere.
enum StoreRecordFormat {
    /// The first byte of every wide record.
    static let marker: UInt8 = 0xC1
    /// The first byte of every compact record.
    static let compactMarker: UInt8 = 0xC2

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

    /// The size of an array's or object's header after its tag in the wide form: byte length and count,
    /// 4 bytes each. The compact form writes varints in their place once the container is closed.
    static let containerHeaderSize = 8

    /// Each known key's text, by number: what records hold, spelled out rather than taken from the case
    /// names by reflection (a test checks that the two agree).
    static let knownKeyNames: [String] = [
        "identifier", "content", "trigger", "misfirePolicy",
        "title", "subtitle", "body", "badge", "sound", "attachments", "userInfo", "categoryIdentifier", "threadIdentifier",
        "targetContentIdentifier", "interruptionLevel", "relevanceScore", "filterCriteria", "launchImageName", "summaryArgument",
        "summaryArgumentCount",
        "key", "arguments",
        "type", "timeInterval", "repeats", "dateComponents",
        "era", "year", "month", "day", "hour", "minute", "second", "nanosecond", "weekday", "weekdayOrdinal", "quarter", "weekOfMonth",
        "weekOfYear", "yearForWeekOfYear", "calendar", "timeZone",
        "request", "date", "scheduledDate", "isLate", "actionsOverride",
        "kind", "name", "volume",
        "latitude", "longitude", "radius", "notifyOnEntry", "notifyOnExit",
        "url", "fileSize", "options",
        "requestIdentifier", "firstMissedDate", "lastMissedDate", "count", "outcome", "detectedDate",
        "dayOfYear", "isLeapMonth",
    ]

    /// Each known key's number, by text.
    static let knownKeyNumbers: [String: Int] = Dictionary(uniqueKeysWithValues: knownKeyNames.enumerated().map { ($1, $0) })

    /// Each known key's UTF-8 bytes, by number: what the wide form writes for it, and what a key written
    /// as text is compared with.
    static let knownKeyUTF8: [[UInt8]] = knownKeyNames.map { Array($0.utf8) }
}

/// The keys the compact form writes as numbers (their case names are the keys, spelled out in
/// `StoreRecordFormat.knownKeyNames`): those of the records' own types, the first 64 in one byte.
/// **Append only**: records on disk hold the numbers. A program refuses a number past its own list as
/// damage, so a key appended here needs a new schema version of the stores that write the compact form,
/// which keeps older programs from opening them.
enum StoreRecordKnownKey: Int, CaseIterable {
    // NotificationRequest
    case identifier, content, trigger, misfirePolicy
    // NotificationContent
    case title, subtitle, body, badge, sound, attachments, userInfo, categoryIdentifier, threadIdentifier
    case targetContentIdentifier, interruptionLevel, relevanceScore, filterCriteria, launchImageName, summaryArgument
    case summaryArgumentCount
    // LocalizableText
    case key, arguments
    // NotificationTrigger and its kinds
    case type, timeInterval, repeats, dateComponents
    // DateComponents, in Foundation's order
    case era, year, month, day, hour, minute, second, nanosecond, weekday, weekdayOrdinal, quarter, weekOfMonth
    case weekOfYear, yearForWeekOfYear, calendar, timeZone
    // DeliveredNotification
    case request, date, scheduledDate, isLate, actionsOverride
    // NotificationSound
    case kind, name, volume
    // LocationTrigger
    case latitude, longitude, radius, notifyOnEntry, notifyOnExit
    // NotificationAttachment
    case url, fileSize, options
    // MissedFire
    case requestIdentifier, firstMissedDate, lastMissedDate, count, outcome, detectedDate
    // Two bytes from here on.
    case dayOfYear, isLeapMonth

    var name: String { StoreRecordFormat.knownKeyNames[rawValue] }
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
