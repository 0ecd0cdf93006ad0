import ChimeCore
import Foundation

/// A notification request read straight from a record, without its `init(from:)`.
///
/// Every fire reads the request it fires, and reading one through the `Decoder` protocols costs several
/// microseconds of dynamic dispatch, a keyed container per object and a failed probe per localizable
/// text. This reads the forms `StoreRecordWriter.writeDirectly` writes, in either record form — and the
/// same forms written by `encode(to:)`, which in the wide form are the same bytes — with the rules of the
/// `init(from:)`s: the same keys, the same defaults for absent keys, unknown keys passed over, and the
/// same validating initializers.
///
/// Anything else is **declined** and left to `init(from:)`, which then reads it or throws its own error:
/// a value of another tag than the one written (`init(from:)` converts numbers), a `null`, a key seen
/// twice, attachments, a location or push trigger, date components with a calendar, a zone,
/// a day of the year, a leap month or a key Chime does not write, and any value the initializers refuse. `StoreRecordRequestCodingTests`
/// compares the two readers on every request the writer tests make and on damaged records.
extension StoreRecordReader {
    /// The request whose record value starts at `offset`, or `nil` when it is not in a form read directly.
    func requestDirectly(at offset: Int) -> NotificationRequest? {
        try? readRequest(at: offset)
    }

    /// Declines a form; never leaves this file.
    private struct Declined: Error {}

    private func readRequest(at offset: Int) throws -> NotificationRequest {
        var identifier: String?
        var content = NotificationContent()
        var trigger: NotificationTrigger?
        var misfirePolicy = MisfirePolicy.default
        try forEachEntry(ofObjectAt: offset) { key, value in
            if self.key(key, is: .identifier) {
                identifier = try exactString(at: value)
                return 1
            } else if self.key(key, is: .content) {
                content = try readContent(at: value)
                return 2
            } else if self.key(key, is: .trigger) {
                trigger = try readTrigger(at: value)
                return 3
            } else if self.key(key, is: .misfirePolicy) {
                guard let policy = MisfirePolicy(rawValue: try exactString(at: value)) else { throw Declined() }
                misfirePolicy = policy
                return 4
            }
            return 0
        }
        guard let identifier = identifier ?? impliedRequestIdentifier else { throw Declined() }
        return try NotificationRequest(identifier: identifier, content: content, trigger: trigger, misfirePolicy: misfirePolicy)
    }

    private func readContent(at offset: Int) throws -> NotificationContent {
        var content = NotificationContent()
        try forEachEntry(ofObjectAt: offset) { key, value in
            switch key.count {
            case 4 where self.key(key, is: .body):
                content.body = try readText(at: value)
                return 1
            case 5 where self.key(key, is: .title):
                content.title = try readText(at: value)
                return 2
            case 5 where self.key(key, is: .badge):
                content.badge = try exactInt(at: value)
                return 3
            case 5 where self.key(key, is: .sound):
                content.sound = try readSound(at: value)
                return 16
            case 8 where self.key(key, is: .subtitle):
                content.subtitle = try readText(at: value)
                return 4
            case 8 where self.key(key, is: .userInfo):
                content.userInfo = try exactObject(at: value)
                return 5
            case 11 where self.key(key, is: .attachments):
                guard try tag(at: value) == .array, try container(at: value).count == 0 else { throw Declined() }
                return 6
            case 18 where self.key(key, is: .categoryIdentifier):
                content.categoryIdentifier = try exactString(at: value)
                return 7
            case 16 where self.key(key, is: .threadIdentifier):
                content.threadIdentifier = try exactString(at: value)
                return 8
            case 23 where self.key(key, is: .targetContentIdentifier):
                content.targetContentIdentifier = try exactString(at: value)
                return 9
            case 17 where self.key(key, is: .interruptionLevel):
                guard let level = InterruptionLevel(apnsName: try exactString(at: value)) else { throw Declined() }
                content.interruptionLevel = level
                return 10
            case 14 where self.key(key, is: .relevanceScore):
                content.relevanceScore = try exactDouble(at: value)
                return 11
            case 14 where self.key(key, is: .filterCriteria):
                content.filterCriteria = try exactString(at: value)
                return 12
            case 15 where self.key(key, is: .launchImageName):
                content.launchImageName = try exactString(at: value)
                return 13
            case 15 where self.key(key, is: .summaryArgument):
                content.summaryArgument = try exactString(at: value)
                return 14
            case 20 where self.key(key, is: .summaryArgumentCount):
                content.summaryArgumentCount = try exactInt(at: value)
                return 15
            default:
                return 0
            }
        }
        return content  // validated with the request
    }

    /// A sound's kind, and the name and volume its kind takes (a missing volume is full volume, a
    /// missing name is refused by the sound's initializer, as `init(from:)` refuses it).
    private func readSound(at offset: Int) throws -> NotificationSound {
        var kind: String?
        var name = ""
        var volume: Float = 1
        try forEachEntry(ofObjectAt: offset) { key, value in
            if self.key(key, is: .kind) {
                kind = try exactString(at: value)
                return 1
            } else if self.key(key, is: .name) {
                name = try exactString(at: value)
                return 2
            } else if self.key(key, is: .volume) {
                guard try tag(at: value) == .double else { throw Declined() }
                volume = try float(at: value, place: StoreRecordPlace(parent: nil, key: nil))
                return 3
            }
            return 0
        }
        guard let kind else { throw Declined() }
        do {
            switch kind {
            case "default": return try NotificationSound(.default)
            case "defaultRingtone": return try NotificationSound(.defaultRingtone)
            case "named": return try NotificationSound(.named(name))
            case "ringtone": return try NotificationSound(.ringtone(name))
            case "defaultCritical": return try NotificationSound(.defaultCritical(volume: volume))
            case "criticalNamed": return try NotificationSound(.criticalNamed(name, volume: volume))
            default: throw Declined()
            }
        } catch {
            throw Declined()
        }
    }

    /// A string is a literal; an object a localized text with its key and optional arguments.
    private func readText(at offset: Int) throws -> LocalizableText {
        if try tag(at: offset) == .string { return .literal(try exactString(at: offset)) }
        var key: String?
        var arguments: [String] = []
        try forEachEntry(ofObjectAt: offset) { name, value in
            if self.key(name, is: .key) {
                key = try exactString(at: value)
                return 1
            } else if self.key(name, is: .arguments) {
                guard try tag(at: value) == .array else { throw Declined() }
                let (start, end, count) = try container(at: value)
                var position = start
                arguments.reserveCapacity(count)
                for _ in 0..<count {
                    arguments.append(try exactString(at: position))
                    position = try self.end(of: position)
                }
                guard position == end else { throw Declined() }
                return 2
            }
            return 0
        }
        guard let key else { throw Declined() }
        return .localized(key: key, arguments: arguments)
    }

    private func readTrigger(at offset: Int) throws -> NotificationTrigger {
        var kind: String?
        var interval: Double?
        var repeats: Bool?
        var components: DateComponents?
        try forEachEntry(ofObjectAt: offset) { key, value in
            if self.key(key, is: .type) {
                kind = try exactString(at: value)
                return 1
            } else if self.key(key, is: .timeInterval) {
                interval = try exactDouble(at: value)
                return 2
            } else if self.key(key, is: .repeats) {
                switch try tag(at: value) {
                case .true: repeats = true
                case .false: repeats = false
                default: throw Declined()
                }
                return 3
            } else if self.key(key, is: .dateComponents) {
                components = try readComponents(at: value)
                return 4
            }
            return 0
        }
        guard let repeats else { throw Declined() }
        switch kind {
        case "timeInterval":
            guard let interval else { throw Declined() }
            return .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: repeats))
        case "calendar":
            guard let components else { throw Declined() }
            return .calendar(try CalendarTrigger(dateMatching: components, repeats: repeats))
        default:
            throw Declined()
        }
    }

    /// The numbered components; any other key (a calendar, a zone, a day of the year, a leap month) is
    /// left to Foundation's `init(from:)`.
    private func readComponents(at offset: Int) throws -> DateComponents {
        var components = DateComponents()
        try forEachEntry(ofObjectAt: offset) { key, value in
            let number = try exactInt(at: value)
            switch key.count {
            case 3 where self.key(key, is: .era): components.era = number; return 1
            case 4 where self.key(key, is: .year): components.year = number; return 2
            case 5 where self.key(key, is: .month): components.month = number; return 3
            case 3 where self.key(key, is: .day): components.day = number; return 4
            case 4 where self.key(key, is: .hour): components.hour = number; return 5
            case 6 where self.key(key, is: .minute): components.minute = number; return 6
            case 6 where self.key(key, is: .second): components.second = number; return 7
            case 10 where self.key(key, is: .nanosecond): components.nanosecond = number; return 8
            case 7 where self.key(key, is: .weekday): components.weekday = number; return 9
            case 14 where self.key(key, is: .weekdayOrdinal): components.weekdayOrdinal = number; return 10
            case 7 where self.key(key, is: .quarter): components.quarter = number; return 11
            case 11 where self.key(key, is: .weekOfMonth): components.weekOfMonth = number; return 12
            case 10 where self.key(key, is: .weekOfYear): components.weekOfYear = number; return 13
            case 17 where self.key(key, is: .yearForWeekOfYear): components.yearForWeekOfYear = number; return 14
            default: throw Declined()
            }
        }
        return components
    }

    // MARK: Values of exactly the tag the writer uses

    /// Calls `body` with each entry's key and value offset; `body` returns the key's field number
    /// (1–63), or 0 for a key it does not know. A field seen twice declines (the writers never repeat a
    /// key, and `init(from:)` would take the first where this would take the last).
    private func forEachEntry(ofObjectAt offset: Int, _ body: (StoredKey, Int) throws -> Int) throws {
        guard try tag(at: offset) == .object else { throw Declined() }
        let (start, end, count) = try container(at: offset)
        var seen: UInt64 = 0
        var position = start
        for _ in 0..<count {
            let key = try storedKey(at: position)
            let field = try body(key, key.value)
            if field != 0 {
                guard seen & (1 << field) == 0 else { throw Declined() }
                seen |= 1 << field
            }
            position = try self.end(of: key.value)
            guard position <= end else { throw Declined() }
        }
        guard position == end else { throw Declined() }
    }

    private func exactString(at offset: Int) throws -> String {
        guard try tag(at: offset) == .string else { throw Declined() }
        return try text(try stringBytes(at: offset + 1), place: StoreRecordPlace(parent: nil, key: nil))
    }

    private func exactInt(at offset: Int) throws -> Int {
        guard try tag(at: offset) == .signed else { throw Declined() }
        var position = offset + 1
        let zigzag = try varint(at: &position)
        guard let value = Int(exactly: Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)) else { throw Declined() }
        return value
    }

    private func exactDouble(at offset: Int) throws -> Double {
        guard try tag(at: offset) == .double else { throw Declined() }
        return try double(at: offset, place: StoreRecordPlace(parent: nil, key: nil))
    }

    private func exactObject(at offset: Int) throws -> [String: JSONValue] {
        guard try tag(at: offset) == .object else { throw Declined() }
        return try jsonObject(at: offset, place: StoreRecordPlace(parent: nil, key: nil))
    }
}
