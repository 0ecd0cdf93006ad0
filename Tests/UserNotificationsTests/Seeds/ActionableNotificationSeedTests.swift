import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing
import UserNotifications

// Seed 000, "Actionable Notification": like / dislike buttons on a photo notification, a custom dismiss,
// an unfollow that needs unlocking, a setting action that opens the app. The code below is the seed's
// final version, as written; only UIKit is replaced (stand-ins), and `@main`, `@IBOutlet`/`@IBAction`,
// `@objc` and the `didBecomeActiveNotification` observer are dropped. Types are `fileprivate` because other
// seeds have an `AppDelegate` too.

// MARK: Test doubles for the app's bundle (which holds hello.png) and its defaults

fileprivate struct Bundle {
    static let main = Bundle()
    static let image = Locked<URL?>(nil)

    func url(forResource name: String?, withExtension ext: String?) -> URL? {
        Bundle.image.value
    }
}

fileprivate enum UserDefaults {
    static let standard = InMemoryDefaults()
}

// MARK: The seed's code

fileprivate struct ActionIdentifier {
	static let like = "ACTION_LIKE"
	static let dislike = "ACTION_DISLIKE"
	static let unfollow = "ACTION_UNFOLLOW"
	static let setting = "ACTION_SETTING"
	private init() {}
}

fileprivate struct CategoryIdentifier {
	static let imagePosting = "CATEGORY_IMAGE_POSTING"
	private init() {}
}

fileprivate class AppDelegate: UIResponder, UIApplicationDelegate {

	func setupCategory() {
		let likeAction = UNNotificationAction(identifier: ActionIdentifier.like, title: "Like", options: [])
		let dislikeAction = UNNotificationAction(identifier: ActionIdentifier.dislike, title: "Dislike", options: [])
		let unfollowAction = UNNotificationAction(identifier: ActionIdentifier.unfollow, title: "Unfollow", options: [.authenticationRequired, .destructive])
		let settingAction = UNNotificationAction(identifier: ActionIdentifier.setting, title: "Setting", options: [.foreground])

		var options = UNNotificationCategoryOptions.customDismissAction
		options.insert(.hiddenPreviewsShowTitle)
		let imagePostingCategory = UNNotificationCategory(identifier: CategoryIdentifier.imagePosting, actions: [likeAction, dislikeAction, unfollowAction, settingAction], intentIdentifiers: [], options: options)

		UNUserNotificationCenter.current().setNotificationCategories([imagePostingCategory])
	}

	func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
		UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge, .sound]) { granted, error in
			if granted {
				self.setupCategory()
				UNUserNotificationCenter.current().delegate = self
			}

			print("granted \(granted)")
		}
		return true
	}
}

@available(iOS 14.0, *)
extension AppDelegate: UNUserNotificationCenterDelegate {
	func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification, withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
		let content = notification.request.content
		let trigger = notification.request.trigger
		_ = (content, trigger)  // unused in the seed too; silences the warning

		completionHandler([UNNotificationPresentationOptions.banner])
	}

	func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
		let content = response.notification.request.content
		let trigger = response.notification.request.trigger
		_ = (content, trigger)  // unused in the seed too; silences the warning

		switch response.actionIdentifier {
		case ActionIdentifier.like:
			print("like")
		case ActionIdentifier.dislike:
			print("dislike")
		case UNNotificationDismissActionIdentifier:
			print("Custom Dismiss")
		case UNNotificationDefaultActionIdentifier:
			print("Default Action")
		default:
			print("Something else")
		}

		UserDefaults.standard.set(response.actionIdentifier, forKey: "userSelection")
		UserDefaults.standard.synchronize()

		completionHandler()
	}
}

fileprivate class ActionableNotificationViewController: UIViewController {
    var imageView = UIImageView()

    func schedule(_ sender: Any) {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.body = "Shared some photo"
        content.sound = UNNotificationSound.default

		content.categoryIdentifier = CategoryIdentifier.imagePosting

        guard let url = Bundle.main.url(forResource: "hello", withExtension: "png") else {
            return
        }

        guard let imageAttachment = try? UNNotificationAttachment(identifier: "logo-image", url: url, options: nil) else {
            return
        }

        content.attachments = [imageAttachment]

        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        let request = UNNotificationRequest(identifier: "Image Attachment", content: content, trigger: trigger)
		UNUserNotificationCenter.current().add(request, withCompletionHandler: nil)
    }

	func updateSelection() {
		switch UserDefaults.standard.string(forKey: "userSelection") {
		case .some(ActionIdentifier.like):
			imageView.image = UIImage(systemName: "hand.thumbsup")
		case .some(ActionIdentifier.dislike):
			imageView.image = UIImage(systemName: "hand.thumbsdown")
		default:
			imageView.image = UIImage(named: "dummyimage")
		}
	}


    override func viewDidLoad() {
        super.viewDidLoad()
    }

	override func viewWillAppear(_ animated: Bool) {
		super.viewWillAppear(animated)
		updateSelection()
	}

}

extension SeedTests {
    @Suite("Seed 000: actionable notifications")
    struct ActionableNotification {
        /// Launches the app and schedules the photo notification, as the seed's app does.
        fileprivate func launchAndSchedule(_ h: Harness) async throws -> (AppDelegate, ActionableNotificationViewController) {
            SeedConsole.clear()
            Bundle.image.value = try Fixtures.png()
            let appDelegate = AppDelegate()
            let viewController = ActionableNotificationViewController()
            UNUserNotificationCenter.withCurrent(h.center) {
                _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
            }
            #expect(await SeedConsole.nextLine() == "granted true")
            UNUserNotificationCenter.withCurrent(h.center) {
                viewController.schedule(self)
            }
            await h.settle()  // `add` without a completion handler: wait until it took effect
            return (appDelegate, viewController)
        }

        @Test func launchingAsksForAlertsBadgesAndSoundsAndRegistersTheCategory() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndSchedule(h)
            #expect(h.user.authorizationPrompts.map(\.options) == [[.alert, .badge, .sound]])
            #expect(h.center.delegate === appDelegate)
            let categories = await h.center.notificationCategories()
            let category = try #require(categories.first)
            #expect(categories.count == 1)
            #expect(category.identifier == "CATEGORY_IMAGE_POSTING")
            #expect(category.actions.map(\.identifier) == ["ACTION_LIKE", "ACTION_DISLIKE", "ACTION_UNFOLLOW", "ACTION_SETTING"])
            #expect(category.actions[2].options == [.authenticationRequired, .destructive])
            #expect(category.options == [.customDismissAction, .hiddenPreviewsShowTitle])
        }

        @Test func theImageNotificationFiresAfterFiveSecondsAsABannerWithTheCategorysButtons() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndSchedule(h)
            defer { withExtendedLifetime(appDelegate) {} }  // UIApplication keeps its delegate; the center holds it weakly
            let pending = await h.center.pendingNotificationRequests()
            let request = try #require(pending.first)
            #expect(request.identifier == "Image Attachment")
            #expect(request.content.attachments.map(\.identifier) == ["logo-image"])
            #expect(request.content.attachments.first?.type == "public.png")
            #expect((request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 5)

            await h.run(for: 5)
            let shown = await h.presenter.nextPresentation()
            #expect(shown.title == "Hello")
            #expect(shown.body == "Shared some photo")
            #expect(shown.destinations == .banner)  // willPresent chose .banner
            #expect(shown.actions.map(\.title) == ["Like", "Dislike", "Unfollow", "Setting"])
            #expect(shown.attachments.count == 1)
            // `.banner` without `.list`: shown, but not in Notification Center, so not delivered-listed.
            #expect(await h.center.deliveredNotifications().isEmpty)
        }

        @Test func eachResponseReachesTheDelegatesSwitchAndTheSelectionShowsInTheViewController() async throws {
            let h = Harness()
            let (appDelegate, viewController) = try await launchAndSchedule(h)
            defer { withExtendedLifetime(appDelegate) {} }
            await h.run(for: 5)
            _ = await h.presenter.nextPresentation()

            let like = try await h.user.tap("ACTION_LIKE", on: "Image Attachment", in: h.appCenter)
            #expect(like.launch == .background)  // the app is not brought forward
            #expect(SeedConsole.lines.last == "like")
            viewController.viewWillAppear(true)
            #expect(viewController.imageView.image == UIImage(systemName: "hand.thumbsup"))

            try await h.user.tap("ACTION_DISLIKE", on: "Image Attachment", in: h.appCenter)
            #expect(SeedConsole.lines.last == "dislike")
            viewController.viewWillAppear(true)
            #expect(viewController.imageView.image == UIImage(systemName: "hand.thumbsdown"))

            let open = try await h.user.open("Image Attachment", in: h.appCenter)
            #expect(open.launch == .foreground)
            #expect(SeedConsole.lines.last == "Default Action")

            let setting = try await h.user.tap("ACTION_SETTING", on: "Image Attachment", in: h.appCenter)
            #expect(setting.launch == .foreground)
            #expect(SeedConsole.lines.last == "Something else")

            // Dismissing reaches the app (custom dismiss) and clears the notification from the list.
            try await h.user.dismiss("Image Attachment", in: h.appCenter)
            #expect(SeedConsole.lines.last == "Custom Dismiss")
            #expect(await h.center.deliveredNotifications().isEmpty)
        }

        @Test func unfollowRunsOnlyOnAnUnlockedSession() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndSchedule(h)
            defer { withExtendedLifetime(appDelegate) {} }  // UIApplication keeps its delegate; the center holds it weakly
            await h.run(for: 5)
            _ = await h.presenter.nextPresentation()
            await h.engine.updateEnvironment(UserEnvironment(isLocked: true))
            await #expect {
                try await h.user.tap("ACTION_UNFOLLOW", on: "Image Attachment", in: h.appCenter)
            } throws: { ($0 as? ChimeError)?.code == .sessionLocked }
            #expect(SeedConsole.lines == ["granted true"])

            await h.engine.updateEnvironment(UserEnvironment(isLocked: false))
            try await h.user.tap("ACTION_UNFOLLOW", on: "Image Attachment", in: h.appCenter)
            #expect(SeedConsole.lines.last == "Something else")
        }

        @Test func withPreviewsHiddenTheBannerStillShowsTheTitle() async throws {
            let h = Harness()
            let (appDelegate, _) = try await launchAndSchedule(h)
            defer { withExtendedLifetime(appDelegate) {} }  // UIApplication keeps its delegate; the center holds it weakly
            var settings = NotificationSettings.granted([.alert, .badge, .sound])
            settings.showPreviewsSetting = .never
            try await h.appCenter.updateSettings(settings)
            await h.run(for: 5)
            let shown = await h.presenter.nextPresentation()
            #expect(shown.previewsHidden)
            #expect(shown.title == "Hello")  // .hiddenPreviewsShowTitle
            #expect(shown.body != "Shared some photo")
        }

        @Test func aDeniedUserGetsNoCategoryAndNoDelegate() async throws {
            SeedConsole.clear()
            let h = Harness(answersAuthorization: false)
            let appDelegate = AppDelegate()
            UNUserNotificationCenter.withCurrent(h.center) {
                _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
            }
            #expect(await SeedConsole.nextLine() == "granted false")
            #expect(h.center.delegate == nil)
            #expect(await h.center.notificationCategories().isEmpty)
        }
    }
}
