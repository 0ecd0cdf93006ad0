import ChimeCore
import Foundation
import Testing

@Suite struct APNsPayloadDecodingTests {
    private func decode(_ json: String) throws(ChimeError) -> APNsPayload {
        try APNsPayload(jsonData: Data(json.utf8))
    }

    private func content(_ json: String) throws(ChimeError) -> NotificationContent {
        try decode(json).content
    }

    // MARK: - Keys

    @Test func anEmptyApsDictionaryGivesTheDefaults() throws {
        #expect(try decode(#"{"aps":{}}"#) == APNsPayload())
    }

    @Test func decodesAnAlertStringAsTheBody() throws {
        #expect(try content(#"{"aps":{"alert":"Tea is ready"}}"#) == NotificationContent(body: "Tea is ready"))
    }

    @Test func decodesEveryLiteralKeyOfTheAlertDictionary() throws {
        let json = #"""
            {"aps":{"alert":{"title":"Tea","subtitle":"Kitchen","body":"Ready","launch-image":"Launch.png",
            "summary-arg":"Ann","summary-arg-count":2}}}
            """#
        #expect(try content(json) == NotificationContent(
            title: "Tea", subtitle: "Kitchen", body: "Ready", launchImageName: "Launch.png",
            summaryArgument: "Ann", summaryArgumentCount: 2))
    }

    @Test func decodesLocalizationKeysWithTheirArgumentsAsStrings() throws {
        let json = #"""
            {"aps":{"alert":{"title-loc-key":"T","title-loc-args":["a"],"subtitle-loc-key":"S",
            "loc-key":"B","loc-args":["1","two"]}}}
            """#
        let content = try content(json)
        #expect(content.title == .localized(key: "T", arguments: ["a"]))
        #expect(content.subtitle == .localized(key: "S"))
        #expect(content.body == .localized(key: "B", arguments: ["1", "two"]))
    }

    @Test func aLocalizationKeyWinsOverTheLiteralBesideIt() throws {
        let content = try content(#"{"aps":{"alert":{"title":"Hi","title-loc-key":"HI","body":"x","loc-key":"X"}}}"#)
        #expect(content.title == .localized(key: "HI"))
        #expect(content.body == .localized(key: "X"))
    }

    @Test func localizationArgumentsWithoutTheirKeyAreIgnored() throws {
        let content = try content(#"{"aps":{"alert":{"title":"Hi","title-loc-args":["a"],"loc-args":["b"]}}}"#)
        #expect(content.title == "Hi")
        #expect(content.body == .empty)
    }

    @Test(arguments: [("0", 0), ("1", 1), ("99999", 99_999), ("2.0", 2)])
    func decodesTheBadge(json: String, badge: Int) throws {
        #expect(try content(#"{"aps":{"badge":\#(json)}}"#).badge == badge)
    }

    @Test func anAbsentBadgeLeavesTheBadgeAlone() throws {
        #expect(try content(#"{"aps":{}}"#).badge == nil)
    }

    @Test(arguments: [
        (#""default""#, NotificationSound.default),
        (#""chime.aiff""#, try .named("chime.aiff")),
        (#"{"critical":1,"name":"warning-sound.aiff","volume":0.25}"#, try .criticalNamed("warning-sound.aiff", volume: 0.25)),
        (#"{"critical":1,"name":"warning-sound.aiff"}"#, try .criticalNamed("warning-sound.aiff", volume: 1)),
        (#"{"critical":1,"name":"default","volume":0}"#, try .defaultCritical(volume: 0)),
        (#"{"critical":1,"name":"default"}"#, .defaultCritical),
        (#"{"critical":0,"name":"chime.aiff","volume":0.5}"#, try .named("chime.aiff")),
        (#"{"name":"default"}"#, .default),
    ])
    func decodesTheSound(json: String, sound: NotificationSound) throws {
        #expect(try content(#"{"aps":{"sound":\#(json)}}"#).sound == sound)
    }

    @Test func decodesGroupingAndRoutingKeys() throws {
        let json = #"""
            {"aps":{"thread-id":"kitchen","category":"TEA","target-content-id":"pot-1","filter-criteria":"work"}}
            """#
        #expect(try content(json) == NotificationContent(
            categoryIdentifier: "TEA", threadIdentifier: "kitchen", targetContentIdentifier: "pot-1", filterCriteria: "work"))
    }

    @Test func emptyIdentifiersArePresentNotAbsent() throws {
        let content = try content(#"{"aps":{"target-content-id":"","filter-criteria":""}}"#)
        #expect(content.targetContentIdentifier == "")
        #expect(content.filterCriteria == "")
    }

    @Test(arguments: InterruptionLevel.allCases)
    func decodesEveryInterruptionLevel(level: InterruptionLevel) throws {
        #expect(try content(#"{"aps":{"interruption-level":"\#(level.apnsName)"}}"#).interruptionLevel == level)
    }

    @Test(arguments: [("0", 0.0), ("0.5", 0.5), ("1", 1.0), ("1.0", 1.0)])
    func decodesTheRelevanceScore(json: String, score: Double) throws {
        #expect(try content(#"{"aps":{"relevance-score":\#(json)}}"#).relevanceScore == score)
    }

    @Test func decodesContentAvailableAndMutableContentAsFlagsBesideTheContent() throws {
        let payload = try decode(#"{"aps":{"content-available":1,"mutable-content":1}}"#)
        #expect(payload.contentAvailable)
        #expect(payload.mutableContent)
        #expect(payload.content == NotificationContent())
        let zeros = try decode(#"{"aps":{"content-available":0,"mutable-content":0}}"#)
        #expect(!zeros.contentAvailable)
        #expect(!zeros.mutableContent)
    }

    @Test func customTopLevelKeysBecomeUserInfoWithoutAps() throws {
        let content = try content(#"{"aps":{"alert":"Hi"},"meetingID":7,"room":{"floor":3,"tags":["a",null]},"ok":true}"#)
        #expect(content.userInfo == ["meetingID": 7, "room": ["floor": 3, "tags": ["a", nil]], "ok": true])
        #expect(content.userInfo["aps"] == nil)
    }

    @Test func ignoresKeysChimeDoesNotModel() throws {
        let json = #"""
            {"aps":{"alert":{"body":"Score","action-loc-key":"VIEW","thread-id":"misplaced","action":"x"},
            "timestamp":1700000000,"event":"update","content-state":{"score":3},"stale-date":1700003600,
            "dismissal-date":1700007200,"attributes-type":"GameAttributes","attributes":{},"url-args":["a"],
            "future-key":[1,2]}}
            """#
        #expect(try decode(json) == APNsPayload(content: NotificationContent(body: "Score")))
    }

    @Test func acceptsWhitespaceAndEscapesAnywhereJSONAllowsThem() throws {
        let json = "{ \"aps\" : {\n\t\"alert\" : \"Tab\\tline\\n\\u00e9 \\ud83d\\ude00 \\/ \\\"q\\\" 한\" } }\r\n"
        #expect(try content(json).body == "Tab\tline\né 😀 / \"q\" 한")
    }

    // MARK: - Rejections

    @Test(arguments: [
        // The shape of the payload.
        ("[]", nil, "the payload must be a JSON object"),
        (#""aps""#, nil, "the payload must be a JSON object"),
        ("{}", "aps", "the payload has no aps dictionary"),
        (#"{"APS":{}}"#, "aps", "the payload has no aps dictionary"),
        (#"{"aps":1}"#, "aps", "must be a dictionary"),
        (#"{"aps":[]}"#, "aps", "must be a dictionary"),
        (#"{"aps":null}"#, "aps", "must be a dictionary"),
        // The alert.
        (#"{"aps":{"alert":1}}"#, "aps.alert", "must be a string or a dictionary"),
        (#"{"aps":{"alert":["Hi"]}}"#, "aps.alert", "must be a string or a dictionary"),
        (#"{"aps":{"alert":null}}"#, "aps.alert", "must be a string or a dictionary"),
        (#"{"aps":{"alert":{"title":5}}}"#, "aps.alert.title", "must be a string"),
        (#"{"aps":{"alert":{"subtitle":null}}}"#, "aps.alert.subtitle", "must be a string"),
        (#"{"aps":{"alert":{"body":true}}}"#, "aps.alert.body", "must be a string"),
        (#"{"aps":{"alert":{"launch-image":1}}}"#, "aps.alert.launch-image", "must be a string"),
        (#"{"aps":{"alert":{"title-loc-key":1}}}"#, "aps.alert.title-loc-key", "must be a string"),
        (#"{"aps":{"alert":{"title-loc-key":""}}}"#, "aps.alert.title-loc-key", "a localization key must not be empty"),
        (#"{"aps":{"alert":{"subtitle-loc-key":""}}}"#, "aps.alert.subtitle-loc-key", "a localization key must not be empty"),
        (#"{"aps":{"alert":{"loc-key":""}}}"#, "aps.alert.loc-key", "a localization key must not be empty"),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":"a"}}}"#, "aps.alert.loc-args", "must be an array of strings"),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":[1]}}}"#, "aps.alert.loc-args", "must be an array of strings"),
        (#"{"aps":{"alert":{"subtitle-loc-key":"K","subtitle-loc-args":[null]}}}"#, "aps.alert.subtitle-loc-args", "must be an array of strings"),
        (#"{"aps":{"alert":{"title-loc-args":[["a"]]}}}"#, "aps.alert.title-loc-args", "must be an array of strings"),
        (#"{"aps":{"alert":{"summary-arg":1}}}"#, "aps.alert.summary-arg", "must be a string"),
        (#"{"aps":{"alert":{"summary-arg-count":-1}}}"#, "aps.alert.summary-arg-count", "must be an integer of 0 or more"),
        (#"{"aps":{"alert":{"summary-arg-count":1.5}}}"#, "aps.alert.summary-arg-count", "must be an integer of 0 or more"),
        // The badge.
        (#"{"aps":{"badge":"3"}}"#, "aps.badge", "must be an integer of 0 or more"),
        (#"{"aps":{"badge":-1}}"#, "aps.badge", "must be an integer of 0 or more"),
        (#"{"aps":{"badge":1.5}}"#, "aps.badge", "must be an integer of 0 or more"),
        (#"{"aps":{"badge":true}}"#, "aps.badge", "must be an integer of 0 or more"),
        (#"{"aps":{"badge":null}}"#, "aps.badge", "must be an integer of 0 or more"),
        (#"{"aps":{"badge":1e20}}"#, "aps.badge", "must be an integer of 0 or more"),
        // The sound.
        (#"{"aps":{"sound":1}}"#, "aps.sound", "must be a string or a dictionary"),
        (#"{"aps":{"sound":""}}"#, "aps.sound", "a sound name must not be empty"),
        (#"{"aps":{"sound":{"critical":1}}}"#, "aps.sound.name", "a sound dictionary needs a name"),
        (#"{"aps":{"sound":{"critical":1,"name":""}}}"#, "aps.sound.name", "a sound name must not be empty"),
        (#"{"aps":{"sound":{"critical":1,"name":5}}}"#, "aps.sound.name", "must be a string"),
        (#"{"aps":{"sound":{"critical":2,"name":"a.aiff"}}}"#, "aps.sound.critical", "must be 0 or 1"),
        (#"{"aps":{"sound":{"critical":true,"name":"a.aiff"}}}"#, "aps.sound.critical", "must be 0 or 1"),
        (#"{"aps":{"sound":{"critical":1,"name":"a.aiff","volume":1.5}}}"#, "aps.sound.volume", "must be a number from 0 to 1"),
        (#"{"aps":{"sound":{"critical":1,"name":"a.aiff","volume":-0.1}}}"#, "aps.sound.volume", "must be a number from 0 to 1"),
        (#"{"aps":{"sound":{"critical":1,"name":"a.aiff","volume":"1"}}}"#, "aps.sound.volume", "must be a number from 0 to 1"),
        (#"{"aps":{"sound":{"critical":0,"name":"a.aiff","volume":2}}}"#, "aps.sound.volume", "must be a number from 0 to 1"),
        // Grouping and routing.
        (#"{"aps":{"thread-id":1}}"#, "aps.thread-id", "must be a string"),
        (#"{"aps":{"category":["TEA"]}}"#, "aps.category", "must be a string"),
        (#"{"aps":{"target-content-id":1}}"#, "aps.target-content-id", "must be a string"),
        (#"{"aps":{"filter-criteria":{}}}"#, "aps.filter-criteria", "must be a string"),
        // Flags.
        (#"{"aps":{"content-available":2}}"#, "aps.content-available", "must be 0 or 1"),
        (#"{"aps":{"content-available":true}}"#, "aps.content-available", "must be 0 or 1"),
        (#"{"aps":{"content-available":"1"}}"#, "aps.content-available", "must be 0 or 1"),
        (#"{"aps":{"mutable-content":-1}}"#, "aps.mutable-content", "must be 0 or 1"),
        // Interruption level and relevance.
        (#"{"aps":{"interruption-level":"urgent"}}"#, "aps.interruption-level", "must be passive, active, time-sensitive or critical"),
        (#"{"aps":{"interruption-level":"timeSensitive"}}"#, "aps.interruption-level", "must be passive, active, time-sensitive or critical"),
        (#"{"aps":{"interruption-level":2}}"#, "aps.interruption-level", "must be a string"),
        (#"{"aps":{"relevance-score":1.01}}"#, "aps.relevance-score", "must be a number from 0 to 1"),
        (#"{"aps":{"relevance-score":-0.5}}"#, "aps.relevance-score", "must be a number from 0 to 1"),
        (#"{"aps":{"relevance-score":"0.5"}}"#, "aps.relevance-score", "must be a number from 0 to 1"),
    ] as [(String, String?, String)])
    func rejectsAKeyOfTheWrongTypeOrOutOfRange(json: String, field: String?, message: String) {
        #expect(throws: ChimeError(.invalidPayload, field: field, message)) {
            try decode(json)
        }
    }

    @Test(arguments: [
        (#"{"aps":{"alert":"Hi",}}"#, "aps", "a trailing comma"),
        (#"{"aps":{"badge":1,"badge":2}}"#, "aps.badge", "a key appears twice"),
        (#"{"aps":{},"id":1,"id":2}"#, "id", "a key appears twice"),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":["a",]}}}"#, "aps.alert.loc-args", "a trailing comma"),
        (#"{"aps":{"badge":01}}"#, "aps.badge", "a number has a leading zero"),
        (#"{"aps":{"alert":'Hi'}}"#, "aps.alert", "an unexpected character"),
        (#"{"aps":{}"#, nil, "expected a comma or a closing brace"),
        (#"{"aps":{}} {}"#, nil, "text follows the JSON value"),
        ("", nil, "the text ends too early"),
    ] as [(String, String?, String)])
    func rejectsMalformedJSONNamingWhereItStopped(json: String, field: String?, reason: String) {
        #expect(throws: ChimeError(.invalidPayload, field: field, "the payload is not valid JSON: \(reason)")) {
            try decode(json)
        }
    }

    @Test func errorsNameTheKeyPathButNeverTheValue() {
        for json in [
            #"{"aps":{"badge":"SECRET"}}"#, #"{"aps":{"interruption-level":"SECRET"}}"#,
            #"{"aps":{"sound":{"critical":1,"name":"SECRET","volume":9}}}"#, #"{"aps":{"alert":"SECRET",}}"#,
        ] {
            let error = #expect(throws: ChimeError.self) { try decode(json) }
            #expect(error.map { !"\($0)".contains("SECRET") } == true)
            #expect(error?.field?.hasPrefix("aps") == true)
        }
    }

    // MARK: - Size

    @Test(arguments: ["x", "가"] as [Character])
    func acceptsABodyOfExactly4096Bytes(filler: Character) throws {
        let json = APNsFixtures.body(bytes: 4096, filler: filler)
        #expect(json.utf8.count == 4096)
        #expect(try decode(json).content.userInfo["pad"]?.stringValue?.utf8.count == 4096 - APNsFixtures.paddingFrame)
    }

    @Test(arguments: ["x", "가"] as [Character])
    func rejectsABodyOf4097Bytes(filler: Character) {
        let json = APNsFixtures.body(bytes: 4097, filler: filler)
        #expect(json.utf8.count == 4097)
        #expect(throws: ChimeError(.payloadTooLarge, "the payload is larger than the 4096 bytes APNs accepts")) {
            try decode(json)
        }
    }

    @Test func countsBytesNotCharacters() {
        let json = APNsFixtures.body(bytes: 4097, filler: "가")
        #expect(json.count < 1400)
        let error = #expect(throws: ChimeError.self) { try decode(json) }
        #expect(error?.code == .payloadTooLarge)
    }

    @Test func refusesATooLargeBodyBeforeParsingIt() {
        #expect(throws: ChimeError(.payloadTooLarge, "the payload is larger than the 4096 bytes APNs accepts")) {
            try decode(String(repeating: "{", count: 5000))
        }
    }
}
