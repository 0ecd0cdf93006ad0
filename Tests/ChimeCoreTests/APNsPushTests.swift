import ChimeCore
import Foundation
import Testing

/// What a delivered notification becomes for APNs: the texts as read, the headers Apple's request
/// reference defines, quiet hours as a passive, silent push.
@Suite struct APNsPushTests {
    let due = Date(timeIntervalSince1970: 1_800_000_000)

    func push(_ content: NotificationContent, identifier: String = "lunch-1", title: String = "", body: String = "", quietly: Bool = false) -> APNsPush {
        APNsPush(content: content, identifier: identifier, title: title, subtitle: "", body: body, due: due, quietly: quietly)
    }

    @Test func anAlertCarriesTheTextsAsReadAndGoesAtOnce() throws {
        let content = NotificationContent(
            title: .localized(key: "LUNCH_TITLE", arguments: []), body: "ignored", badge: 2, sound: .default, threadIdentifier: "food")
        let push = push(content, title: "점심", body: "같이 먹어요")
        #expect(push.pushType == "alert" && push.priority == 10 && push.collapseID == "lunch-1")
        #expect(push.expiration == 1_800_000_000 + 86_400)
        let payload = try APNsPayload(jsonData: Data(push.payload))
        #expect(payload.content.title == .literal("점심") && payload.content.body == .literal("같이 먹어요"), "the device has no strings tables")
        #expect(payload.content.badge == 2 && payload.content.sound == .default && payload.content.threadIdentifier == "food")
        #expect(!payload.contentAvailable)
        #expect(APNsPush.headers(fromLines: push.headerLines) == [
            "apns-push-type": "alert", "apns-priority": "10", "apns-expiration": "1800086400", "apns-collapse-id": "lunch-1",
        ])
    }

    @Test func quietHoursMakeItPassiveAndSilent() throws {
        let push = push(NotificationContent(sound: .default, interruptionLevel: .timeSensitive), title: "Hi", quietly: true)
        let payload = try APNsPayload(jsonData: Data(push.payload))
        #expect(payload.content.interruptionLevel == .passive && payload.content.sound == nil)
        #expect(push.pushType == "alert" && push.priority == 5)
        // Passive by itself goes at the device's convenience too.
        #expect(self.push(NotificationContent(interruptionLevel: .passive), title: "Hi").priority == 5)
    }

    @Test func nothingToShowIsABackgroundPush() throws {
        let push = push(NotificationContent(userInfo: ["sync": .bool(true)]))
        #expect(push.pushType == "background" && push.priority == 5)
        let payload = try APNsPayload(jsonData: Data(push.payload))
        #expect(payload.contentAvailable && payload.content.userInfo["sync"] == .bool(true))
    }

    @Test func aRingtoneHasNoAPNsFormSoItGoesWithoutSound() throws {
        let push = push(NotificationContent(sound: .defaultRingtone), title: "Call")
        let payload = try APNsPayload(jsonData: Data(push.payload))
        #expect(payload.content.sound == nil && payload.content.title == .literal("Call") && push.pushType == "alert")
    }

    @Test func theCollapseIdentifierIsTheIdentifierOnlyWhenAPNsTakesIt() {
        #expect(push(NotificationContent(), identifier: String(repeating: "a", count: 64), title: "x").collapseID?.count == 64)
        #expect(push(NotificationContent(), identifier: String(repeating: "a", count: 65), title: "x").collapseID == nil)
        #expect(push(NotificationContent(), identifier: "점심", title: "x").collapseID == nil)
        #expect(push(NotificationContent(), identifier: "a\nb", title: "x").collapseID == nil)
        #expect(!push(NotificationContent(), identifier: "a\nb", title: "x").headerLines.contains("a\nb"))
    }

    @Test func aBodyTooLongForAPNsIsShortenedToFit() throws {
        let long = String(repeating: "긴 글 ", count: 2_000)
        let push = push(NotificationContent(sound: .default), title: "Hi", body: long)
        #expect(push.payload.count <= APNsPayload.maximumSize && push.payload.count > APNsPayload.maximumSize - 64, "\(push.payload.count)")
        let payload = try APNsPayload(jsonData: Data(push.payload))
        guard case .literal(let body) = payload.content.body else { Issue.record("no body"); return }
        #expect(long.hasPrefix(body) && body.count > 1000)
        #expect(payload.content.title == .literal("Hi") && payload.content.sound == .default)
    }

    @Test func appKeysTooLargeForAPNsAreLeftOutRatherThanTheNotification() throws {
        let content = NotificationContent(userInfo: ["blob": .string(String(repeating: "x", count: 5000))])
        let push = push(content, title: "Hi", body: "Lunch?")
        let payload = try APNsPayload(jsonData: Data(push.payload))
        #expect(payload.content.userInfo.isEmpty && payload.content.body == .literal("Lunch?") && push.pushType == "alert")
    }
}
