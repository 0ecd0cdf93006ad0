import ChimeCore
import Foundation
import Testing

@Suite struct NotificationContentTests {
    private func decode(_ json: String) throws -> NotificationContent {
        try JSONDecoder().decode(NotificationContent.self, from: Data(json.utf8))
    }

    @Test func defaultsMatchApplesFreshContent() throws {
        let content = NotificationContent()
        #expect(content.title == .empty)
        #expect(content.subtitle == .empty)
        #expect(content.body == .empty)
        #expect(content.badge == nil)
        #expect(content.sound == nil)
        #expect(content.attachments.isEmpty)
        #expect(content.userInfo.isEmpty)
        #expect(content.categoryIdentifier == "")
        #expect(content.threadIdentifier == "")
        #expect(content.targetContentIdentifier == nil)
        #expect(content.interruptionLevel == .active)
        #expect(content.relevanceScore == 0)
        #expect(content.filterCriteria == nil)
        #expect(content.launchImageName == "")
        #expect(content.summaryArgument == "")
        #expect(content.summaryArgumentCount == 0)
        try content.validate()
    }

    @Test func isSetLikeUNMutableNotificationContent() throws {
        var content = NotificationContent()
        content.title = "Wake up"
        content.body = .localized(key: "ALARM_BODY", arguments: ["7:00"])
        content.sound = try .criticalNamed("alarm.aiff", volume: 0.9)
        content.badge = 0
        content.categoryIdentifier = "ALARM"
        content.threadIdentifier = "alarms"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 1
        content.userInfo = ["alarmID": 7, "snoozes": [5, 10]]
        try content.validate()
        #expect(content.body.key == "ALARM_BODY")
        #expect(content.userInfo["snoozes"]?[1]?.intValue == 10)
    }

    @Test(arguments: [0, 1, 99_999])
    func acceptsABadgeOfZeroOrMore(badge: Int) throws {
        try NotificationContent(badge: badge).validate()
    }

    @Test(arguments: [-1, Int.min])
    func rejectsANegativeBadge(badge: Int) {
        #expect(throws: ChimeError(.badgeInputInvalid, field: "badge", "the badge must be 0 or more")) {
            try NotificationContent(badge: badge).validate()
        }
    }

    @Test(arguments: [0, 0.5, 1])
    func acceptsARelevanceScoreFromZeroToOne(score: Double) throws {
        try NotificationContent(relevanceScore: score).validate()
    }

    @Test(arguments: [-0.001, 1.001, .nan, .infinity, -.infinity])
    func rejectsARelevanceScoreOutsideZeroToOne(score: Double) {
        #expect(throws: ChimeError(.valueOutOfRange, field: "relevanceScore", "the relevance score must be between 0 and 1")) {
            try NotificationContent(relevanceScore: score).validate()
        }
    }

    @Test func rejectsANegativeSummaryArgumentCount() {
        #expect(throws: ChimeError(.valueOutOfRange, field: "summaryArgumentCount", "the summary argument count must be 0 or more")) {
            try NotificationContent(summaryArgumentCount: -1).validate()
        }
    }

    @Test(arguments: ["title", "subtitle", "body"])
    func rejectsALocalizedTextWithAnEmptyKey(field: String) {
        var content = NotificationContent()
        switch field {
        case "title": content.title = .localized(key: "")
        case "subtitle": content.subtitle = .localized(key: "")
        default: content.body = .localized(key: "", arguments: ["x"])
        }
        #expect(throws: ChimeError(.invalidIdentifier, field: field, "a localization key must not be empty")) {
            try content.validate()
        }
    }

    @Test func rejectsTwoAttachmentsWithOneIdentifier() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write(AttachmentFixtures.png, to: "logo.png")
        let first = try NotificationAttachment(identifier: "logo", url: url)
        let second = try NotificationAttachment(identifier: "logo", url: url)
        let other = try NotificationAttachment(identifier: "other", url: url)
        try NotificationContent(attachments: [first, other]).validate()
        #expect(throws: ChimeError(.invalidIdentifier, field: "attachments", "two attachments share an identifier")) {
            try NotificationContent(attachments: [first, other, second]).validate()
        }
    }

    @Test(arguments: [JSONValue.double(.nan), .double(.infinity), ["deep": [1, .double(-.infinity)]]])
    func rejectsUserInfoNumbersThatJSONCannotHold(value: JSONValue) {
        #expect(throws: ChimeError(.valueOutOfRange, field: "userInfo.key", "JSON numbers must be finite")) {
            try NotificationContent(userInfo: ["fine": 1.5, "key": value]).validate()
        }
    }

    /// User info nests as deep as JSON readers take it, and no deeper: what an app adds in its process
    /// can be sent and stored.
    @Test func userInfoNestsAsDeepAsJSONReadersTakeIt() throws {
        func nested(_ levels: Int) -> JSONValue {
            var value: JSONValue = "leaf"
            for level in 0..<levels { value = level.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
            return value
        }
        // The key's value is the first level inside userInfo.
        try NotificationContent(userInfo: ["key": nested(NotificationContent.maximumUserInfoDepth - 1)]).validate()
        #expect(throws: ChimeError(.valueOutOfRange, field: "userInfo.key", "user info nests more than 512 arrays and objects deep")) {
            try NotificationContent(userInfo: ["key": nested(NotificationContent.maximumUserInfoDepth)]).validate()
        }
    }

    @Test func roundTripsEveryPropertyThroughJSON() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write(AttachmentFixtures.gif, to: "anim.gif")
        let content = NotificationContent(
            title: "Tea", subtitle: .localized(key: "SUB"), body: .localized(key: "BODY", arguments: ["a", "b"]),
            badge: 3, sound: try .criticalNamed("w.aiff", volume: 0.5),
            attachments: [try NotificationAttachment(identifier: "g", url: url, options: AttachmentOptions(thumbnailTime: 2))],
            userInfo: ["id": 42, "price": 2.5, "tags": ["a"], "none": nil, "nested": ["ok": true]],
            categoryIdentifier: "TEA", threadIdentifier: "kitchen", targetContentIdentifier: "pot-1",
            interruptionLevel: .passive, relevanceScore: 0.75, filterCriteria: "work", launchImageName: "Launch",
            summaryArgument: "Ann", summaryArgumentCount: 2)
        let data = try JSONEncoder().encode(content)
        #expect(try JSONDecoder().decode(NotificationContent.self, from: data) == content)
    }

    @Test func decodesAnEmptyObjectToTheDefaults() throws {
        #expect(try decode("{}") == NotificationContent())
    }

    @Test func decodesPartialJSONWithDefaultsForTheRest() throws {
        let content = try decode(#"{"title":"Hi","badge":0,"sound":{"kind":"default"},"interruptionLevel":"time-sensitive"}"#)
        #expect(content == NotificationContent(title: "Hi", badge: 0, sound: .default, interruptionLevel: .timeSensitive))
    }

    @Test func encodingLeavesOutAbsentOptionals() throws {
        let data = try JSONEncoder().encode(NotificationContent(title: "Hi"))
        let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        #expect(object["title"] == "Hi")
        #expect(object["badge"] == nil)
        #expect(object["sound"] == nil)
        #expect(object["targetContentIdentifier"] == nil)
        #expect(object["filterCriteria"] == nil)
    }

    @Test(arguments: [
        (#"{"badge":-2}"#, ChimeError.Code.badgeInputInvalid),
        (#"{"relevanceScore":1.5}"#, .valueOutOfRange),
        (#"{"summaryArgumentCount":-1}"#, .valueOutOfRange),
        (#"{"title":{"key":""}}"#, .invalidIdentifier),
        (#"{"sound":{"kind":"defaultCritical","volume":3}}"#, .valueOutOfRange),
    ])
    func decodingRevalidates(json: String, code: ChimeError.Code) {
        let error = #expect(throws: ChimeError.self) { try decode(json) }
        #expect(error?.code == code)
    }
}
