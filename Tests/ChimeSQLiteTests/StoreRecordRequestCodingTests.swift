import ChimeCore
@testable import ChimeStoreCoding
import ChimeTesting
import Foundation
import Testing

/// Requests written into records without their `encode(to:)` must be the very bytes `encode(to:)` writes
/// through the record encoder, and requests read without their `init(from:)` the very values (or
/// failures) `init(from:)` gives: the oracle is the `Codable` path itself, reached through wrappers the
/// direct writer and reader do not know.
@Suite("Store records: requests written and read directly")
struct StoreRecordRequestCodingTests {
    /// Encodes its request through `encode(to:)`, as every record did before requests were written
    /// directly.
    struct ThroughCodable: Encodable {
        let request: NotificationRequest
        func encode(to encoder: any Encoder) throws { try request.encode(to: encoder) }
    }

    /// Decodes its request through `init(from:)`, as every record was read before requests were read
    /// directly.
    struct ThroughDecodable: Decodable {
        let request: NotificationRequest
        init(from decoder: any Decoder) throws { request = try NotificationRequest(from: decoder) }
    }

    static func isReadDirectly(_ bytes: [UInt8]) -> Bool {
        StoreRecordReader(bytes).requestDirectly(at: 1) != nil
    }

    /// What `init(from:)` reads from `bytes`: the request, or nil when it throws.
    static func reference(_ bytes: [UInt8]) -> NotificationRequest? {
        try? StoreRecordDecoder.decode(ThroughDecodable.self, from: bytes).request
    }

    static func isWrittenDirectly(_ request: NotificationRequest) -> Bool {
        StoreRecordWriter(compact: false).writeDirectly(request)
    }

    /// Whether the wide record is `encode(to:)`'s bytes, the compact one reads back through `init(from:)`
    /// (it leaves out fields at their defaults, which `encode(to:)` writes), and both read back as the
    /// request; records an issue if not.
    @discardableResult
    func expectSameBytes(_ request: NotificationRequest, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        for form in [StoreRecord.Form.compact, .wide] {
            let direct = try StoreRecord.encode(request, form: form)
            let reference = try StoreRecordEncoder.encode(ThroughCodable(request: request), compact: form == .compact)
            if form == .compact {
                guard Self.reference(direct) == request, direct.count <= reference.count else {
                    Issue.record("\(request.identifier): the compact record does not read back through init(from:): \(request)", sourceLocation: sourceLocation)
                    return false
                }
            } else if direct != reference {
                let at = (0..<min(direct.count, reference.count)).first { direct[$0] != reference[$0] } ?? min(direct.count, reference.count)
                Issue.record("\(request.identifier), \(form): the bytes differ from byte \(at) of \(reference.count): \(request)", sourceLocation: sourceLocation)
                return false
            }
            #expect(try StoreRecord.decode(NotificationRequest.self, from: direct) == request, sourceLocation: sourceLocation)
            #expect(
                Self.isReadDirectly(direct) == Self.isWrittenDirectly(request), "\(request.identifier) is read as directly as it is written (\(form))",
                sourceLocation: sourceLocation)
            try expectReadsBackWithItsIdentifierApart(request, form: form, whole: direct, sourceLocation: sourceLocation)
        }
        return true
    }

    /// A record for a store that keeps the identifier in the row's key: without it when written directly
    /// (exactly the identifier's key and string shorter), whole otherwise, and read back as the request by
    /// the direct reader and by `init(from:)` alike, given the identifier.
    func expectReadsBackWithItsIdentifierApart(
        _ request: NotificationRequest, form: StoreRecord.Form, whole: [UInt8], sourceLocation: SourceLocation
    ) throws {
        let apart = try StoreRecord.encodeForKeyedRow(request, form: form)
        if Self.isWrittenDirectly(request) {
            let identifierBytes = request.identifier.utf8.count
            // The key (a byte compact, its text wide), the string's tag, its length varint and its bytes.
            let saved = (form == .compact ? 1 : 1 + "identifier".utf8.count) + 1 + (identifierBytes < 128 ? 1 : 2) + identifierBytes
            // In the compact form the object's byte length is a varint, which may take a byte less.
            let expected = form == .compact ? saved...(saved + 1) : saved...saved
            #expect(
                expected.contains(whole.count - apart.count), "\(request.identifier) (\(form)): \(whole.count) bytes whole, \(apart.count) apart",
                sourceLocation: sourceLocation)
            #expect(Self.reference(apart) == nil, "without the identifier, init(from:) alone cannot read it", sourceLocation: sourceLocation)
        } else {
            #expect(apart == whole, "\(request.identifier) is left to encode(to:), which keeps the identifier", sourceLocation: sourceLocation)
        }
        #expect(try StoreRecord.decode(NotificationRequest.self, from: apart, identifier: request.identifier) == request, sourceLocation: sourceLocation)
        let throughInitFrom = try? StoreRecordDecoder.decode(ThroughDecodable.self, from: apart, impliedRequestIdentifier: request.identifier).request
        #expect(throughInitFrom == request, "init(from:) reads it with the identifier the store kept", sourceLocation: sourceLocation)
        // A record filed under another request's key is damage, not that request.
        #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
            try StoreRecord.decode(NotificationRequest.self, from: whole, identifier: request.identifier + "-other")
        }
    }

    @Test func typicalRequestsAreWrittenDirectlyWithTheCodablePathsBytes() throws {
        var everything = NotificationContent(title: .localized(key: "TEA", arguments: ["Earl Grey", ""]), subtitle: "Kitchen ☕️", body: .localized(key: "BODY"))
        everything.badge = 0
        everything.userInfo = ["order": 42, "tags": ["a", nil, 2.5, true], "nested": ["x": -0.0]]
        everything.categoryIdentifier = "tea"
        everything.threadIdentifier = "kitchen"
        everything.targetContentIdentifier = ""
        everything.interruptionLevel = .critical
        everything.relevanceScore = 1
        everything.filterCriteria = "work"
        everything.launchImageName = "launch"
        everything.summaryArgument = "Jane"
        everything.summaryArgumentCount = Int.max
        let requests = [
            try NotificationRequest(identifier: "now", content: NotificationContent(), trigger: nil),
            try NotificationRequest(identifier: "n", content: NotificationContent(title: "Order 1"), trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 0.25, repeats: false))),
            try NotificationRequest(
                identifier: "everything", content: everything, trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 3_600, repeats: true)), misfirePolicy: .skip),
            try NotificationRequest(
                identifier: "wake", content: NotificationContent(title: "Up"),
                trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 8, minute: 0), repeats: true))),
            try NotificationRequest(
                identifier: "all-fields", content: NotificationContent(body: "b"),
                trigger: .calendar(
                    CalendarTrigger(
                        dateMatching: DateComponents(
                            era: 1, year: 2027, month: 3, day: 1, hour: 23, minute: 59, second: 59, nanosecond: 999_999_999, weekday: 2, weekdayOrdinal: -1,
                            quarter: 1, weekOfMonth: 1, weekOfYear: 9, yearForWeekOfYear: 2027), repeats: false))),
        ]
        var sounds: [NotificationRequest] = []
        for (index, sound) in [
            NotificationSound.default, .defaultRingtone, try NotificationSound.named("bell.aiff"), try .ringtone("ring.caf"), .defaultCritical,
            try .defaultCritical(volume: 0.3), try .criticalNamed("alarm.aiff", volume: 0), try .criticalNamed("alarm.aiff", volume: 0.7),
        ].enumerated() {
            var content = NotificationContent(title: "Ring \(index)")
            content.sound = sound
            sounds.append(try NotificationRequest(identifier: "sound-\(index)", content: content, trigger: nil))
        }
        for request in requests + sounds {
            #expect(Self.isWrittenDirectly(request), "\(request.identifier) takes the direct path")
            try expectSameBytes(request)
        }
    }

    @Test func formsLeftToEncodeToStillGiveTheirBytes() throws {
        for request in try Self.declinedRequests() {
            #expect(!Self.isWrittenDirectly(request), "\(request.identifier) is left to encode(to:)")
            try expectSameBytes(request)
        }
    }

    /// Requests of forms the direct writer leaves to `encode(to:)`.
    static func declinedRequests() throws -> [NotificationRequest] {
        var zoned = DateComponents(hour: 7)
        zoned.timeZone = TimeZone(identifier: "Asia/Seoul")
        var leap = DateComponents(month: 2, day: 1)
        leap.isLeapMonth = false
        var dayOfYear = DateComponents()
        dayOfYear.dayOfYear = 100
        return [
            try NotificationRequest(identifier: "zoned", content: NotificationContent(), trigger: .calendar(CalendarTrigger(dateMatching: zoned, repeats: true))),
            try NotificationRequest(identifier: "leap", content: NotificationContent(), trigger: .calendar(CalendarTrigger(dateMatching: leap, repeats: true))),
            try NotificationRequest(
                identifier: "day-of-year", content: NotificationContent(), trigger: .calendar(CalendarTrigger(dateMatching: dayOfYear, repeats: true))),
            try NotificationRequest(identifier: "push", content: NotificationContent(), trigger: .push(PushTrigger())),
            try NotificationRequest(
                identifier: "place", content: NotificationContent(),
                trigger: .location(LocationTrigger(region: CircularRegion(latitude: 1, longitude: 2, radius: 100, identifier: "r", notifyOnExit: false), repeats: false))),
        ]
    }

    /// A batch's records written by one packer into one buffer are each the record written alone, in
    /// order, whatever came before: requests written directly and requests left to `encode(to:)` mixed.
    @Test func packedRecordsAreEachTheRecordWrittenAlone() throws {
        var random = SeededGenerator(seed: 0x9ACC_ED)
        let declined = try Self.declinedRequests()
        var requests: [NotificationRequest] = []
        for index in 0..<3_000 {
            requests.append(try Self.randomRequest(index, &random))
            if index.isMultiple(of: 97) { requests.append(declined[index % declined.count]) }
        }
        for form in [StoreRecord.Form.compact, .wide] {
            var packer = StoreRecordPacker(form: form, records: 16)  // fewer than packed: the buffer grows
            #expect(packer.records.count == 0)
            for request in requests { try packer.append(request) }
            let packed = packer.records
            #expect(packed.count == requests.count)
            var total = 0
            for (index, request) in requests.enumerated() {
                let alone = try StoreRecord.encodeForKeyedRow(request, form: form)
                total += alone.count
                guard packed.record(at: index) == alone else {
                    Issue.record("record \(index) (\(request.identifier), \(form)) differs from the record written alone")
                    return
                }
                #expect(packed.withRecord(at: index) { $0.count } == alone.count)
                #expect(try StoreRecord.decode(NotificationRequest.self, from: packed.record(at: index), identifier: request.identifier) == request)
            }
            #expect(packed.bytes.count == total, "nothing between the records")
        }
    }

    /// A request inside another record (a delivered notification) is written directly too, and reads back.
    @Test func aDeliveredNotificationsRequestReadsBack() throws {
        let request = try NotificationRequest(
            identifier: "d", content: NotificationContent(title: .localized(key: "K", arguments: ["1"])),
            trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 9, weekday: 1), repeats: true)))
        let delivered = try DeliveredNotification(
            request: request, date: Date(timeIntervalSinceReferenceDate: 800_000_000.5), scheduledDate: Date(timeIntervalSinceReferenceDate: 800_000_000),
            isLate: false)
        for form in [StoreRecord.Form.compact, .wide] {
            #expect(try StoreRecord.decode(DeliveredNotification.self, from: StoreRecord.encode(delivered, form: form)) == delivered)
        }
    }

    /// Hides a delivered notification's type from the encoder, so only its `encode(to:)` writes its own
    /// keys (the request inside is still written directly, as in the records it is compared with).
    struct DeliveredThroughCodable: Encodable {
        let delivered: DeliveredNotification
        func encode(to encoder: any Encoder) throws { try delivered.encode(to: encoder) }
    }

    /// Delivered notifications, as fires record them, are written directly: in the wide form with the
    /// bytes of their `encode(to:)`, in the compact form shorter and reading back the same; one with an
    /// actions override, or a request left to `encode(to:)`, takes that path whole.
    @Test func deliveredNotificationsAreWrittenDirectly() throws {
        var random = SeededGenerator(seed: 0xDE11_7E2D)
        let override = [try NotificationAction(identifier: "ok", title: "OK")]
        for index in 0..<2_000 {
            let request = try Self.randomRequest(index, &random)
            let date = Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 0.25)
            let delivered = try DeliveredNotification(
                request: request, date: date, scheduledDate: index % 3 == 0 ? nil : date.addingTimeInterval(-Double(index % 5)),
                isLate: index % 3 == 2, actionsOverride: index % 17 == 0 ? override : nil)
            for form in [StoreRecord.Form.compact, .wide] {
                let direct = try StoreRecord.encode(delivered, form: form)
                let reference = try StoreRecordEncoder.encode(DeliveredThroughCodable(delivered: delivered), compact: form == .compact)
                #expect(try StoreRecord.decode(DeliveredNotification.self, from: direct) == delivered, "\(index) \(form)")
                if form == .wide || delivered.actionsOverride != nil {
                    #expect(direct == reference, "\(index) \(form): the encode(to:) bytes")
                } else {
                    #expect(direct.count <= reference.count, "\(index): compact leaves out a false isLate")
                    #expect(delivered.isLate || direct.count < reference.count, "\(index): a false isLate is left out")
                }
            }
        }
    }

    /// 10,000 random requests over every field the direct writer takes, each optional one present or not.
    @Test func randomRequestsMatchTheCodablePathByteForByte() throws {
        var random = SeededGenerator(seed: 0x5EC0_DE12)
        var direct = 0
        for index in 0..<10_000 {
            let request = try Self.randomRequest(index, &random)
            if Self.isWrittenDirectly(request) { direct += 1 }
            guard try expectSameBytes(request) else { return }
        }
        #expect(direct == 10_000)
    }

    /// Records damaged byte by byte (flipped, cut, grown) read the same through both paths: the same
    /// request, or a failure from both. What the direct reader declines goes to `init(from:)`, so a
    /// failure is `init(from:)`'s own error.
    @Test func damagedRecordsReadAsInitFromReadsThem() throws {
        var random = SeededGenerator(seed: 0xDA3A_6ED)
        var readDirectly = 0
        var refused = 0
        for index in 0..<20_000 {
            // Both forms, in turn.
            var bytes = try StoreRecord.encode(try Self.randomRequest(index, &random), form: index.isMultiple(of: 2) ? .compact : .wide)
            switch Int.random(in: 0...3, using: &random) {
            case 0:
                for _ in 0...Int.random(in: 0...2, using: &random) {
                    bytes[Int.random(in: 1..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                bytes[Int.random(in: 1..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 2:
                bytes.removeLast(Int.random(in: 1...min(8, bytes.count - 1), using: &random))
            default:
                // A tag changed to another of the same width (true and false, null and a boolean).
                if let at = bytes.indices.dropFirst().filter({ [0x00, 0x01, 0x02].contains(bytes[$0]) }).randomElement(using: &random) {
                    bytes[at] = [0x00, 0x01, 0x02].randomElement(using: &random)!
                }
            }
            let read = try? StoreRecord.decode(NotificationRequest.self, from: bytes)
            let reference = Self.reference(bytes)
            guard read == reference else {
                Issue.record("record \(index): read \(String(describing: read)), init(from:) reads \(String(describing: reference)); bytes \(bytes)")
                return
            }
            if Self.isReadDirectly(bytes) { readDirectly += 1 }
            if read == nil { refused += 1 }
        }
        // Both kinds of case occur: damage the direct reader reads (a changed letter in a title) and
        // damage that makes the record unreadable.
        #expect(readDirectly > 1_000 && refused > 1_000, "read directly \(readDirectly), refused \(refused)")
    }

    static func randomRequest(_ index: Int, _ random: inout SeededGenerator) throws -> NotificationRequest {
        func text() -> String { RandomRequestParts.text(using: &random) }
        func jsonValue(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0...(depth > 1 ? 4 : 6), using: &random) {
            case 0: .null
            case 1: .bool(Bool.random(using: &random))
            case 2: .int(Int(truncatingIfNeeded: random.next()))
            case 3: .double([-0.0, 0.1, 1e300, -2.5, Double.leastNormalMagnitude].randomElement(using: &random)!)
            case 4: .string(text())
            case 5: .array((0..<Int.random(in: 0...3, using: &random)).map { _ in jsonValue(depth + 1) })
            default: .object(Dictionary((0..<Int.random(in: 0...3, using: &random)).map { ("k\($0)", jsonValue(depth + 1)) }, uniquingKeysWith: { a, _ in a }))
            }
        }

        var content = RandomRequestParts.content(relevanceScores: [0, -0.0, 0.5, 1, Double.random(in: 0...1, using: &random)], using: &random)
        if Int.random(in: 0...3, using: &random) == 0 {
            content.sound = [
                NotificationSound.default, .defaultRingtone, try .named("s" + text()), try .ringtone("r" + text()), try .defaultCritical(volume: Float.random(in: 0...1, using: &random)),
                try .criticalNamed("c" + text(), volume: Float.random(in: 0...1, using: &random)),
            ].randomElement(using: &random)!
        }
        if Bool.random(using: &random) {
            content.userInfo = Dictionary((0..<Int.random(in: 1...4, using: &random)).map { ("key\($0)", jsonValue(0)) }, uniquingKeysWith: { a, _ in a })
        }

        let trigger: NotificationTrigger?
        switch Int.random(in: 0...2, using: &random) {
        case 0:
            trigger = nil
        case 1:
            let repeats = Bool.random(using: &random)
            let interval = repeats ? Double.random(in: 60...1e9, using: &random) : [1e-9, 0.5, 1, Double.random(in: 0.001...1e9, using: &random)].randomElement(using: &random)!
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: repeats))
        default:
            let components = RandomRequestParts.dateComponents(using: &random)
            trigger = .calendar(try CalendarTrigger(dateMatching: components, repeats: Bool.random(using: &random)))
        }
        return try NotificationRequest(
            identifier: "r\(index)" + text(), content: content, trigger: trigger, misfirePolicy: MisfirePolicy.allCases.randomElement(using: &random)!)
    }
}
