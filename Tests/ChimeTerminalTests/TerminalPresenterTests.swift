import ChimeCore
import ChimeEngine
import ChimeTerminal
import ChimeTesting
import ChimeTestSupport
import Foundation
import Testing

/// The seeds' notifications at a terminal, end to end: a real engine presents them through the terminal
/// presenter, the user reads the screen and types, and the app's delegate receives what they chose.
@Suite("Terminal presenter: the seeds' notifications")
struct TerminalPresenterTests {
    // MARK: - Authorization

    @Test func theAuthorizationQuestionIsAskedAtTheTerminal() async throws {
        let h = try TerminalHarness()
        let center = h.engine.center(for: "com.example.photos")
        async let granted = center.requestAuthorization(options: [.alert, .sound, .badge])
        try await h.expectScreen("\nPhotos asks to send notifications: alerts, sounds, badges.\nAllow “Photos” to send notifications? [y/n] ")
        h.type("maybe")
        try await h.expectScreen("maybe\n  Please answer y or n.\nAllow “Photos” to send notifications? [y/n] ")
        h.type("n")
        #expect(try await granted == false)
        #expect(try await h.finish() == "n\n  Not allowed.\n")
        #expect(try await center.notificationSettings().authorizationStatus == .denied)
    }

    // MARK: - Photo post

    @Test func thePhotoPostShowsItsActionsAndTheChoiceReachesTheApp() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        try await h.expectScreen(
            """
            \u{7}
            [Photos] 09:00
              Hello
              Shared some photo
              [image] logo-image
              1) Like
              2) Dislike
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("1")
        try await h.expectScreen("1\n  → “Like” chosen. Photos handles it in the background.\n")
        #expect(app.responses.map(\.actionIdentifier) == ["ACTION_LIKE"])
        #expect(try await center.deliveredNotifications().map(\.identifier) == ["photo-1"])  // still in the list
        #expect(try await h.finish() == "")
    }

    @Test func hiddenPreviewsShowTheTitleOnly() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory()], app: app)
        var settings = try await center.notificationSettings()
        settings.showPreviewsSetting = .never
        try await center.updateSettings(settings)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        // The category keeps the title (`hiddenPreviewsShowTitle`); body and attachment are hidden.
        try await h.expectScreen(
            """
            \u{7}
            [Photos] 09:00
              Hello
              Notification
              1) Like
              2) Dislike
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        #expect(try await h.finish() == "")
    }

    @Test func dismissingReachesTheAppOnlyWhenItsCategoryAsks() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory(), Seeds.alarmCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))  // customDismissAction
        _ = try await h.screen.next(through: "Choice: ")
        h.type("d")
        try await h.expectScreen("d\n  → Dismissed. Photos was told.\n")
        #expect(app.responses.map(\.actionIdentifier) == [NotificationResponse.dismissActionIdentifier])

        try await center.add(TerminalHarness.request("alarm-1", Seeds.alarm()))  // no customDismissAction
        _ = try await h.screen.next(through: "Choice: ")
        h.type("d")
        try await h.expectScreen("d\n  → Dismissed.\n")
        #expect(app.responses.count == 1)
        #expect(try await h.finish() == "")
    }

    @Test func openingIsTheDefaultActionAndBringsTheAppForward() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        _ = try await h.screen.next(through: "Choice: ")
        h.type("o")
        try await h.expectScreen("o\n  → Opened. Photos comes to the front.\n")
        #expect(app.responses.map(\.actionIdentifier) == [NotificationResponse.defaultActionIdentifier])
        #expect(try await h.finish() == "")
    }

    // MARK: - Meeting invite

    @Test func theMeetingInviteMarksDestructiveActionsAndSendsTheTypedReason() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(
            appIdentifier: "com.example.meetings", categories: [Seeds.meetingCategory()], app: app)
        try await center.add(TerminalHarness.request("meeting-1", Seeds.meetingInvite()))
        try await h.expectScreen(
            """
            \u{7}
            [Meetings] 09:00
              미팅 초대
              일시 : 2022/04/05 오후 2시
              1) 수락
              2) 거절  (destructive)
              3) 거절 사유  (destructive, opens the app, reply)
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("3")
        try await h.expectScreen("3\n  거절 사유: type your reply, Enter to “보내기”, an empty line to go back\n사유: ")
        h.type("출장 중이라 참석이 어렵습니다")
        try await h.expectScreen("출장 중이라 참석이 어렵습니다\n  → “거절 사유”: reply sent. Meetings comes to the front.\n")
        #expect(app.responses.map(\.actionIdentifier) == ["meeting.reasonForDeclineInputAction"])
        #expect(app.responses.first?.userText == "출장 중이라 참석이 어렵습니다")
        #expect(try await h.finish() == "")
    }

    @Test func anEmptyReplyGoesBackToTheChoices() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(
            appIdentifier: "com.example.meetings", categories: [Seeds.meetingCategory()], app: app)
        try await center.add(TerminalHarness.request("meeting-1", Seeds.meetingInvite()))
        _ = try await h.screen.next(through: "Choice: ")
        h.type("3")
        _ = try await h.screen.next(through: "\n사유: ")
        h.type("")
        try await h.expectScreen(
            """

              1) 수락
              2) 거절  (destructive)
              3) 거절 사유  (destructive, opens the app, reply)
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("1")
        _ = try await h.screen.next(through: "background.\n")
        #expect(app.responses.map(\.actionIdentifier) == ["meeting.acceptAction"])
        #expect(try await h.finish() == "")
    }

    // MARK: - Rating: dynamic actions

    @Test func theRatingExtensionShowsItsNewButtonsAtOnce() async throws {
        let app = RecordingApp()
        let stars = try Seeds.stars()
        app.answer { response in
            response.actionIdentifier == "rate" ? .replaceActions(stars) : .clearActions
        }
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.ratingCategory()], app: app)
        try await center.add(TerminalHarness.request("movie", Seeds.movie()))
        try await h.expectScreen(
            """

            [Photos] 09:00
              How was the movie?
              Rate “Past Lives”
              1) Rate
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("1")
        try await h.expectScreen(
            """
            1
              → “Rate” chosen. Photos handles it in the background.

            [Photos] 09:00 · updated
              How was the movie?
              Rate “Past Lives”
              1) ★
              2) ★★
              3) ★★★
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("3")
        try await h.expectScreen(
            """
            3
              → “★★★” chosen. Photos handles it in the background.

            [Photos] 09:00 · updated
              How was the movie?
              Rate “Past Lives”
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        #expect(app.responses.map(\.actionIdentifier) == ["rate", "star-3"])
        h.type("")
        try await h.expectScreen("\n  Left in the list.\n")
        #expect(try await h.finish() == "")
    }

    // MARK: - Invalid input and the end of input

    @Test func invalidInputAsksAgainAndChangesNothing() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        _ = try await h.screen.next(through: "Choice: ")
        h.type("7")
        try await h.expectScreen("7\n  “7” is not a choice: type 1-2, o, d, or press Enter for later.\nChoice: ")
        h.type("like it")
        try await h.expectScreen("like it\n  “like it” is not a choice: type 1-2, o, d, or press Enter for later.\nChoice: ")
        #expect(app.responses.isEmpty)
        #expect(try await center.deliveredNotifications().map(\.identifier) == ["photo-1"])
        h.type("dislike")  // an action's title works too
        try await h.expectScreen("dislike\n  → “Dislike” chosen. Photos handles it in the background.\n")
        #expect(app.responses.map(\.actionIdentifier) == ["ACTION_DISLIKE"])
        #expect(try await h.finish() == "")
    }

    @Test func aNotificationArrivingDuringAPromptWaitsItsTurn() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory(), Seeds.alarmCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        _ = try await h.screen.next(through: "Choice: ")
        try await center.add(TerminalHarness.request("alarm-1", Seeds.alarm()))
        await h.delivered()  // the alarm reached the presenter; nothing is written into the open prompt
        h.type("x")
        try await h.expectScreen("x\n  “x” is not a choice: type 1-2, o, d, or press Enter for later.\nChoice (1 waiting): ")
        h.type("2")
        try await h.expectScreen(
            """
            2
              → “Dislike” chosen. Photos handles it in the background.
            \u{7}
            [Photos] 09:00
              Alarm
              Beep Beep
              2 more notifications
              1) Snooze
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        #expect(app.responses.map(\.actionIdentifier) == ["ACTION_DISLIKE"])
        #expect(try await h.finish() == "")
    }

    @Test func theEndOfInputClosesThePromptAndLaterNotificationsAreOnlyShown() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory(), Seeds.alarmCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        _ = try await h.screen.next(through: "Choice: ")
        try h.closeInput()
        try await h.expectScreen("\n  Input closed.\n")

        try await center.add(TerminalHarness.request("alarm-1", Seeds.alarm()))
        try await h.expectScreen("\u{7}\n[Photos] 09:00\n  Alarm\n  Beep Beep\n  2 more notifications\n")
        // Nobody can answer: another app's question is shown and left undecided.
        let other = h.engine.center(for: "com.example.meetings")
        #expect(try await other.requestAuthorization(options: [.alert]) == false)
        try await h.expectScreen("\nMeetings asks to send notifications; with no input to answer, it is left\nundecided.\n")
        #expect(try await other.notificationSettings().authorizationStatus == .notDetermined)  // may ask again later
        #expect(app.responses.isEmpty)
        #expect(try await h.finish() == "")
    }

    // MARK: - Critical, passive, withdrawn, badges

    @Test func theLowGlucoseAlertStandsOut() async throws {
        let app = RecordingApp()
        let h = try TerminalHarness()
        let center = h.engine.center(for: "com.example.glucose")
        async let granted = center.requestAuthorization(options: [.alert, .sound, .badge, .criticalAlert])
        try await h.expectScreen(
            """

            com.example.glucose asks to send notifications: alerts, sounds, badges, critical
            alerts (they sound even when muted).
            Allow “com.example.glucose” to send notifications? [y/n]\u{20}
            """)
        h.type("y")
        #expect(try await granted)
        _ = try await h.screen.next(through: "Allowed.\n")
        await center.setDelegate(app, isForeground: false)
        await h.engine.start()
        try await center.add(TerminalHarness.request("glucose-1", Seeds.lowGlucose()))
        try await h.expectScreen(
            """
            \u{7}\u{7}\u{7}
            !! CRITICAL ALERT !! [com.example.glucose] 09:00
              WARNING: LOW BLOOD SUGAR
              Glucose level at 57
              [sound] warning-sound · critical, volume 100%
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        #expect(try await h.finish() == "")
    }

    @Test func aPassiveNotificationIsOneQuietLineWithoutBellOrPrompt() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory()], app: app)
        var content = try Seeds.photoPost(attachment: Seeds.logoImage())
        content.interruptionLevel = .passive
        try await center.add(TerminalHarness.request("photo-1", content))
        await h.delivered()
        try await center.setBadgeCount(2)  // something to wait for after it
        try await h.expectScreen("[Photos] 09:00 delivered quietly: Hello — Shared some photo\n[Photos] badge 2\n")
        #expect(try await h.finish() == "")
    }

    @Test func aNotificationRemovedByTheAppLeavesThePrompt() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(categories: [Seeds.photoCategory()], app: app)
        try await center.add(TerminalHarness.request("photo-1", Seeds.photoPost(attachment: Seeds.logoImage())))
        _ = try await h.screen.next(through: "Choice: ")
        try await center.removeDeliveredNotifications(withIdentifiers: ["photo-1"])
        try await h.expectScreen("\n  The notification was removed.\n")
        h.type("1")  // too late: nothing asks any more
        try await h.expectScreen("1\n  Nothing is waiting for an answer.\n")
        #expect(app.responses.isEmpty)
        #expect(try await h.finish() == "")
    }

    @Test func badgeChangesAreAShortLine() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(app: app)
        try await center.setBadgeCount(3)
        try await center.setBadgeCount(0)
        try await h.expectScreen("[Photos] badge 3\n[Photos] badge cleared\n")
        #expect(try await h.finish() == "")
    }

    // MARK: - Alarm: snooze, and a late delivery

    @Test func snoozingTheAlarmReachesTheAppAndTheSnoozedAlarmRingsLate() async throws {
        let app = RecordingApp()
        let (h, center) = try await TerminalHarness.started(
            appIdentifier: "com.example.alarm", categories: [Seeds.alarmCategory()], app: app)
        try await center.add(TerminalHarness.request("alarm", Seeds.alarm()))
        try await h.expectScreen(
            """
            \u{7}
            [com.example.alarm] 09:00
              Alarm
              Beep Beep
              1) Snooze
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        h.type("1")
        _ = try await h.screen.next(through: "background.\n")
        #expect(app.responses.map(\.actionIdentifier) == ["snooze"])

        // The app snoozes for 9 minutes, as the seed does; the machine sleeps through it and rings late.
        let snoozed = try NotificationRequest(
            identifier: "alarm", content: Seeds.alarm(), trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 9 * 60, repeats: false)))
        try await center.add(snoozed)
        await h.delivered()
        h.clock.advance(to: TerminalHarness.start.addingTimeInterval(3600 + 9 * 60))
        try await h.expectScreen(
            """
            \u{7}
            [com.example.alarm] 10:09 · late, due 09:09
              Alarm
              Beep Beep
              1) Snooze
              o) open   d) dismiss   Enter) later
            Choice:\u{20}
            """)
        #expect(try await h.finish() == "")
    }
}
