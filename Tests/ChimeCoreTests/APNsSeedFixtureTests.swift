import ChimeCore
import Foundation
import Testing

/// The payloads of the seeds' study notes, decoded as an iOS device would see them.
@Suite struct APNsSeedFixtureTests {
    private func decode(_ json: String) throws(ChimeError) -> APNsPayload {
        try APNsPayload(jsonData: Data(json.utf8))
    }

    @Test func meetingInviteShowsItsAlertWithTheMeetingCategory() throws {
        let payload = try decode(APNsFixtures.meetingInvite)
        #expect(payload.content == NotificationContent(
            title: "미팅 초대", body: "일시 : 2022/04/05 오후 2시", categoryIdentifier: "meetingCategory"))
        #expect(!payload.contentAvailable)
        #expect(!payload.mutableContent)
    }

    @Test func meetingInviteEncodesToItsCompactForm() throws {
        let payload = try decode(APNsFixtures.meetingInvite)
        let expected = #"{"aps":{"alert":{"body":"일시 : 2022/04/05 오후 2시","title":"미팅 초대"},"category":"meetingCategory"}}"#
        #expect(String(decoding: try payload.jsonData(), as: UTF8.self) == expected)
    }

    @Test func meetingInviteAsWrittenInTheSeedIsRejectedForItsTrailingComma() {
        #expect(throws: ChimeError(.invalidPayload, field: "aps.alert", "the payload is not valid JSON: a trailing comma")) {
            try decode(APNsFixtures.meetingInviteAsWritten)
        }
    }

    @Test func meetingInviteCountsHangulAsThreeBytesEach() throws {
        let payload = try decode(APNsFixtures.meetingInvite)
        let title = try #require(payload.content.title.literal)
        // Four syllables and a space: 5 characters, 13 bytes toward the 4096-byte limit.
        #expect(title.count == 5)
        #expect(title.utf8.count == 13)
        let body = try payload.jsonData()
        #expect(String(decoding: body, as: UTF8.self).count < body.count)
    }

    @Test func groupedPhotoWithThreadIDInApsJoinsTheThread() throws {
        let payload = try decode(APNsFixtures.groupedPhoto)
        #expect(payload.content == NotificationContent(
            title: "New Photo", body: "Jane Doe posted a new photo", threadIdentifier: "thread-identifier"))
    }

    @Test func groupedPhotoWithThreadIDInsideAlertDecodesUngroupedAsOnAPNs() throws {
        let payload = try decode(APNsFixtures.groupedPhotoWithThreadIDInAlert)
        #expect(payload.content == NotificationContent(title: "New Photo", body: "Jane Doe posted a new photo"))
        #expect(payload.content.threadIdentifier == "")
    }

    @Test func groupedPhotoAsWrittenInTheSeedIsRejectedForItsTrailingCommas() {
        #expect(throws: ChimeError(.invalidPayload, field: "aps.alert", "the payload is not valid JSON: a trailing comma")) {
            try decode(APNsFixtures.groupedPhotoAsWritten)
        }
    }

    @Test func lowGlucoseAlertPlaysTheCriticalWarningSoundAtFullVolume() throws {
        let payload = try decode(APNsFixtures.lowGlucoseCriticalSound)
        #expect(payload.content.sound == (try .criticalNamed("warning-sound.aiff", volume: 1.0)))
        #expect(payload.content.sound?.volume == 1.0)
        #expect(payload.content.sound?.isCritical == true)
        #expect(payload.content == NotificationContent(sound: try .criticalNamed("warning-sound.aiff")))
    }

    @Test func lowGlucoseAlertEncodesItsSoundDictionary() throws {
        let payload = try decode(APNsFixtures.lowGlucoseCriticalSound)
        let expected = #"{"aps":{"sound":{"critical":1,"name":"warning-sound.aiff","volume":1}}}"#
        #expect(String(decoding: try payload.jsonData(), as: UTF8.self) == expected)
    }
}
