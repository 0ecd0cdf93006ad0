import ChimeCore
import Foundation

/// The seeds' notifications, as their apps register and send them.
enum Seeds {
    // MARK: Photo post (Like / Dislike)

    /// `imagePostingCategory`, with the options the seed adds last: the title stays visible when previews
    /// are hidden, and clearing the notification tells the app.
    static func photoCategory() throws -> NotificationCategory {
        try NotificationCategory(
            identifier: "CATEGORY_IMAGE_POSTING",
            actions: [
                NotificationAction(identifier: "ACTION_LIKE", title: "Like"),
                NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike"),
            ],
            options: [.hiddenPreviewsShowTitle, .customDismissAction])
    }

    /// "Hello" / "Shared some photo", the default sound, and the `logo-image` attachment.
    static func photoPost() throws -> NotificationContent {
        var content = NotificationContent(title: "Hello", body: "Shared some photo", sound: .default)
        content.categoryIdentifier = "CATEGORY_IMAGE_POSTING"
        content.attachments = [
            try NotificationAttachment(
                identifier: "logo-image", url: URL(fileURLWithPath: "/tmp/chime-tests/hello.png"), type: .png, fileSize: 2048)
        ]
        return content
    }

    // MARK: Meeting invite (수락 / 거절 / 거절 사유)

    /// `meetingCategory`: accept, decline (destructive), and a reason for declining typed in (destructive,
    /// opens the app), with the placeholder the Apple sample gives.
    static func meetingCategory() throws -> NotificationCategory {
        try NotificationCategory(
            identifier: "meetingCategory",
            actions: [
                NotificationAction(identifier: "meeting.acceptAction", title: "수락"),
                NotificationAction(identifier: "meeting.declineAction", title: "거절", options: [.destructive]),
                NotificationAction.textInput(
                    identifier: "meeting.reasonForDeclineInputAction", title: "거절 사유", options: [.destructive, .foreground],
                    buttonTitle: "보내기", placeholder: "사유"),
            ])
    }

    static func meetingInvite() -> NotificationContent {
        var content = NotificationContent(title: "미팅 초대", body: "일시 : 2022/04/05 오후 2시", sound: .default)
        content.categoryIdentifier = "meetingCategory"
        return content
    }

    // MARK: Rating (dynamic stars)

    static func ratingCategory() throws -> NotificationCategory {
        try NotificationCategory(identifier: "rating", actions: [NotificationAction(identifier: "rate", title: "Rate")])
    }

    static func stars() throws -> [NotificationAction] {
        try ["1", "2", "3"].map { try NotificationAction(identifier: "star-\($0)", title: .literal(String(repeating: "★", count: Int($0)!))) }
    }

    static func movie() -> NotificationContent {
        var content = NotificationContent(title: "How was the movie?", body: "Rate “Past Lives”")
        content.categoryIdentifier = "rating"
        return content
    }

    // MARK: Alarm (Snooze)

    static func alarmCategory() throws -> NotificationCategory {
        try NotificationCategory(identifier: "AlarmNotification", actions: [NotificationAction(identifier: "snooze", title: "Snooze")])
    }

    static func alarm() -> NotificationContent {
        var content = NotificationContent(title: "Alarm", body: "Beep Beep", sound: .default)
        content.categoryIdentifier = "AlarmNotification"
        return content
    }

    // MARK: Low glucose (critical)

    /// The seed sets only the critical sound, no interruption level.
    static func lowGlucose() throws -> NotificationContent {
        var content = NotificationContent(title: "WARNING: LOW BLOOD SUGAR", body: "Glucose level at 57")
        content.categoryIdentifier = "low-glucose-alert"
        content.sound = try .criticalNamed("warning-sound", volume: 1.0)
        return content
    }
}
