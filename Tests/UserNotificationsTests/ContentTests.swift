import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

@Suite("UNNotificationContent: copies, userInfo, localized strings")
struct ContentTests {
    func photoContent() -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.subtitle = "from Jane"
        content.body = "Shared some photo"
        content.badge = 3
        content.sound = .default
        content.categoryIdentifier = "CATEGORY_IMAGE_POSTING"
        content.threadIdentifier = "jane"
        content.targetContentIdentifier = "album-7"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.5
        content.filterCriteria = "work"
        content.launchImageName = "launch"
        content.summaryArgument = "Jane"
        content.summaryArgumentCount = 2
        content.userInfo = ["photoID": 42]
        return content
    }

    // MARK: copy and mutableCopy

    @Test func copyIsImmutableAndIndependent() throws {
        let original = photoContent()
        let copy = try #require(original.copy() as? UNNotificationContent)
        #expect(!(copy is UNMutableNotificationContent))
        #expect(copy == original)
        original.title = "Changed"
        #expect(copy.title == "Hello")
        #expect(copy != original)
    }

    @Test func mutableCopyIsMutableAndIndependent() throws {
        let original = try #require(photoContent().copy() as? UNNotificationContent)
        let mutable = try #require(original.mutableCopy() as? UNMutableNotificationContent)
        #expect(mutable == original)
        mutable.body = "Shared two photos"
        mutable.userInfo["photoID"] = 43
        #expect(original.body == "Shared some photo")
        #expect(original.userInfo["photoID"] as? Int == 42)
        #expect(mutable.userInfo["photoID"] as? Int == 43)
    }

    @Test func aRequestKeepsTheContentAsItWasWhenMade() {
        let content = photoContent()
        let request = UNNotificationRequest(identifier: "photo", content: content, trigger: nil)
        content.title = "Changed afterwards"
        #expect(request.content.title == "Hello")
        #expect(!(request.content is UNMutableNotificationContent))
    }

    @Test func everyPropertySurvivesTheCenter() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert, .badge, .sound])
        let content = photoContent()
        try await h.center.add(
            UNNotificationRequest(identifier: "photo", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        let read = try #require(await h.center.pendingNotificationRequests().first).content
        #expect(read == content)
        #expect(read.badge == 3)
        #expect(read.interruptionLevel == .timeSensitive)
        #expect(read.targetContentIdentifier == "album-7")
        #expect(read.filterCriteria == "work")
        #expect(read.summaryArgumentCount == 2)
    }

    // MARK: userInfo

    @Test func userInfoTravelsAsJSONAndReadsBackAsFoundationValues() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        let content = UNMutableNotificationContent()
        content.title = "Order"
        content.userInfo = [
            "id": 42, "price": 3.5, "gift": true, "note": "leave at door", "nothing": NSNull(),
            "items": ["tea", 2, false] as [Any], "customer": ["name": "Jane", "vip": NSNumber(value: true)] as [String: Any],
            "count": NSNumber(value: 7), "ratio": NSNumber(value: 0.25), "small": Int8(3), "absent": Optional<Int>.none as Any,
        ]
        try await h.center.add(
            UNNotificationRequest(identifier: "order", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        let stored = try #require(try await h.appCenter.pendingNotificationRequests().first)
        #expect(stored.content.userInfo["gift"] == .bool(true))
        #expect(stored.content.userInfo["customer"]?["vip"] == .bool(true))
        #expect(stored.content.userInfo["count"] == .int(7))
        #expect(stored.content.userInfo["absent"] == .null)

        let info = try #require(await h.center.pendingNotificationRequests().first).content.userInfo
        #expect(info["id"] as? Int == 42)
        #expect(info["price"] as? Double == 3.5)
        #expect(info["gift"] as? Bool == true)
        #expect(info["note"] as? String == "leave at door")
        #expect(info["nothing"] is NSNull)
        #expect((info["items"] as? [Any])?.count == 3)
        #expect((info["customer"] as? [String: Any])?["name"] as? String == "Jane")
        #expect(info["ratio"] as? Double == 0.25)
        #expect(info["small"] as? Int == 3)
    }

    @Test(arguments: [
        ("created", Date() as Any),
        ("payload", Data([1, 2, 3]) as Any),
        ("object", NSObject() as Any),
        ("nested", ["when": Date()] as [String: Any] as Any),
    ])
    func aUserInfoValueJSONCannotHoldFailsAddAndSchedulesNothing(key: String, value: Any) async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        let content = UNMutableNotificationContent()
        content.userInfo = [key: value]
        let failure = Completion<(any Error)?>()
        h.center.add(UNNotificationRequest(identifier: "bad", content: content, trigger: nil)) { failure.receive($0) }
        let error = try #require(await failure.next() as? ChimeError)
        #expect(error.code == .invalidPayload)
        #expect(error.field?.hasPrefix("userInfo.\(key)") == true)
        #expect(await h.center.pendingNotificationRequests().isEmpty)
        #expect(await h.center.deliveredNotifications().isEmpty)
    }

    @Test func aUserInfoKeyMustBeAString() async throws {
        let h = Harness()
        let content = UNMutableNotificationContent()
        content.userInfo = [1: "one"]
        await #expect {
            try await h.center.add(UNNotificationRequest(identifier: "bad", content: content, trigger: nil))
        } throws: { ($0 as? ChimeError)?.code == .invalidPayload }
    }

    // MARK: Localized strings

    @Test func aLocalizedStringReadsAsItsKeyAndIsStoredAsTheKey() async throws {
        let title = NSString.localizedUserNotificationString(forKey: "TEA_READY %@", arguments: ["Earl Grey"])
        #expect(title.unicodeScalars.filter { $0.value < 0xE0000 }.map(Character.init).map(String.init).joined() == "TEA_READY Earl Grey")
        #expect(title == NSString.localizedUserNotificationString(forKey: "TEA_READY %@", arguments: ["Earl Grey"]))
        #expect(title != "TEA_READY Earl Grey")

        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "⚠️ " + NSString.localizedUserNotificationString(forKey: "HOT", arguments: nil)
        content.subtitle = "Kitchen"
        content.categoryIdentifier = "tea"
        h.center.setNotificationCategories([
            UNNotificationCategory(
                identifier: "tea", actions: [UNNotificationAction(identifier: "drink", title: NSString.localizedUserNotificationString(forKey: "DRINK", arguments: nil))],
                intentIdentifiers: []),
        ])
        try await h.center.add(UNNotificationRequest(identifier: "tea", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        let stored = try #require(await h.appCenter.pendingNotificationRequests().first).content
        #expect(stored.title == .localized(key: "TEA_READY %@", arguments: ["Earl Grey"]))
        #expect(stored.body == .literal("⚠️ HOT"))  // joined with other text: plain text
        #expect(stored.subtitle == .literal("Kitchen"))
        #expect(try await h.appCenter.notificationCategories().first?.actions.first?.title == .localized(key: "DRINK"))
    }
}
