import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

// Seed 001, "Notification에 Action 버튼 추가하기": a meeting invitation with accept, decline, and decline
// with a typed reason. The code is the seed's final version, as written, minus UIKit (stand-ins). The
// seed sends the invitation as a push with `"category": "meetingCategory"`; here the app schedules the
// same alert locally.

fileprivate class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // Define the custom actions.
        let acceptAction = UNNotificationAction(identifier: "meeting.acceptAction", title: "수락", options: [])
        let declineAction = UNNotificationAction(identifier: "meeting.declineAction", title: "거절", options: [.destructive])
        let reasonForDeclineInputAction =  UNTextInputNotificationAction(
                    identifier: "meeting.reasonForDeclineInputAction",
                    title: "거절 사유",
                    options: [.destructive, .foreground])

        // Define the notification type
        let meetingCategory = UNNotificationCategory(
            identifier: "meetingCategory",
            actions: [acceptAction, declineAction, reasonForDeclineInputAction],
            intentIdentifiers: [],
            options: [])

        // Register the notification type.
        let notificationCenter = UNUserNotificationCenter.current()
        notificationCenter.setNotificationCategories([meetingCategory])

        notificationCenter.delegate = self
        notificationCenter.requestAuthorization(options: [.alert, .sound, .badge]) { (_, _) in }
        return true
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
        switch response.actionIdentifier {
        case "meeting.acceptAction":
            print("미팅 수락!")
        case "meeting.declineAction":
            print("미팅 거절!")
        case "meeting.reasonForDeclineInputAction":
            if let userInput = (response as? UNTextInputNotificationResponse)?.userText {
                print("미팅 거절 사유 => \(userInput)")
            }
        default:
            break
        }

        completionHandler()
    }
}

extension SeedTests {
    @Suite("Seed 001: a meeting invitation with a typed reason")
    struct MeetingInvite {
        /// Launches the app and delivers the invitation; returns the app and how the invitation was presented.
        fileprivate func launchAndInvite(_ h: Harness) async throws -> (AppDelegate, Presentation) {
            SeedConsole.clear()
            let appDelegate = AppDelegate()
            UNUserNotificationCenter.withCurrent(h.center) {
                _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
            }
            let content = UNMutableNotificationContent()
            content.title = "미팅 초대"
            content.body = "일시 : 2022/04/05 오후 2시"
            content.categoryIdentifier = "meetingCategory"
            try await h.center.add(UNNotificationRequest(identifier: "meeting-1", content: content, trigger: nil))
            return (appDelegate, await h.presenter.nextPresentation())
        }

        @Test func theInvitationOffersAcceptDeclineAndATextField() async throws {
            let h = Harness()
            let (appDelegate, shown) = try await launchAndInvite(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let category = try #require(await h.center.notificationCategories().first)
            #expect(category.actions.map(\.title) == ["수락", "거절", "거절 사유"])
            #expect(category.actions[2] is UNTextInputNotificationAction)
            #expect(category.actions[2].options == [.destructive, .foreground])
            // The app is in the foreground and its delegate has no willPresent: silenced as if it answered
            // [], as on iOS — shown nowhere, not even in the delivered list.
            #expect(await h.center.deliveredNotifications().isEmpty)
            #expect(shown.destinations == [])
        }

        @Test func inTheBackgroundTheSystemShowsTheInvitationWithItsButtons() async throws {
            let h = Harness()
            h.center.isApplicationInForeground = false
            let (appDelegate, shown) = try await launchAndInvite(h)
            defer { withExtendedLifetime(appDelegate) {} }
            #expect(shown.title == "미팅 초대")
            #expect(shown.actions.map(\.identifier) == ["meeting.acceptAction", "meeting.declineAction", "meeting.reasonForDeclineInputAction"])
            #expect(shown.actions[2].textInput != nil)
        }

        @Test func theDeclineReasonArrivesAsTheResponsesUserText() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndInvite(h)
            defer { withExtendedLifetime(appDelegate) {} }
            let outcome = try await h.user.reply("개인 일정이 있습니다", with: "meeting.reasonForDeclineInputAction", on: "meeting-1", in: h.appCenter)
            #expect(SeedConsole.lines == ["미팅 거절 사유 => 개인 일정이 있습니다"])
            #expect(outcome.launch == .foreground)  // .foreground brings the app up
        }

        @Test func acceptAndDeclineRunInTheBackground() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndInvite(h)
            defer { withExtendedLifetime(appDelegate) {} }
            #expect(try await h.user.tap("meeting.acceptAction", on: "meeting-1", in: h.appCenter).launch == .background)
            #expect(try await h.user.tap("meeting.declineAction", on: "meeting-1", in: h.appCenter).launch == .background)
            #expect(SeedConsole.lines == ["미팅 수락!", "미팅 거절!"])
        }

        @Test func aReplyToAButtonWithoutATextFieldIsRefused() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndInvite(h)
            defer { withExtendedLifetime(appDelegate) {} }
            await #expect {
                try await h.user.reply("no", with: "meeting.declineAction", on: "meeting-1", in: h.appCenter)
            } throws: { ($0 as? ChimeError)?.code == .actionNotAvailable }
            #expect(SeedConsole.lines.isEmpty)
        }
    }
}
