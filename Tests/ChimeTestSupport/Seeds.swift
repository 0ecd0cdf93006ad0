public import ChimeCore
public import Foundation

/// The seeds' notifications, as their apps register and send them.
public enum Seeds {
    /// `imagePostingCategory`: Like / Dislike; the title stays visible when previews are hidden, and
    /// clearing the notification tells the app.
    public static func photoCategory() throws -> NotificationCategory {
        try NotificationCategory(
            identifier: "CATEGORY_IMAGE_POSTING",
            actions: [
                NotificationAction(identifier: "ACTION_LIKE", title: "Like"),
                NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike"),
            ],
            options: [.hiddenPreviewsShowTitle, .customDismissAction])
    }

    /// "Hello" / "Shared some photo" with the default sound, and `image` as its `logo-image` attachment
    /// when given (the file must exist: its type is read from it).
    public static func photoPost(image: URL? = nil) throws -> NotificationContent {
        try photoPost(attachment: image.map { try NotificationAttachment(identifier: "logo-image", url: $0) })
    }

    public static func photoPost(attachment: NotificationAttachment?) throws -> NotificationContent {
        var content = NotificationContent(title: "Hello", body: "Shared some photo", sound: .default)
        content.categoryIdentifier = "CATEGORY_IMAGE_POSTING"
        content.attachments = attachment.map { [$0] } ?? []
        return content
    }

    /// The seed's `logo-image` as a PNG of 2 KiB, described without a file (for presenters that only
    /// name it).
    public static func logoImage() throws -> NotificationAttachment {
        try NotificationAttachment(identifier: "logo-image", url: URL(fileURLWithPath: "/tmp/chime-tests/hello.png"), type: .png, fileSize: 2048)
    }

    public static func meetingCategory() throws -> NotificationCategory {
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

    public static func meetingInvite() -> NotificationContent {
        var content = NotificationContent(title: "미팅 초대", body: "일시 : 2022/04/05 오후 2시", sound: .default)
        content.categoryIdentifier = "meetingCategory"
        return content
    }

    /// Rating: "Rate" turns into three star buttons (the content extension's dynamic actions).
    public static func ratingCategory() throws -> NotificationCategory {
        try NotificationCategory(identifier: "rating", actions: [NotificationAction(identifier: "rate", title: "Rate")])
    }

    public static func stars() throws -> [NotificationAction] {
        try ["1", "2", "3"].map { try NotificationAction(identifier: "star-\($0)", title: .literal(String(repeating: "★", count: Int($0)!))) }
    }

    public static func movie() -> NotificationContent {
        var content = NotificationContent(title: "How was the movie?", body: "Rate “Past Lives”")
        content.categoryIdentifier = "rating"
        return content
    }

    /// The alarm: Snooze, and no custom dismiss action.
    public static func alarmCategory() throws -> NotificationCategory {
        try NotificationCategory(identifier: "AlarmNotification", actions: [NotificationAction(identifier: "snooze", title: "Snooze")])
    }

    public static func alarm() -> NotificationContent {
        var content = NotificationContent(title: "Alarm", body: "Beep Beep", sound: .default)
        content.categoryIdentifier = "AlarmNotification"
        return content
    }

    /// The seed sets only the critical sound, no interruption level.
    public static func lowGlucose() throws -> NotificationContent {
        var content = NotificationContent(title: "WARNING: LOW BLOOD SUGAR", body: "Glucose level at 57")
        content.categoryIdentifier = "low-glucose-alert"
        content.sound = try .criticalNamed("warning-sound", volume: 1.0)
        return content
    }

    /// Removes a file `pngFile()` made, with its folder.
    public static func remove(_ file: URL) {
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }

    /// A small PNG file (a valid signature and header; the presenter only passes its path on), in a
    /// folder of its own; `remove(_:)` deletes it.
    public static func pngFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-desktop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("hello.png")
        let bytes: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89,
        ]
        try Data(bytes).write(to: url)
        return url
    }
}
