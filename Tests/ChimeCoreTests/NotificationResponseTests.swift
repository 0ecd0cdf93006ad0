import ChimeCore
import Foundation
import Testing

@Suite struct NotificationResponseTests {
    private func invite() throws -> DeliveredNotification {
        var content = NotificationContent(title: "미팅 초대", body: "일시 : 2022/04/05 오후 2시")
        content.categoryIdentifier = "meetingCategory"
        let request = try NotificationRequest(identifier: "invite-1", content: content, trigger: nil)
        return try DeliveredNotification(request: request, date: Date(timeIntervalSince1970: 1_649_134_800))  // 2022-04-05T05:00:00Z
    }

    @Test func theWellKnownIdentifiersAreApplesStrings() {
        #expect(NotificationResponse.defaultActionIdentifier == "com.apple.UNNotificationDefaultActionIdentifier")
        #expect(NotificationResponse.dismissActionIdentifier == "com.apple.UNNotificationDismissActionIdentifier")
    }

    @Test func openingTheNotificationIsTheDefaultAction() throws {
        let response = NotificationResponse.defaultAction(for: try invite())
        #expect(response.actionIdentifier == NotificationResponse.defaultActionIdentifier)
        #expect(response.isDefaultAction)
        #expect(!response.isDismissAction)
        #expect(!response.isTextInput)
        #expect(response.userText == nil)
        #expect(response.notification == (try invite()))
    }

    @Test func dismissingIsTheDismissAction() throws {
        let response = NotificationResponse.dismiss(for: try invite())
        #expect(response.actionIdentifier == NotificationResponse.dismissActionIdentifier)
        #expect(response.isDismissAction)
        #expect(!response.isDefaultAction)
    }

    @Test func pickingAnActionCarriesItsIdentifier() throws {
        let response = try NotificationResponse.action("meeting.acceptAction", for: invite())
        #expect(response.actionIdentifier == "meeting.acceptAction")
        #expect(!response.isDefaultAction && !response.isDismissAction && !response.isTextInput)
        #expect(response == (try NotificationResponse(notification: invite(), actionIdentifier: "meeting.acceptAction")))
    }

    @Test func aTextInputResponseCarriesTheUsersText() throws {
        let response = try NotificationResponse.textInput("출장 중입니다", action: "meeting.reasonForDeclineInputAction", for: invite())
        #expect(response.userText == "출장 중입니다")
        #expect(response.isTextInput)
        #expect(try NotificationResponse.textInput("", action: "REPLY", for: invite()).userText == "")
    }

    @Test func rejectsAnEmptyActionIdentifier() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "actionIdentifier", "an action identifier must not be empty")) {
            try NotificationResponse.action("", for: invite())
        }
        #expect(throws: ChimeError(.invalidIdentifier, field: "actionIdentifier", "an action identifier must not be empty")) {
            try NotificationResponse.textInput("hi", action: "", for: invite())
        }
    }

    @Test(arguments: [NotificationResponse.defaultActionIdentifier, NotificationResponse.dismissActionIdentifier])
    func rejectsUserTextForOpeningOrDismissing(identifier: String) {
        #expect(throws: ChimeError(.invalidIdentifier, field: "actionIdentifier", "only an action's response carries user text")) {
            try NotificationResponse.textInput("hi", action: identifier, for: invite())
        }
    }

    @Test func encodesTheActionAndTextBesideTheNotification() throws {
        let response = try NotificationResponse.textInput("busy", action: "REPLY", for: invite())
        let object = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(response))
        #expect(Set(object.keys) == ["notification", "actionIdentifier", "userText"])
        #expect(object["actionIdentifier"] == "REPLY")
        #expect(object["userText"] == "busy")
        let opened = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(NotificationResponse.defaultAction(for: invite())))
        #expect(opened["userText"] == nil)
    }

    @Test func roundTripsEveryCaseThroughJSON() throws {
        let responses = [
            NotificationResponse.defaultAction(for: try invite()), .dismiss(for: try invite()),
            try .action("meeting.declineAction", for: invite()), try .textInput("사유", action: "meeting.reasonForDeclineInputAction", for: invite()),
        ]
        #expect(try JSONDecoder().decode([NotificationResponse].self, from: JSONEncoder().encode(responses)) == responses)
    }

    @Test func decodingRevalidates() throws {
        var object = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(NotificationResponse.dismiss(for: invite())))
        object["userText"] = "sneaky"
        let error = #expect(throws: ChimeError.self) {
            try JSONDecoder().decode(NotificationResponse.self, from: JSONEncoder().encode(object))
        }
        #expect(error?.code == .invalidIdentifier)
    }
}
