import ChimeCore
import Foundation
import Testing

@Suite struct APNsPayloadEncodingTests {
    private func json(_ content: NotificationContent, contentAvailable: Bool = false, mutableContent: Bool = false) throws(ChimeError) -> String {
        let payload = APNsPayload(content: content, contentAvailable: contentAvailable, mutableContent: mutableContent)
        return String(decoding: try payload.jsonData(), as: UTF8.self)
    }

    // MARK: - Output

    @Test func encodesDefaultContentAsAnEmptyApsDictionary() throws {
        #expect(try json(NotificationContent()) == #"{"aps":{}}"#)
    }

    @Test func encodesALiteralBodyAloneAsAnAlertString() throws {
        #expect(try json(NotificationContent(body: "Tea is ready")) == #"{"aps":{"alert":"Tea is ready"}}"#)
    }

    @Test(arguments: [
        (NotificationContent(title: "T"), #"{"aps":{"alert":{"title":"T"}}}"#),
        (NotificationContent(subtitle: "S", body: "B"), #"{"aps":{"alert":{"body":"B","subtitle":"S"}}}"#),
        (NotificationContent(title: "T", subtitle: "S", body: "B"), #"{"aps":{"alert":{"body":"B","subtitle":"S","title":"T"}}}"#),
        (NotificationContent(body: .localized(key: "K")), #"{"aps":{"alert":{"loc-key":"K"}}}"#),
        (NotificationContent(body: .localized(key: "K", arguments: ["a", "b"])), #"{"aps":{"alert":{"loc-args":["a","b"],"loc-key":"K"}}}"#),
        (
            NotificationContent(title: .localized(key: "T", arguments: ["1"]), subtitle: .localized(key: "S", arguments: ["2"]), body: "B"),
            #"{"aps":{"alert":{"body":"B","subtitle-loc-args":["2"],"subtitle-loc-key":"S","title-loc-args":["1"],"title-loc-key":"T"}}}"#
        ),
        (NotificationContent(body: "B", launchImageName: "Launch.png"), #"{"aps":{"alert":{"body":"B","launch-image":"Launch.png"}}}"#),
        (
            NotificationContent(body: "B", summaryArgument: "Ann", summaryArgumentCount: 2),
            #"{"aps":{"alert":{"body":"B","summary-arg":"Ann","summary-arg-count":2}}}"#
        ),
    ])
    func encodesAnAlertDictionaryWhenThereIsMoreThanALiteralBody(content: NotificationContent, expected: String) throws {
        #expect(try json(content) == expected)
    }

    @Test(arguments: [
        (NotificationSound.default, #""default""#),
        (try .named("chime.aiff"), #""chime.aiff""#),
        (.defaultCritical, #"{"critical":1,"name":"default","volume":1}"#),
        (try .defaultCritical(volume: 0), #"{"critical":1,"name":"default","volume":0}"#),
        (try .criticalNamed("warning-sound.aiff", volume: 0.8), #"{"critical":1,"name":"warning-sound.aiff","volume":0.8}"#),
    ])
    func encodesTheSoundAsAStringUnlessItIsCritical(sound: NotificationSound, expected: String) throws {
        #expect(try json(NotificationContent(sound: sound)) == #"{"aps":{"sound":\#(expected)}}"#)
    }

    @Test func encodesEveryApsKeyWithSortedKeys() throws {
        let content = NotificationContent(
            title: "Tea", body: "Ready", badge: 3, sound: .default, userInfo: ["teaID": 42, "kind": ["earl", "grey"]],
            categoryIdentifier: "TEA", threadIdentifier: "kitchen", targetContentIdentifier: "pot-1",
            interruptionLevel: .timeSensitive, relevanceScore: 0.75, filterCriteria: "work")
        let expected = #"""
            {"aps":{"alert":{"body":"Ready","title":"Tea"},"badge":3,"category":"TEA","content-available":1,\#
            "filter-criteria":"work","interruption-level":"time-sensitive","mutable-content":1,"relevance-score":0.75,\#
            "sound":"default","target-content-id":"pot-1","thread-id":"kitchen"},"kind":["earl","grey"],"teaID":42}
            """#
        #expect(try json(content, contentAvailable: true, mutableContent: true) == expected)
    }

    @Test func writesOnlyValuesThatDifferFromTheDefaults() throws {
        let content = NotificationContent(title: .empty, interruptionLevel: .active, relevanceScore: 0, summaryArgumentCount: 0)
        #expect(try json(content) == #"{"aps":{}}"#)
        #expect(try json(NotificationContent(badge: 0)) == #"{"aps":{"badge":0}}"#)
        #expect(try json(NotificationContent(targetContentIdentifier: "")) == #"{"aps":{"target-content-id":""}}"#)
    }

    @Test func writesSlashesAndNonASCIITextAsIs() throws {
        #expect(try json(NotificationContent(body: "1/2 일시 😀 \"q\"")) == #"{"aps":{"alert":"1/2 일시 😀 \"q\""}}"#)
    }

    @Test func leavesAttachmentsOut() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write(AttachmentFixtures.png, to: "photo.png")
        let content = NotificationContent(body: "New photo", attachments: [try NotificationAttachment(identifier: "photo", url: url)])
        #expect(try json(content, mutableContent: true) == #"{"aps":{"alert":"New photo","mutable-content":1}}"#)
    }

    // MARK: - Rejections

    @Test func rejectsAUserInfoKeyNamedAps() {
        #expect(throws: ChimeError(.invalidPayload, field: "userInfo.aps", "the key aps is reserved for the aps dictionary")) {
            try json(NotificationContent(userInfo: ["aps": ["badge": 1]]))
        }
    }

    @Test(arguments: [NotificationSound.defaultRingtone, try .ringtone("ring.caf")])
    func rejectsRingtonesWhichAPNsCannotExpress(sound: NotificationSound) {
        #expect(throws: ChimeError(.invalidPayload, field: "sound", "ringtone sounds have no APNs form")) {
            try json(NotificationContent(sound: sound))
        }
    }

    @Test(arguments: [try NotificationSound.named("default"), try .criticalNamed("default", volume: 0.5)])
    func rejectsASoundFileNamedDefaultWhichAPNsReadsAsTheSystemSound(sound: NotificationSound) {
        #expect(throws: ChimeError(.invalidPayload, field: "sound", "a sound file named default would play the system sound")) {
            try json(NotificationContent(sound: sound))
        }
    }

    @Test(arguments: [
        (NotificationContent(badge: -1), ChimeError.Code.badgeInputInvalid),
        (NotificationContent(relevanceScore: 2), .valueOutOfRange),
        (NotificationContent(userInfo: ["x": .double(.nan)]), .valueOutOfRange),
        (NotificationContent(body: .localized(key: "")), .invalidIdentifier),
    ])
    func rejectsInvalidContentAsValidateDoes(content: NotificationContent, code: ChimeError.Code) {
        let error = #expect(throws: ChimeError.self) { try json(content) }
        #expect(error?.code == code)
    }

    // MARK: - Size

    @Test(arguments: ["x", "가"] as [Character])
    func acceptsAnOutputOfExactly4096Bytes(filler: Character) throws {
        let padding = APNsFixtures.padding(forBodyOf: 4096, filler: filler)
        let data = try APNsPayload(content: NotificationContent(userInfo: ["pad": .string(padding)])).jsonData()
        #expect(data.count == 4096)
    }

    @Test(arguments: ["x", "가"] as [Character])
    func rejectsAnOutputOf4097Bytes(filler: Character) {
        let padding = APNsFixtures.padding(forBodyOf: 4097, filler: filler)
        #expect(throws: ChimeError(.payloadTooLarge, "the payload is larger than the 4096 bytes APNs accepts")) {
            try APNsPayload(content: NotificationContent(userInfo: ["pad": .string(padding)])).jsonData()
        }
    }

    // MARK: - Round trips

    static let representableContents: [NotificationContent] = [
        NotificationContent(),
        NotificationContent(body: "Tea is ready"),
        NotificationContent(title: "미팅 초대", body: "일시 : 2022/04/05 오후 2시", categoryIdentifier: "meetingCategory"),
        NotificationContent(
            title: .localized(key: "T", arguments: ["a", "b"]), subtitle: .localized(key: "S"), body: .localized(key: "B", arguments: [""]),
            launchImageName: "Launch.png", summaryArgument: "Ann", summaryArgumentCount: 3),
        NotificationContent(title: "T", subtitle: "S", body: .empty),
        NotificationContent(badge: 0, sound: .default, interruptionLevel: .passive),
        NotificationContent(badge: 12, sound: try! .named("chime.aiff"), interruptionLevel: .critical, relevanceScore: 1),
        NotificationContent(sound: try! .criticalNamed("warning-sound.aiff", volume: 0.3), relevanceScore: 0.1 + 0.2),
        NotificationContent(sound: try! .defaultCritical(volume: 0.001), relevanceScore: 1e-9),
        NotificationContent(
            userInfo: ["id": 42, "price": 2.5, "big": .int(.max), "small": .int(.min), "tiny": 1.5e-300, "none": nil,
                       "nested": ["list": [true, false, "x", ["deep": [:]]]], "text": "a\"b\\c\n\u{01}/"],
            categoryIdentifier: "C", threadIdentifier: "T", targetContentIdentifier: "", interruptionLevel: .timeSensitive,
            filterCriteria: ""),
    ]

    @Test(arguments: representableContents, [(false, false), (true, false), (false, true), (true, true)])
    func roundTripsEveryRepresentableContent(content: NotificationContent, flags: (Bool, Bool)) throws {
        let payload = APNsPayload(content: content, contentAvailable: flags.0, mutableContent: flags.1)
        let data = try payload.jsonData()
        let decoded = try APNsPayload(jsonData: data)
        #expect(decoded == payload)
        #expect(try decoded.jsonData() == data)
    }

    @Test func roundTripsEveryCriticalVolumeInThousandths() throws {
        for step in 0...1000 {
            let sound = try NotificationSound.criticalNamed("w.aiff", volume: Float(step) / 1000)
            let payload = APNsPayload(content: NotificationContent(sound: sound))
            #expect(try APNsPayload(jsonData: payload.jsonData()) == payload)
        }
    }

    @Test(arguments: [Float.leastNonzeroMagnitude, .leastNormalMagnitude, Float(1).nextDown, Float(0.1), Float(1) / 3])
    func roundTripsExtremeCriticalVolumes(volume: Float) throws {
        let payload = APNsPayload(content: NotificationContent(sound: try .defaultCritical(volume: volume)))
        #expect(try APNsPayload(jsonData: payload.jsonData()).content.sound?.volume == volume)
    }

    @Test func reencodingADecodedBodyGivesItsCompactSortedForm() throws {
        let body = #"""
            { "id" : 7,
              "aps" : { "thread-id" : "t", "alert" : { "title" : "Hi", "body" : "There" }, "badge" : 1 } }
            """#
        let payload = try APNsPayload(jsonData: Data(body.utf8))
        let expected = #"{"aps":{"alert":{"body":"There","title":"Hi"},"badge":1,"thread-id":"t"},"id":7}"#
        #expect(String(decoding: try payload.jsonData(), as: UTF8.self) == expected)
    }
}
