import ChimeCore
import ChimeDesktop
import ChimeEngine
import ChimeTestSupport
import Foundation
import Testing

/// The seeds' notifications on a desktop, end to end: a real engine presents them through the desktop
/// presenter to a notification server speaking the real protocol on a private bus; the user's answers
/// come back as the server's signals and reach the app's delegate.
@Suite("Desktop presenter: notifications and answers")
struct DesktopPresenterTests {
    // MARK: - Showing

    @Test func aNotificationIsShownWithItsTextButtonsAndHints() async throws {
        try await DesktopHarness.run { h in
            let image = try Seeds.pngFile()
            defer { Seeds.remove(image) }
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(image: image), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify["app_name"]?.stringValue == "Photos")
            #expect(notify.replacesID == 0)
            #expect(notify.summary == "Hello")
            #expect(notify.body == "Shared some photo")
            #expect(notify.actions == ["default", "Open", "ACTION_LIKE", "Like", "ACTION_DISLIKE", "Dislike"])
            #expect(notify.hint("urgency")?.intValue == 1)
            #expect(notify.hint("category")?.stringValue == "CATEGORY_IMAGE_POSTING")
            #expect(notify.hint("desktop-entry")?.stringValue == "com.example.photos")
            #expect(notify.hint("x-chime-app")?.stringValue == "com.example.photos")
            #expect(notify.hint("x-chime-notification")?.stringValue == "photo-1")
            #expect(notify.hint("sound-name")?.stringValue == "message-new-instant")
            #expect(notify.hint("image-path")?.stringValue == image.absoluteString)
            #expect(notify.expireTimeout == -1)
        }
    }

    @Test func aPersistentBannerNeverExpiresAndSilenceIsAsked() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            var settings = try await center.notificationSettings()
            settings.alertStyle = .alert
            settings.soundSetting = .disabled
            try await center.updateSettings(settings)
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.expireTimeout == 0)
            #expect(notify.hint("suppress-sound")?.boolValue == true)
            #expect(notify.hint("sound-name") == nil)
        }
    }

    /// A passive notification goes to the list without a banner: GNOME Shell gets it with low urgency,
    /// which it keeps in its list; a server that would pop it up is not sent it.
    @Test(arguments: ["chime-fake", "gnome-shell"])
    func aCriticalAlertIsUrgentAndPassiveOneIsNot(server: String) async throws {
        var options = FakeNotificationServer.Options()
        options.name = server
        try await DesktopHarness.run(server: options) { h in
            let center = try await h.center("com.example.alarm", options: [.alert, .sound, .criticalAlert])
            try await h.deliver("glucose", Seeds.lowGlucose(), in: center)
            let critical = try await h.fake.nextCall("Notify")
            #expect(critical.hint("urgency")?.intValue == 2)
            #expect(critical.hint("sound-name")?.stringValue == "alarm-clock-elapsed")

            var passive = NotificationContent(title: "FYI", body: "Nothing urgent")
            passive.interruptionLevel = .passive
            try await h.deliver("fyi", passive, in: center)
            try await eventually("the passive one delivered") { try await center.deliveredNotifications().contains { $0.request.identifier == "fyi" } }
            try await h.deliver("after", NotificationContent(title: "After"), in: center)
            let next = try await h.fake.nextCall("Notify")
            if server == "gnome-shell" {
                #expect(next.summary == "FYI")
                #expect(next.hint("urgency")?.intValue == 0)
                #expect(next.hint("suppress-sound")?.boolValue == true)
            } else {
                #expect(next.summary == "After", "the passive one stays in Chime's list")
            }
        }
    }

    @Test func hiddenPreviewsShowThePlaceholderAndNoImage() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            var settings = try await center.notificationSettings()
            settings.showPreviewsSetting = .never
            try await center.updateSettings(settings)
            let image = try Seeds.pngFile()
            defer { Seeds.remove(image) }
            try await h.deliver("photo-1", Seeds.photoPost(image: image), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.summary == "Hello")  // the category keeps the title (hiddenPreviewsShowTitle)
            #expect(notify.body == "Notification")
            #expect(notify.hint("image-path") == nil)
        }
    }

    @Test func markupIsEscapedForAServerThatReadsIt() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center()
            try await h.deliver("tag", NotificationContent(title: "<i>Title</i>", body: "<b>bold</b> & <a href=\"x\">link</a>"), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.body == "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;a href=\"x\"&gt;link&lt;/a&gt;")
            #expect(notify.summary == "<i>Title</i>")  // the summary is never markup
        }
        var plain = FakeNotificationServer.Options()
        plain.capabilities = ["actions", "body"]
        try await DesktopHarness.run(server: plain) { h in
            let center = try await h.center()
            try await h.deliver("tag", NotificationContent(title: "T", body: "<b>bold</b> & more"), in: center)
            #expect(try await h.fake.nextCall("Notify").body == "<b>bold</b> & more")
        }
    }

    // MARK: - Answers

    @Test func choosingAButtonReachesTheAppAndTakesTheNotificationDown() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            try await h.fake.invoke(id: notify.id, key: "ACTION_LIKE")
            let response = try await h.app.responses.next("the app's response")
            #expect(response.actionIdentifier == "ACTION_LIKE")
            #expect(response.notification.identifier == "photo-1")
            // The standard outcome takes it off the screen; it stays in the delivered list.
            let close = try await h.fake.nextCall("CloseNotification")
            #expect(close.id == notify.id)
            #expect(try await center.deliveredNotifications().map(\.identifier) == ["photo-1"])
        }
    }

    @Test func clickingTheNotificationOpensIt() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            try await h.fake.invoke(id: notify.id, key: "default")
            let response = try await h.app.responses.next("the app's response")
            #expect(response.actionIdentifier == NotificationResponse.defaultActionIdentifier)
        }
    }

    @Test func closingIsADismissalThatOnlyACustomDismissCategoryHears() async throws {
        try await DesktopHarness.run { h in
            let photos = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: photos)
            let photo = try await h.fake.nextCall("Notify")
            try await h.fake.close(id: photo.id, reason: 2)
            let response = try await h.app.responses.next("the dismiss response")
            #expect(response.actionIdentifier == NotificationResponse.dismissActionIdentifier)
            try await eventually("the photo left the delivered list") { try await photos.deliveredNotifications().isEmpty }

            // No customDismissAction: the app hears nothing, but the notification is cleared all the same.
            let alarms = try await h.center("com.example.alarm", categories: [Seeds.alarmCategory()])
            try await h.deliver("alarm-1", Seeds.alarm(), in: alarms)
            let alarm = try await h.fake.nextCall("Notify") { $0.summary == "Alarm" }
            try await h.fake.close(id: alarm.id, reason: 2)
            try await eventually("the alarm left the delivered list") { try await alarms.deliveredNotifications().isEmpty }
            await h.presenter.idle()
            #expect(h.app.responses.all.count == 1)
        }
    }

    @Test func expiringClosingByCallAndClosingAfterAnActionAreNotDismissals() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            for identifier in ["expires", "closed-by-call", "acted-on"] {
                try await h.deliver(identifier, Seeds.photoPost(), in: center)
            }
            let expires = try await h.fake.nextCall("Notify") { $0.hint("x-chime-notification")?.stringValue == "expires" }
            let closedByCall = try await h.fake.nextCall("Notify") { $0.hint("x-chime-notification")?.stringValue == "closed-by-call" }
            let actedOn = try await h.fake.nextCall("Notify") { $0.hint("x-chime-notification")?.stringValue == "acted-on" }
            try await h.fake.close(id: expires.id, reason: 1)
            try await h.fake.close(id: closedByCall.id, reason: 3)
            // As dunst and GNOME do: the action, then the server closes it as the user's doing.
            try await h.fake.invoke(id: actedOn.id, key: "ACTION_DISLIKE")
            try await h.fake.close(id: actedOn.id, reason: 2)
            let response = try await h.app.responses.next("the action's response")
            #expect(response.actionIdentifier == "ACTION_DISLIKE")
            // A last answer: once it is in, every signal before it has been handled.
            try await h.deliver("marker", Seeds.photoPost(), in: center)
            let marker = try await h.fake.nextCall("Notify") { $0.hint("x-chime-notification")?.stringValue == "marker" }
            try await h.fake.invoke(id: marker.id, key: "ACTION_LIKE")
            _ = try await h.app.responses.next("the marker's response")
            await h.presenter.idle()
            #expect(h.app.responses.all.map(\.actionIdentifier) == ["ACTION_DISLIKE", "ACTION_LIKE"])
            #expect(Set(try await center.deliveredNotifications().map(\.identifier)) == ["expires", "closed-by-call", "acted-on", "marker"])
        }
    }

    @Test func anAnswerTheEngineRefusesIsLoggedAndNothingBreaks() async throws {
        try await DesktopHarness.run { h in
            let category = try NotificationCategory(
                identifier: "account",
                actions: [NotificationAction(identifier: "delete", title: "Delete", options: [.authenticationRequired, .destructive])])
            let center = try await h.center(categories: [category])
            var content = NotificationContent(title: "Account", body: "Delete the old backups?")
            content.categoryIdentifier = "account"
            await h.engine.updateEnvironment(UserEnvironment(isLocked: true))
            try await h.deliver("backup", content, in: center)
            let notify = try await h.fake.nextCall("Notify")
            try await h.fake.invoke(id: notify.id, key: "delete")
            let warning = try await h.log.nextWarning(containing: "com.example.photos/backup")
            #expect(warning.contains("action delete"))
            #expect(warning.contains("sessionLocked"))
            #expect(!warning.contains("Delete the old backups"))  // no notification text in the log
            #expect(h.app.responses.all.isEmpty)
            // Unlocked, the next press goes through.
            await h.engine.updateEnvironment(UserEnvironment(isLocked: false))
            try await h.fake.invoke(id: notify.id, key: "delete")
            #expect(try await h.app.responses.next("the response").actionIdentifier == "delete")
        }
    }

    @Test func signalsFromAnotherPeerAreIgnored() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            try await h.fake.spoofInvoke(id: notify.id, key: "ACTION_LIKE")
            try await h.fake.invoke(id: notify.id, key: "ACTION_DISLIKE")
            let response = try await h.app.responses.next("the genuine response")
            #expect(response.actionIdentifier == "ACTION_DISLIKE")
            await h.presenter.idle()
            #expect(h.app.responses.all.count == 1)
        }
    }

    // MARK: - Text input

    @Test func theInlineReplyCarriesTheTypedText() async throws {
        var kde = FakeNotificationServer.Options()
        kde.capabilities += ["inline-reply"]
        try await DesktopHarness.run(server: kde) { h in
            let center = try await h.center("com.example.meetings", categories: [Seeds.meetingCategory()])
            try await h.deliver("meeting-1", Seeds.meetingInvite(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.actions == ["default", "Open", "meeting.acceptAction", "수락", "meeting.declineAction", "거절", "inline-reply", "거절 사유"])
            #expect(notify.hint("x-kde-reply-placeholder-text")?.stringValue == "사유")
            #expect(notify.hint("x-kde-reply-submit-button-text")?.stringValue == "보내기")
            try await h.fake.reply(id: notify.id, text: "출장 중이라 참석이 어렵습니다")
            let response = try await h.app.responses.next("the reply")
            #expect(response.actionIdentifier == "meeting.reasonForDeclineInputAction")
            #expect(response.userText == "출장 중이라 참석이 어렵습니다")
        }
    }

    @Test func onlyTheFirstTextActionIsInlineTheOthersAskElsewhere() async throws {
        var kde = FakeNotificationServer.Options()
        kde.capabilities += ["inline-reply"]
        try await DesktopHarness.run(server: kde) { h in
            let category = try NotificationCategory(
                identifier: "chat",
                actions: [
                    NotificationAction.textInput(identifier: "reply", title: "Reply", placeholder: "Message"),
                    NotificationAction.textInput(identifier: "note", title: "Add a note"),
                ])
            let center = try await h.center(categories: [category])
            var content = NotificationContent(title: "Jane", body: "Lunch?")
            content.categoryIdentifier = "chat"
            try await h.deliver("chat-1", content, in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.actions == ["default", "Open", "inline-reply", "Reply", "note", "Add a note"])
            try await h.fake.invoke(id: notify.id, key: "note")
            let request = try await h.replyRequests.next("the reply request")
            #expect(request.actionIdentifier == "note")
        }
    }

    @Test func withoutInlineReplyATextActionAsksForTheReplyElsewhere() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center("com.example.meetings", categories: [Seeds.meetingCategory()])
            try await h.deliver("meeting-1", Seeds.meetingInvite(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            #expect(notify.actions.contains("meeting.reasonForDeclineInputAction"))
            #expect(!notify.actions.contains("inline-reply"))
            try await h.fake.invoke(id: notify.id, key: "meeting.reasonForDeclineInputAction")
            let request = try await h.replyRequests.next("the reply request")
            #expect(request == ReplyRequestExpectation.meeting)
            // The app heard nothing, and the invitation waits in its list for a reply from elsewhere.
            await h.presenter.idle()
            #expect(h.app.responses.all.isEmpty)
            #expect(try await center.deliveredNotifications().map(\.identifier) == ["meeting-1"])
            _ = try await h.engine.respond(
                appIdentifier: "com.example.meetings", notificationIdentifier: "meeting-1",
                action: .reply(action: request.actionIdentifier, text: "다른 일정이 있습니다"))
            #expect(try await h.app.responses.next("the reply").userText == "다른 일정이 있습니다")
        }
    }

    @Test func withoutAReplyHandlerTheRequestIsLogged() async throws {
        try await DesktopHarness.run(handlesReplies: false) { h in
            let center = try await h.center("com.example.meetings", categories: [Seeds.meetingCategory()])
            try await h.deliver("meeting-1", Seeds.meetingInvite(), in: center)
            let notify = try await h.fake.nextCall("Notify")
            try await h.fake.invoke(id: notify.id, key: "meeting.reasonForDeclineInputAction")
            let warning = try await h.log.nextWarning(containing: "meeting.reasonForDeclineInputAction")
            #expect(warning.contains("com.example.meetings/meeting-1"))
            #expect(warning.contains("typed reply"))
        }
    }

    // MARK: - Updates and withdrawal

    @Test func newButtonsReplaceTheNotificationInPlace() async throws {
        try await DesktopHarness.run { h in
            let stars = try Seeds.stars()
            h.app.answer { $0.actionIdentifier == "rate" ? .replaceActions(stars) : .standard }
            let center = try await h.center(categories: [Seeds.ratingCategory()])
            try await h.deliver("movie-1", Seeds.movie(), in: center)
            let first = try await h.fake.nextCall("Notify")
            #expect(first.actions == ["default", "Open", "rate", "Rate"])
            try await h.fake.invoke(id: first.id, key: "rate")
            let updated = try await h.fake.nextCall("Notify")
            #expect(updated.replacesID == first.id)
            #expect(updated.actions == ["default", "Open", "star-1", "★", "star-2", "★★", "star-3", "★★★"])
            try await h.fake.invoke(id: updated.id, key: "star-3")
            #expect(try await h.app.responses.next("the rating").actionIdentifier == "rate")
            #expect(try await h.app.responses.next("the rating").actionIdentifier == "star-3")
        }
    }

    @Test func removingADeliveredNotificationClosesIt() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center(categories: [Seeds.photoCategory()])
            try await h.deliver("photo-1", Seeds.photoPost(), in: center)
            try await h.deliver("photo-2", Seeds.photoPost(), in: center)
            let first = try await h.fake.nextCall("Notify") { $0.hint("x-chime-notification")?.stringValue == "photo-1" }
            _ = try await h.fake.nextCall("Notify") { $0.hint("x-chime-notification")?.stringValue == "photo-2" }
            try await center.removeDeliveredNotifications(withIdentifiers: ["photo-1"])
            #expect(try await h.fake.nextCall("CloseNotification").id == first.id)
            await h.presenter.idle()
            #expect(try h.fake.calls("CloseNotification").count == 1)
        }
    }

    // MARK: - Badges

    @Test func badgesAreBroadcastForDocks() async throws {
        try await DesktopHarness.run { h in
            let center = try await h.center()
            try await center.setBadgeCount(3)
            let three = try await h.fake.nextBadge()
            #expect(three["app_uri"]?.stringValue == "application://com.example.photos.desktop")
            #expect(three["properties"]?["count"]?.intValue == 3)
            #expect(three["properties"]?["count-visible"]?.boolValue == true)
            #expect(three["path"]?.stringValue == "/com/canonical/unity/launcherentry/com_2eexample_2ephotos")

            var content = NotificationContent(title: "New photo", body: "")
            content.badge = 4
            try await h.deliver("photo-1", content, in: center)
            #expect(try await h.fake.nextBadge()["properties"]?["count"]?.intValue == 4)

            try await center.setBadgeCount(0)
            let zero = try await h.fake.nextBadge()
            #expect(zero["properties"]?["count"]?.intValue == 0)
            #expect(zero["properties"]?["count-visible"]?.boolValue == false)
        }
    }
}

/// What the meeting's text action asks for when the server has no text field.
enum ReplyRequestExpectation {
    static let meeting = ReplyRequest(
        appIdentifier: "com.example.meetings", notificationIdentifier: "meeting-1",
        actionIdentifier: "meeting.reasonForDeclineInputAction", actionTitle: "거절 사유", placeholder: "사유")
}
