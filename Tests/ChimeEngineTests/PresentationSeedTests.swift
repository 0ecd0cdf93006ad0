import ChimeCore
import ChimeEngine
import Foundation
import Testing

/// The seeds' notifications, presented as iOS presents them.
@Suite("Presentation policy: the seeds' notifications")
struct PresentationSeedTests {
    typealias F = PresentationFixtures

    // MARK: - Critical alerts: the low-glucose alert

    /// `content.sound = .criticalSoundNamed(.init("warning-sound"), withAudioVolume: 1.00)`; the seed sets
    /// no interruption level, only the critical sound.
    func lowGlucoseAlert() throws -> NotificationContent {
        var content = NotificationContent(title: "WARNING: LOW BLOOD SUGAR", body: "Glucose level at 57")
        content.categoryIdentifier = "low-glucose-alert"
        content.sound = try .criticalNamed("warning-sound", volume: 1.0)
        return content
    }

    let sleeping = UserEnvironment(focus: .on(allowsTimeSensitive: false), isLocked: true)

    @Test func theLowGlucoseAlertBreaksThroughAFocusWhenCriticalAlertsArePermitted() throws {
        let presentation = try F.present(
            lowGlucoseAlert(), settings: .granted([.badge, .sound, .alert, .criticalAlert]), environment: sleeping)
        #expect(presentation.destinations == [.banner, .list, .lockScreen])
        #expect(presentation.sound == .critical(named: "warning-sound", volume: 1.0))
        #expect(presentation.interruptionLevel == .critical)
        #expect(presentation.brokeThroughFocus)
        #expect(presentation.title == "WARNING: LOW BLOOD SUGAR")
        #expect(presentation.body == "Glucose level at 57")
    }

    @Test func theLowGlucoseAlertPlaysEvenWithTheAppsSoundsTurnedOff() throws {
        let muted = NotificationSettings.granted([.badge, .sound, .alert, .criticalAlert]).with { $0.soundSetting = .disabled }
        let presentation = try F.present(lowGlucoseAlert(), settings: muted, environment: sleeping)
        #expect(presentation.sound == .critical(named: "warning-sound", volume: 1.0))
    }

    @Test func withoutThePermissionTheLowGlucoseAlertIsTimeSensitiveWithAnOrdinarySound() throws {
        let notPermitted = NotificationSettings.granted([.badge, .sound, .alert])
        let allowingFocus = UserEnvironment(focus: .on(allowsTimeSensitive: true), isLocked: true)
        let breaksThrough = try F.present(lowGlucoseAlert(), settings: notPermitted, environment: allowingFocus)
        #expect(breaksThrough.interruptionLevel == .timeSensitive)
        #expect(breaksThrough.brokeThroughFocus)
        #expect(breaksThrough.destinations == [.banner, .list, .lockScreen])
        #expect(breaksThrough.sound == .named("warning-sound"))

        let heldBack = try F.present(lowGlucoseAlert(), settings: notPermitted, environment: sleeping)
        #expect(heldBack.interruptionLevel == .timeSensitive)
        #expect(!heldBack.brokeThroughFocus)
        #expect(heldBack.destinations == [.list])
        #expect(heldBack.sound == nil)
    }

    // MARK: - Provisional authorization

    @Test func provisionalAuthorizationDeliversQuietlyToTheListOnly() throws {
        // `requestAuthorization(options: [.badge, .sound, .alert, .provisional])`, before the user decides.
        var content = NotificationContent(title: "New Photo", body: "Jane Doe posted a new photo", badge: 1, sound: .default)
        content.threadIdentifier = "thread-identifier"
        let presentation = try F.present(content, settings: .granted([.badge, .sound, .alert, .provisional]))
        #expect(presentation.destinations == [.list])
        #expect(presentation.sound == nil)
        #expect(presentation.badge == nil)
        #expect(!presentation.bannerIsPersistent)
        #expect(presentation.body == "Jane Doe posted a new photo")
    }

    // MARK: - Grouped notifications

    /// `content.threadIdentifier = "thread-identifier"`, the third photo in the thread.
    func newPhoto() -> NotificationContent {
        var content = NotificationContent(title: "New Photo", body: "Jane Doe Posted a new Photo", sound: .default)
        content.threadIdentifier = "thread-identifier"
        content.categoryIdentifier = "new-photo"
        content.summaryArgument = "Jane Doe"
        return content
    }

    @Test func aGroupedPhotoThreadCountsItsNotificationsAndSummarizesThem() throws {
        let category = try NotificationCategory(identifier: "new-photo", actions: [], categorySummaryFormat: "%u more photos from %@")
        let presentation = try F.present(
            newPhoto(), settings: .granted([.alert, .sound, .badge]), categories: [category], threadCount: 3)
        #expect(presentation.group == PresentationGroup(threadIdentifier: "thread-identifier", count: 3, summary: "3 more photos from Jane Doe"))
        #expect(presentation.categoryIdentifier == "new-photo")
    }

    @Test func aGroupedPhotoThreadWithoutASummaryFormatGetsTheDefault() throws {
        let presentation = try F.present(newPhoto(), settings: .granted([.alert, .sound, .badge]), threadCount: 3)
        #expect(presentation.group.summary == "3 more notifications from Jane Doe")
    }

    // MARK: - Actionable notifications: the image-posting category

    func imagePostingCategory() throws -> NotificationCategory {
        let like = try NotificationAction(identifier: "ACTION_LIKE", title: "Like")
        let dislike = try NotificationAction(identifier: "ACTION_DISLIKE", title: "Dislike")
        let unfollow = try NotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow", options: [.authenticationRequired, .destructive])
        let setting = try NotificationAction(identifier: "ACTION_SETTING", title: "Setting", options: [.foreground])
        return try NotificationCategory(
            identifier: "CATEGORY_IMAGE_POSTING", actions: [like, dislike, unfollow, setting],
            options: [.customDismissAction, .hiddenPreviewsShowTitle])
    }

    func imagePost() -> NotificationContent {
        var content = NotificationContent(title: "New Photo", subtitle: "From Jane", body: "Jane Doe posted a new photo", sound: .default)
        content.categoryIdentifier = "CATEGORY_IMAGE_POSTING"
        return content
    }

    let whenUnlocked = NotificationSettings.granted([.alert, .badge, .sound]).with { $0.showPreviewsSetting = .whenAuthenticated }

    @Test func theImagePostingCategoryShowsOnlyItsTitleOnALockedScreen() throws {
        let presentation = try F.present(
            imagePost(), settings: whenUnlocked, categories: [imagePostingCategory()], environment: UserEnvironment(isLocked: true))
        #expect(presentation.previewsHidden)
        #expect(presentation.title == "New Photo")
        #expect(presentation.subtitle == "")
        #expect(presentation.body == "Notification")
        #expect(presentation.destinations == [.banner, .list, .lockScreen])
        #expect(presentation.actions.map(\.identifier) == ["ACTION_LIKE", "ACTION_DISLIKE", "ACTION_UNFOLLOW", "ACTION_SETTING"])
        #expect(presentation.actions[2].requiresUnlock && presentation.actions[2].isDestructive)
        #expect(presentation.actions[3].launchesApp)
        #expect(presentation.wantsDismissResponse)
    }

    @Test func theImagePostingCategoryShowsEverythingOnceUnlocked() throws {
        let presentation = try F.present(imagePost(), settings: whenUnlocked, categories: [imagePostingCategory()])
        #expect(!presentation.previewsHidden)
        #expect(presentation.title == "New Photo")
        #expect(presentation.subtitle == "From Jane")
        #expect(presentation.body == "Jane Doe posted a new photo")
    }

    @Test func theImagePostingAppInTheForegroundAsksForABannerOnly() throws {
        // `completionHandler([UNNotificationPresentationOptions.banner])`
        let presentation = try F.present(
            imagePost(), settings: whenUnlocked, categories: [imagePostingCategory()], foreground: [.banner])
        #expect(presentation.destinations == [.banner])
        #expect(presentation.sound == nil)
        #expect(presentation.actions.count == 4)
    }
}
