import ChimeCore
import ChimeEngine
@testable import ChimeSQLite
@testable import ChimeStoreCoding
import ChimeTesting
import Foundation
import Testing

/// The store's records: written in the binary record format, read back equal, old JSON blobs still read,
/// damaged records refused without a trap, and values the binary encoder cannot stream stored as JSON.
@Suite("Store record coding")
struct StoreCodingTests {
    static let added = Date(timeIntervalSinceReferenceDate: 786_240_000.123_456)

    static func richRequest() throws -> NotificationRequest {
        var content = NotificationContent(
            title: "Tea \"is\" ready ☕️", subtitle: .localized(key: "SUB", arguments: ["Earl Grey", "", "ü"]),
            body: "Line one\nline two\u{0}after a NUL, and a long tail: \(String(repeating: "ß", count: 300))")
        content.badge = 3
        content.sound = try .criticalNamed("warning.aiff", volume: 0.8)
        content.attachments = [
            try NotificationAttachment(
                identifier: "photo", url: URL(fileURLWithPath: "/var/lib/chime/photo.png"), type: .png, fileSize: 1234)
        ]
        content.userInfo = [
            "list": [1, 2.5, "x", nil, true, ["nested": -7]],
            "extremes": [.int(Int.max), .int(Int.min), .double(-0.0), .double(1e300), .double(Double.leastNonzeroMagnitude)],
            "empty": [:], "emptyList": [],
        ]
        content.categoryIdentifier = "tea"
        content.threadIdentifier = "kitchen"
        content.targetContentIdentifier = "pot-1"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.75
        content.filterCriteria = "work"
        content.launchImageName = "launch"
        content.summaryArgument = "Jane"
        content.summaryArgumentCount = 2
        var components = DateComponents(hour: 7, minute: 30, weekday: 2)
        components.timeZone = TimeZone(identifier: "Asia/Seoul")
        return try NotificationRequest(
            identifier: "tea-1", content: content, trigger: .calendar(CalendarTrigger(dateMatching: components, repeats: true)),
            misfirePolicy: .skip)
    }

    static func requests() throws -> [NotificationRequest] {
        [
            try richRequest(),
            try NotificationRequest(identifier: "now", content: NotificationContent(title: "Now"), trigger: nil),
            try NotificationRequest(
                identifier: "interval", content: NotificationContent(body: "Every minute"),
                trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 60, repeats: true))),
            try NotificationRequest(
                identifier: "floating", content: NotificationContent(title: .localized(key: "ALARM")),
                trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(month: 2, day: 29, hour: 9), repeats: false))),
            try NotificationRequest(
                identifier: "place", content: NotificationContent(title: "Home"),
                trigger: .location(LocationTrigger(
                    region: CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150.5, identifier: "home", notifyOnExit: false),
                    repeats: true))),
        ]
    }

    static func app() throws -> AppRecord {
        let reply = try NotificationAction.textInput(
            identifier: "reply", title: "Reply", options: [.authenticationRequired], icon: NotificationActionIcon(systemImageName: "arrowshape.turn.up.left"),
            buttonTitle: "Send", placeholder: .localized(key: "TYPE"))
        let delete = try NotificationAction(identifier: "delete", title: "Delete", options: [.destructive, .foreground])
        let category = try NotificationCategory(
            identifier: "message", actions: [reply, delete], intentIdentifiers: ["INSendMessageIntent"],
            hiddenPreviewsBodyPlaceholder: "%u messages", categorySummaryFormat: .localized(key: "SUMMARY"),
            options: [.customDismissAction, .hiddenPreviewsShowTitle])
        return AppRecord(
            appIdentifier: "com.example.chat", settings: .granted([.alert, .sound, .badge, .timeSensitive]),
            requestedOptions: [.alert, .sound, .badge, .timeSensitive], categories: [category], badgeCount: 12)
    }

    static func delivered() throws -> DeliveredNotification {
        try DeliveredNotification(
            request: richRequest(), date: added.addingTimeInterval(90), scheduledDate: added, isLate: true,
            actionsOverride: [try NotificationAction(identifier: "like", title: "Like")])
    }

    static let missed = MissedFire(
        requestIdentifier: "tea-1", firstMissedDate: added, lastMissedDate: added.addingTimeInterval(3600), count: 2,
        outcome: .deliveredLate, detectedDate: added.addingTimeInterval(4000))

    func roundTrip<Value: Codable & Equatable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let column = try StoreCoding.encode(value)
        guard case .blob(let bytes) = column else {
            Issue.record("not a blob", sourceLocation: sourceLocation)
            return
        }
        #expect(bytes.first == StoreRecordFormat.compactMarker, "written in the compact form", sourceLocation: sourceLocation)
        #expect(try StoreCoding.decode(Value.self, from: column) == value, sourceLocation: sourceLocation)
        // The wide form, which earlier versions wrote and the PostgreSQL store writes, is read as well.
        let wide = try StoreRecord.encode(value, form: .wide)
        #expect(wide.first == StoreRecordFormat.marker, sourceLocation: sourceLocation)
        #expect(try StoreCoding.decode(Value.self, from: .blob(wide)) == value, sourceLocation: sourceLocation)
    }

    @Test func recordsRoundTripInTheBinaryForm() throws {
        for request in try Self.requests() {
            try roundTrip(request)
            try roundTrip(PendingRequest(appIdentifier: "app", request: request, addedDate: Self.added, nextFireDate: Self.added.addingTimeInterval(0.5)))
        }
        try roundTrip(try Self.app())
        try roundTrip(AppRecord(appIdentifier: "new"))
        try roundTrip(try Self.delivered())
        try roundTrip(Self.missed)
    }

    @Test func blobsWrittenAsJSONAreStillRead() throws {
        let app = try Self.app()
        #expect(try StoreCoding.decode(AppRecord.self, from: .blob(Array(JSONEncoder().encode(app)))) == app)
        for request in try Self.requests() {
            #expect(try StoreCoding.decode(NotificationRequest.self, from: .blob(Array(JSONEncoder().encode(request)))) == request)
        }
        let delivered = try Self.delivered()
        #expect(try StoreCoding.decode(DeliveredNotification.self, from: .blob(Array(JSONEncoder().encode(delivered)))) == delivered)
    }

    @Test func jsonValuesReadAsJSONDecoderReadsThem() throws {
        let values: [JSONValue] = [
            nil, true, false, 0, -1, .int(Int.max), .int(Int.min), 2.5, .double(2), .double(-0.0), .double(1e300), "",
            "text with \"quotes\" and ü", [], [1, "a", nil, [2.5]], [:], ["a": ["b": ["c": [true]]], "": 0],
        ]
        for compact in [true, false] {
            for value in values {
                let fromJSON = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
                let fromRecord = try StoreRecordDecoder.decode(JSONValue.self, from: StoreRecordEncoder.encode(value, compact: compact))
                #expect(fromRecord == fromJSON)
                #expect(fromRecord == value)
            }
            // Numbers the JSON text cannot tell apart come back as JSON would give them.
            #expect(try StoreRecordDecoder.decode(JSONValue.self, from: StoreRecordEncoder.encode(JSONValue.double(2), compact: compact)).intValue == 2)
            #expect(try StoreRecordDecoder.decode(JSONValue.self, from: StoreRecordEncoder.encode(UInt64.max, compact: compact)).doubleValue == Double(UInt64.max))
        }
    }

    @Test func numbersKeepTheirValues() throws {
        struct Numbers: Codable, Equatable {
            var int = Int.min, int8 = Int8.min, int16 = Int16.max, int32 = Int32.min, int64 = Int64.max
            var uint = UInt.max, uint8 = UInt8.max, uint16 = UInt16.max, uint32 = UInt32.max, uint64 = UInt64.max
            var double = -0.000_001, float = Float(3.25), infinity = Double.infinity
            var optional: Int? = nil, present: String? = "", flags = [true, false]
            var dates = [Date.distantPast, Date(timeIntervalSinceReferenceDate: 0.1)]
            var ints: [Int: String] = [-1: "minus one", 7: "seven"]
        }
        try roundTrip(Numbers())
    }

    @Test func numbersConvertAsInJSON() throws {
        struct Whole: Codable { var value: Double }
        struct AsInt: Codable, Equatable { var value: Int }
        struct AsUInt8: Codable { var value: UInt8 }
        let bytes = try StoreRecordEncoder.encode(Whole(value: 42), compact: true)
        #expect(try StoreRecordDecoder.decode(AsInt.self, from: bytes) == AsInt(value: 42))
        #expect(throws: DecodingError.self) { try StoreRecordDecoder.decode(AsInt.self, from: StoreRecordEncoder.encode(Whole(value: 0.5), compact: true)) }
        #expect(throws: DecodingError.self) { try StoreRecordDecoder.decode(AsUInt8.self, from: StoreRecordEncoder.encode(AsInt(value: 256), compact: true)) }
        #expect(throws: DecodingError.self) { try StoreRecordDecoder.decode(AsInt.self, from: StoreRecordEncoder.encode(["value": "1"], compact: true)) }
    }

    @Test(arguments: [StoreRecord.Form.compact, .wide])
    func aDamagedRecordThrowsAndNeverTraps(form: StoreRecord.Form) throws {
        let bytes = try StoreRecord.encode(try Self.app(), form: form)
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try StoreRecordDecoder.decode(AppRecord.self, from: Array(bytes.prefix(length))) }
        }
        let request = try StoreRecord.encode(try Self.richRequest(), form: form)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            var damaged = bytes
            damaged[Int.random(in: 1..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? StoreRecordDecoder.decode(AppRecord.self, from: damaged)  // an error or a value, never a trap
            var damagedRequest = request
            damagedRequest[Int.random(in: 1..<damagedRequest.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? StoreRecordDecoder.decode(NotificationRequest.self, from: damagedRequest)
        }
    }

    /// The compact form's key numbers stand for the names spelled out in the table, one per case, in the
    /// order records on disk hold them.
    @Test func theKnownKeysAreTheirCaseNamesInTheirOrder() {
        #expect(StoreRecordKnownKey.allCases.map { "\($0)" } == StoreRecordFormat.knownKeyNames)
        #expect(StoreRecordFormat.knownKeyNames.prefix(4) == ["identifier", "content", "trigger", "misfirePolicy"])
        #expect(StoreRecordKnownKey.isLeapMonth.rawValue == 65, "keys are only appended")
        #expect(Set(StoreRecordFormat.knownKeyNames).count == StoreRecordFormat.knownKeyNames.count)
    }

    /// A relevance of -0.0 is not the 0 an absent key gives: the compact record keeps its sign.
    @Test func aNegativeZeroRelevanceKeepsItsSign() throws {
        var content = NotificationContent(title: "t")
        content.relevanceScore = -0.0
        let request = try NotificationRequest(identifier: "z", content: content, trigger: nil)
        for form in [StoreRecord.Form.compact, .wide] {
            let read = try StoreRecord.decode(NotificationRequest.self, from: StoreRecord.encode(request, form: form))
            #expect(read.content.relevanceScore.sign == .minus, "\(form)")
        }
    }

    /// User info nests as deep as content allows, and a damaged record that nests deeper than the reader's
    /// bound is refused with an error, not by running out of stack.
    @Test func deepUserInfoReadsBackAndDamageNestingDeeperIsRefused() throws {
        var nested: JSONValue = "leaf"
        for level in 0..<(NotificationContent.maximumUserInfoDepth - 1) { nested = level.isMultiple(of: 2) ? .array([nested]) : .object(["k": nested]) }
        var content = NotificationContent(title: "deep")
        content.userInfo = ["deep": nested]
        let request = try NotificationRequest(identifier: "deep", content: content, trigger: nil)
        #expect(try StoreRecord.decode(NotificationRequest.self, from: StoreRecord.encode(request, form: .compact)) == request)

        let bound = StoreRecordReader.maximumJSONDepth
        for objects in [false, true] {
            #expect(try StoreRecord.decode(JSONValue.self, from: Self.nestedRecord(levels: bound, objects: objects)) != .null)
            for levels in [bound + 1, 100_000] {
                let error = #expect(throws: DecodingError.self) {
                    try StoreRecord.decode(JSONValue.self, from: Self.nestedRecord(levels: levels, objects: objects))
                }
                guard case .dataCorrupted(let context)? = error else {
                    Issue.record("\(levels) levels: \(String(describing: error))")
                    continue
                }
                #expect(context.debugDescription.contains("nests too deep"), "\(levels) levels: \(context.debugDescription)")
            }
        }
    }

    /// A compact record of `levels` arrays (or objects, under the key "k") each holding the next, around
    /// a null; built from the inside out, as each header holds the size of all it contains.
    static func nestedRecord(levels: Int, objects: Bool) -> [UInt8] {
        let key: [UInt8] = objects ? [1 << 1, UInt8(ascii: "k")] : []
        let tag = objects ? StoreRecordFormat.Tag.object : .array
        var pieces: [[UInt8]] = []
        var size = 1
        for _ in 0..<levels {
            let piece = [tag.rawValue] + varint(UInt64(size + key.count)) + [1] + key
            pieces.append(piece)
            size += piece.count
        }
        return [StoreRecordFormat.compactMarker] + pieces.reversed().flatMap { $0 } + [StoreRecordFormat.Tag.null.rawValue]
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    /// Encodes through `superEncoder`, which the binary encoder does not stream.
    struct Inherited: Codable, Equatable {
        var name = "base"
        var extra = 3

        enum CodingKeys: String, CodingKey { case extra }

        init() {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            extra = try container.decode(Int.self, forKey: .extra)
            name = try container.superDecoder().singleValueContainer().decode(String.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            var base = container.superEncoder().singleValueContainer()
            try base.encode(name)
        }
    }

    /// Writes to its outer container after opening a nested one, then to the nested one.
    struct Interleaved: Codable, Equatable {
        var inner = 1
        var outer = 2

        enum CodingKeys: String, CodingKey { case nested, outer }
        enum NestedKeys: String, CodingKey { case inner }

        init() {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            outer = try container.decode(Int.self, forKey: .outer)
            inner = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested).decode(Int.self, forKey: .inner)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
            try container.encode(outer, forKey: .outer)
            try nested.encode(inner, forKey: .inner)
        }
    }

    @Test func valuesTheBinaryEncoderCannotStreamAreStoredAsJSON() throws {
        for value in [try StoreCoding.encode(Inherited()), try StoreCoding.encode(Interleaved())] {
            guard case .blob(let bytes) = value else { return }
            #expect(bytes.first == UInt8(ascii: "{"))
        }
        #expect(try StoreCoding.decode(Inherited.self, from: StoreCoding.encode(Inherited())) == Inherited())
        #expect(try StoreCoding.decode(Interleaved.self, from: StoreCoding.encode(Interleaved())) == Interleaved())
    }
}
