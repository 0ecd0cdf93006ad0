import ChimeCore
import Foundation
import Testing

@Suite struct NotificationRequestTests {
    private func decode(_ json: String) throws -> NotificationRequest {
        try JSONDecoder().decode(NotificationRequest.self, from: Data(json.utf8))
    }

    private var alarmContent: NotificationContent {
        var content = NotificationContent(title: "Alarm", body: "Beep Beep")
        content.sound = .default
        content.categoryIdentifier = "AlarmNotification"
        return content
    }

    @Test func buildsTheSeedsAlarmRequest() throws {
        let trigger = try CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 0), repeats: true)
        let request = try NotificationRequest(identifier: "alarm-1", content: alarmContent, trigger: .calendar(trigger))
        #expect(request.identifier == "alarm-1")
        #expect(request.content.categoryIdentifier == "AlarmNotification")
        #expect(request.trigger == .calendar(trigger))
        #expect(request.misfirePolicy == .deliverLate)
        #expect(!request.isRemote)
        try request.validateForScheduling(at: Date())
    }

    @Test func aRequestWithoutTriggerIsDeliveredAtOnceAndMaySkipMisfires() throws {
        let request = try NotificationRequest(identifier: "now", content: alarmContent, trigger: nil, misfirePolicy: .skip)
        #expect(request.trigger == nil)
        #expect(request.misfirePolicy == .skip)
        try request.validateForScheduling(at: Date())
    }

    @Test func rejectsAnEmptyIdentifier() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "identifier", "a request identifier must not be empty")) {
            try NotificationRequest(identifier: "", content: alarmContent, trigger: nil)
        }
    }

    @Test func rejectsInvalidContent() {
        #expect(throws: ChimeError(.badgeInputInvalid, field: "badge", "the badge must be 0 or more")) {
            try NotificationRequest(identifier: "bad", content: NotificationContent(badge: -1), trigger: nil)
        }
    }

    @Test func holdsAPushRequestButRefusesToScheduleIt() throws {
        let remote = try NotificationRequest(identifier: "apns-1", content: alarmContent, trigger: .push(PushTrigger()))
        #expect(remote.isRemote)
        #expect(throws: ChimeError(.notificationInvalidNoDate, field: "trigger", "a push trigger cannot be scheduled; remote notifications are delivered when they arrive")) {
            try remote.validateForScheduling(at: Date())
        }
    }

    @Test func encodesCleanJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let request = try NotificationRequest(
            identifier: "snooze", content: NotificationContent(title: "Alarm"),
            trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 540, repeats: false)))
        let json = String(decoding: try encoder.encode(request), as: UTF8.self)
        #expect(json.hasPrefix(#"{"content":{"#))
        #expect(json.hasSuffix(#""identifier":"snooze","misfirePolicy":"deliverLate","trigger":{"repeats":false,"timeInterval":540,"type":"timeInterval"}}"#))
        let immediate = try NotificationRequest(identifier: "now", content: NotificationContent(), trigger: nil)
        #expect(!String(decoding: try encoder.encode(immediate), as: UTF8.self).contains("trigger"))
    }

    @Test func roundTripsThroughJSON() throws {
        var pinned = DateComponents(hour: 9, minute: 30, weekday: 2)
        pinned.timeZone = TimeZone(identifier: "Asia/Seoul")
        let requests = [
            try NotificationRequest(identifier: "standup", content: alarmContent,
                                    trigger: .calendar(CalendarTrigger(dateMatching: pinned, repeats: true)), misfirePolicy: .skip),
            try NotificationRequest(identifier: "now", content: NotificationContent(title: .localized(key: "HI")), trigger: nil),
            try NotificationRequest(identifier: "apns", content: alarmContent, trigger: .push(PushTrigger())),
        ]
        let data = try JSONEncoder().encode(requests)
        #expect(try JSONDecoder().decode([NotificationRequest].self, from: data) == requests)
    }

    @Test func decodingFillsInContentTriggerAndPolicy() throws {
        #expect(try decode(#"{"identifier":"x"}"#) == (try NotificationRequest(identifier: "x", content: NotificationContent(), trigger: nil)))
    }

    @Test(arguments: [
        (#"{"identifier":""}"#, ChimeError.Code.invalidIdentifier),
        (#"{"identifier":"x","content":{"relevanceScore":2}}"#, .valueOutOfRange),
        (#"{"identifier":"x","trigger":{"type":"timeInterval","timeInterval":0,"repeats":false}}"#, .invalidTimeInterval),
        (#"{"identifier":"x","trigger":{"type":"calendar","dateComponents":{"month":2,"day":30},"repeats":true}}"#, .invalidDateComponents),
    ])
    func decodingRevalidates(json: String, code: ChimeError.Code) {
        let error = #expect(throws: ChimeError.self) { try decode(json) }
        #expect(error?.code == code)
    }
}
