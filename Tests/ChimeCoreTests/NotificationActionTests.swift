import ChimeCore
import Foundation
import Testing

@Suite struct NotificationActionTests {
    private func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func aPlainActionHasNoOptionsIconOrTextInput() throws {
        let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like")
        #expect(like.identifier == "ACTION_LIKE")
        #expect(like.title == "Like")
        #expect(like.options == [])
        #expect(like.icon == nil)
        #expect(like.textInput == nil)
        #expect(!like.isTextInput)
    }

    @Test func aTextInputActionCarriesItsButtonTitleAndPlaceholder() throws {
        let reason = try NotificationAction.textInput(
            identifier: "meeting.reasonForDeclineInputAction", title: "거절 사유", options: [.destructive, .foreground],
            buttonTitle: "보내기", placeholder: .localized(key: "REASON_PLACEHOLDER"))
        #expect(reason.isTextInput)
        #expect(reason.textInput?.buttonTitle == "보내기")
        #expect(reason.textInput?.placeholder.key == "REASON_PLACEHOLDER")
        #expect(reason.options == [.destructive, .foreground])
        #expect(reason == (try NotificationAction(
            identifier: "meeting.reasonForDeclineInputAction", title: "거절 사유", options: [.destructive, .foreground],
            textInput: TextInputConfiguration(buttonTitle: "보내기", placeholder: .localized(key: "REASON_PLACEHOLDER")))))
    }

    @Test func aTextInputActionMayLeaveButtonTitleAndPlaceholderEmptyAsOnApple() throws {
        let reply = try NotificationAction.textInput(identifier: "REPLY", title: "Reply")
        #expect(reply.textInput == (try TextInputConfiguration()))
        #expect(reply.textInput?.buttonTitle == .empty)
        #expect(reply.textInput?.placeholder == .empty)
    }

    @Test func acceptsAnEmptyTitleAsAppleDoes() throws {
        #expect(try NotificationAction(identifier: "NO_LABEL", title: "").title.isEmpty)
    }

    @Test func rejectsAnEmptyIdentifier() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "identifier", "an action identifier must not be empty")) {
            try NotificationAction(identifier: "", title: "Like")
        }
        #expect(throws: ChimeError(.invalidIdentifier, field: "identifier", "an action identifier must not be empty")) {
            try NotificationAction.textInput(identifier: "", title: "Reply")
        }
    }

    @Test(arguments: [NotificationResponse.defaultActionIdentifier, NotificationResponse.dismissActionIdentifier])
    func rejectsTheDefaultAndDismissIdentifiers(identifier: String) {
        #expect(throws: ChimeError(.invalidIdentifier, field: "identifier", "an action must not use the default or dismiss action identifier")) {
            try NotificationAction(identifier: identifier, title: "Open")
        }
    }

    @Test func rejectsALocalizedTitleWithAnEmptyKey() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "title", "a localization key must not be empty")) {
            try NotificationAction(identifier: "LIKE", title: .localized(key: ""))
        }
    }

    @Test func rejectsLocalizedTextInputStringsWithAnEmptyKey() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "textInput.buttonTitle", "a localization key must not be empty")) {
            try NotificationAction.textInput(identifier: "REPLY", title: "Reply", buttonTitle: .localized(key: ""))
        }
        #expect(throws: ChimeError(.invalidIdentifier, field: "textInput.placeholder", "a localization key must not be empty")) {
            try TextInputConfiguration(placeholder: .localized(key: "", arguments: ["x"]))
        }
    }

    @Test(arguments: [
        (NotificationActionOptions.authenticationRequired, UInt(1)), (.destructive, 2), (.foreground, 4),
    ])
    func optionsHaveApplesRawValues(option: NotificationActionOptions, raw: UInt) {
        #expect(option.rawValue == raw)
    }

    @Test func iconsKeepTheirKindAndName() throws {
        let system = try NotificationActionIcon(systemImageName: "hand.thumbsup")
        #expect(system.kind == .systemImage)
        #expect(system.name == "hand.thumbsup")
        let template = try NotificationActionIcon(templateImageName: "like")
        #expect(template == (try NotificationActionIcon(.templateImage, name: "like")))
    }

    @Test func rejectsAnEmptyIconName() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "icon.name", "an icon name must not be empty")) {
            try NotificationActionIcon(systemImageName: "")
        }
        #expect(throws: ChimeError(.invalidIdentifier, field: "icon.name", "an icon name must not be empty")) {
            try NotificationActionIcon(templateImageName: "")
        }
    }

    @Test func encodesCleanJSON() throws {
        let unfollow = try NotificationAction(
            identifier: "ACTION_UNFOLLOW", title: "Unfollow", options: [.destructive, .authenticationRequired],
            icon: NotificationActionIcon(systemImageName: "person.slash"))
        #expect(try json(unfollow) == #"{"icon":{"kind":"systemImage","name":"person.slash"},"identifier":"ACTION_UNFOLLOW","options":["authenticationRequired","destructive"],"title":"Unfollow"}"#)
        let reply = try NotificationAction.textInput(identifier: "REPLY", title: .localized(key: "REPLY"), buttonTitle: "Send")
        #expect(try json(reply) == #"{"identifier":"REPLY","options":[],"textInput":{"buttonTitle":"Send","placeholder":""},"title":{"key":"REPLY"}}"#)
    }

    @Test func optionsDecodeFromNamesOrApplesRawValue() throws {
        #expect(try decode(NotificationActionOptions.self, #"["foreground","destructive"]"#) == [.destructive, .foreground])
        #expect(try decode(NotificationActionOptions.self, "5") == [.authenticationRequired, .foreground])
        #expect(try decode(NotificationActionOptions.self, "[]") == [])
    }

    @Test func optionsWithBitsWithoutANameEncodeAsTheRawValue() throws {
        let options: NotificationActionOptions = [.foreground, NotificationActionOptions(rawValue: 64)]
        #expect(try json(options) == "68")
        #expect(try decode(NotificationActionOptions.self, "68") == options)
    }

    @Test(arguments: [#"["loud"]"#, "-1", #""foreground""#])
    func decodingUnknownOptionsFails(json: String) {
        #expect(throws: DecodingError.self) { try decode(NotificationActionOptions.self, json) }
    }

    @Test(arguments: [
        try NotificationAction(identifier: "LIKE", title: "Like"),
        try NotificationAction(identifier: "SET", title: .localized(key: "SETTINGS", arguments: ["a"]), options: [.foreground],
                               icon: NotificationActionIcon(templateImageName: "gear")),
        try NotificationAction.textInput(identifier: "REPLY", title: "Reply", options: [.authenticationRequired],
                                         buttonTitle: "Send", placeholder: .localized(key: "MESSAGE")),
    ])
    func roundTripsThroughJSON(action: NotificationAction) throws {
        #expect(try JSONDecoder().decode(NotificationAction.self, from: JSONEncoder().encode(action)) == action)
    }

    @Test func decodingFillsInMissingTitleAndOptions() throws {
        #expect(try decode(NotificationAction.self, #"{"identifier":"LIKE"}"#) == (try NotificationAction(identifier: "LIKE", title: "")))
    }

    @Test(arguments: [
        (#"{"identifier":""}"#, "identifier"),
        (#"{"identifier":"com.apple.UNNotificationDismissActionIdentifier","title":"x"}"#, "identifier"),
        (#"{"identifier":"A","title":{"key":""}}"#, "title"),
        (#"{"identifier":"A","icon":{"kind":"systemImage"}}"#, "icon.name"),
        (#"{"identifier":"A","textInput":{"placeholder":{"key":""}}}"#, "textInput.placeholder"),
    ])
    func decodingRevalidates(json: String, field: String) {
        let error = #expect(throws: ChimeError.self) { try decode(NotificationAction.self, json) }
        #expect(error?.code == .invalidIdentifier)
        #expect(error?.field == field)
    }
}
