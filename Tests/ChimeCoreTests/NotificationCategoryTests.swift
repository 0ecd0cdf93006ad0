import ChimeCore
import Foundation
import Testing

@Suite struct NotificationCategoryTests {
    private func decode(_ json: String) throws -> NotificationCategory {
        try JSONDecoder().decode(NotificationCategory.self, from: Data(json.utf8))
    }

    @Test func buildsTheSeedsImagePostingCategory() throws {
        let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like", options: [])
        let dislike = try NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike", options: [])
        let unfollow = try NotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow", options: [.authenticationRequired, .destructive])
        let setting = try NotificationAction(identifier: "ACTION_SETTING", title: "Setting", options: [.foreground])
        var options = NotificationCategoryOptions.customDismissAction
        options.insert(.hiddenPreviewsShowTitle)
        let imagePosting = try NotificationCategory(
            identifier: "CATEGORY_IMAGE_POSTING", actions: [like, dislike, unfollow, setting], intentIdentifiers: [], options: options)

        #expect(imagePosting.actions.map(\.identifier) == ["ACTION_LIKE", "ACTION_DISLIKE", "ACTION_UNFOLLOW", "ACTION_SETTING"])
        #expect(imagePosting.options.rawValue == 5)
        #expect(imagePosting.options.contains(.customDismissAction))
        #expect(imagePosting.action(withIdentifier: "ACTION_UNFOLLOW")?.options == [.authenticationRequired, .destructive])
        #expect(imagePosting.action(withIdentifier: "ACTION_SETTING")?.options == .foreground)
        #expect(imagePosting.action(withIdentifier: "ACTION_SHARE") == nil)
    }

    @Test func buildsTheSeedsMeetingInviteWithATextInputDecline() throws {
        let accept = try NotificationAction(identifier: "meeting.acceptAction", title: "수락", options: [])
        let decline = try NotificationAction(identifier: "meeting.declineAction", title: "거절", options: [.destructive])
        let reason = try NotificationAction.textInput(
            identifier: "meeting.reasonForDeclineInputAction", title: "거절 사유", options: [.destructive, .foreground],
            buttonTitle: "보내기", placeholder: "거절 사유를 입력하세요")
        let meeting = try NotificationCategory(
            identifier: "meetingCategory", actions: [accept, decline, reason], intentIdentifiers: [], options: [])

        #expect(meeting.actions.filter(\.isTextInput).map(\.identifier) == ["meeting.reasonForDeclineInputAction"])
        #expect(meeting.action(withIdentifier: "meeting.reasonForDeclineInputAction")?.textInput?.buttonTitle == "보내기")
        #expect(meeting.action(withIdentifier: "meeting.reasonForDeclineInputAction")?.textInput?.placeholder == "거절 사유를 입력하세요")
        #expect(!meeting.options.contains(.customDismissAction))
    }

    @Test func buildsTheSeedsAlarmCategoryWithSnooze() throws {
        let snooze = try NotificationAction(identifier: "snooze", title: "Snooze", options: [])
        let alarm = try NotificationCategory(identifier: "AlarmNotification", actions: [snooze], intentIdentifiers: [], options: [])
        #expect(alarm.action(withIdentifier: "snooze")?.title == "Snooze")
        #expect(try JSONDecoder().decode(NotificationCategory.self, from: JSONEncoder().encode(alarm)) == alarm)
    }

    @Test func defaultsMatchApplesShortInitializer() throws {
        let category = try NotificationCategory(identifier: "EMPTY", actions: [])
        #expect(category.actions.isEmpty)
        #expect(category.intentIdentifiers.isEmpty)
        #expect(category.hiddenPreviewsBodyPlaceholder == nil)
        #expect(category.categorySummaryFormat == nil)
        #expect(category.options == [])
    }

    @Test(arguments: [
        (NotificationCategoryOptions.customDismissAction, UInt(1)), (.allowInCarPlay, 2), (.hiddenPreviewsShowTitle, 4),
        (.hiddenPreviewsShowSubtitle, 8), (.allowAnnouncement, 16),
    ])
    func optionsHaveApplesRawValues(option: NotificationCategoryOptions, raw: UInt) {
        #expect(option.rawValue == raw)
    }

    @Test func rejectsAnEmptyIdentifier() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "identifier", "a category identifier must not be empty")) {
            try NotificationCategory(identifier: "", actions: [])
        }
    }

    @Test func rejectsTwoActionsWithOneIdentifierNamingTheSecond() throws {
        let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like")
        let dislike = try NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike")
        let likeAgain = try NotificationAction(identifier: "ACTION_LIKE", title: "Love", options: [.foreground])
        let error = ChimeError(.duplicateActionIdentifier, field: "actions[2]", "two actions share an identifier")
        #expect(throws: error) {
            try NotificationCategory(identifier: "CATEGORY_IMAGE_POSTING", actions: [like, dislike, likeAgain])
        }
        #expect(!error.description.contains("Love"))
    }

    @Test func rejectsAnEmptyIntentIdentifier() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "intentIdentifiers", "an intent identifier must not be empty")) {
            try NotificationCategory(identifier: "MESSAGE", actions: [], intentIdentifiers: ["INSendMessageIntent", ""])
        }
    }

    @Test func rejectsLocalizedPlaceholderOrSummaryFormatWithAnEmptyKey() {
        #expect(throws: ChimeError(.invalidIdentifier, field: "hiddenPreviewsBodyPlaceholder", "a localization key must not be empty")) {
            try NotificationCategory(identifier: "C", actions: [], hiddenPreviewsBodyPlaceholder: .localized(key: ""))
        }
        #expect(throws: ChimeError(.invalidIdentifier, field: "categorySummaryFormat", "a localization key must not be empty")) {
            try NotificationCategory(identifier: "C", actions: [], categorySummaryFormat: .localized(key: ""))
        }
    }

    @Test func encodesCleanJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let category = try NotificationCategory(
            identifier: "PHOTOS", actions: [NotificationAction(identifier: "LIKE", title: "Like")],
            hiddenPreviewsBodyPlaceholder: .localized(key: "N_PHOTOS"), categorySummaryFormat: "%u more photos",
            options: [.hiddenPreviewsShowTitle, .customDismissAction])
        #expect(String(decoding: try encoder.encode(category), as: UTF8.self)
            == #"{"actions":[{"identifier":"LIKE","options":[],"title":"Like"}],"categorySummaryFormat":"%u more photos","hiddenPreviewsBodyPlaceholder":{"key":"N_PHOTOS"},"identifier":"PHOTOS","intentIdentifiers":[],"options":["customDismissAction","hiddenPreviewsShowTitle"]}"#)
    }

    @Test func roundTripsEveryPropertyThroughJSON() throws {
        let category = try NotificationCategory(
            identifier: "MESSAGE",
            actions: [
                NotificationAction.textInput(identifier: "REPLY", title: "Reply", buttonTitle: "Send", placeholder: "Message"),
                NotificationAction(identifier: "READ", title: .localized(key: "MARK_READ"), options: [.authenticationRequired]),
            ],
            intentIdentifiers: ["INSendMessageIntent"], hiddenPreviewsBodyPlaceholder: "New message",
            categorySummaryFormat: .localized(key: "SUMMARY", arguments: ["x"]),
            options: [.allowInCarPlay, .hiddenPreviewsShowSubtitle, .allowAnnouncement])
        #expect(try JSONDecoder().decode(NotificationCategory.self, from: JSONEncoder().encode(category)) == category)
    }

    @Test func decodingFillsInMissingListsAndOptions() throws {
        #expect(try decode(#"{"identifier":"ALARM"}"#) == (try NotificationCategory(identifier: "ALARM", actions: [])))
        #expect(try decode(#"{"identifier":"ALARM","options":1}"#).options == .customDismissAction)
    }

    @Test(arguments: [
        (#"{"identifier":""}"#, ChimeError.Code.invalidIdentifier),
        (#"{"identifier":"C","actions":[{"identifier":"A"},{"identifier":"A"}]}"#, .duplicateActionIdentifier),
        (#"{"identifier":"C","actions":[{"identifier":"com.apple.UNNotificationDefaultActionIdentifier"}]}"#, .invalidIdentifier),
        (#"{"identifier":"C","intentIdentifiers":[""]}"#, .invalidIdentifier),
    ])
    func decodingRevalidates(json: String, code: ChimeError.Code) {
        let error = #expect(throws: ChimeError.self) { try decode(json) }
        #expect(error?.code == code)
    }
}
