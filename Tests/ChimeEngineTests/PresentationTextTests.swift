import ChimeCore
import ChimeEngine
import Foundation
import Testing

@Suite("Presentation policy: localized text, actions and groups")
struct PresentationTextTests {
    typealias F = PresentationFixtures

    let localizer: NotificationLocalizer

    init() throws {
        localizer = NotificationLocalizer(tables: [
            "en": try StringsTable(parsing: #"""
                "PHOTO_TITLE" = "New Photo";
                "PHOTO_BODY" = "%@ posted a new photo";
                "LIKE" = "Like";
                "COMMENT" = "Comment";
                "SEND" = "Send";
                "SAY_SOMETHING" = "Say something";
                "MORE_PHOTOS" = "%u more photos from %@";
                """#),
            "ko": try StringsTable(parsing: #"""
                "PHOTO_TITLE" = "새 사진";
                "PHOTO_BODY" = "%@님이 새 사진을 올렸습니다";
                "LIKE" = "좋아요";
                "MORE_PHOTOS" = "%2$@님의 사진 %1$u장 더 보기";
                """#),
        ])
    }

    @Test func resolvesLocalizedTextInTheUsersLanguagesAtPresentation() throws {
        var content = F.content()
        content.title = .localized(key: "PHOTO_TITLE")
        content.body = .localized(key: "PHOTO_BODY", arguments: ["Jane Doe"])
        let korean = try F.present(content, environment: UserEnvironment(preferredLanguages: ["ko-KR", "en"]), localizer: localizer)
        #expect(korean.title == "새 사진")
        #expect(korean.body == "Jane Doe님이 새 사진을 올렸습니다")
        let french = try F.present(content, environment: UserEnvironment(preferredLanguages: ["fr"]), localizer: localizer)
        #expect(french.title == "New Photo")  // the development language
        #expect(french.subtitle == "Album: Trip")  // a literal stays as it is
    }

    func imagePosting(options: NotificationCategoryOptions = []) throws -> NotificationCategory {
        let like = try NotificationAction(identifier: "ACTION_LIKE", title: .localized(key: "LIKE"))
        let comment = try NotificationAction.textInput(
            identifier: "ACTION_COMMENT", title: .localized(key: "COMMENT"), icon: NotificationActionIcon(systemImageName: "text.bubble"),
            buttonTitle: .localized(key: "SEND"), placeholder: .localized(key: "SAY_SOMETHING"))
        let unfollow = try NotificationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow", options: [.authenticationRequired, .destructive])
        let setting = try NotificationAction(identifier: "ACTION_SETTING", title: "Setting", options: [.foreground])
        return try NotificationCategory(identifier: "CATEGORY_IMAGE_POSTING", actions: [like, comment, unfollow, setting], options: options)
    }

    @Test func offersTheCategorysActionsWithResolvedTitlesAndTheirBehaviour() throws {
        let presentation = try F.present(
            F.content(category: "CATEGORY_IMAGE_POSTING"), categories: [imagePosting()],
            environment: UserEnvironment(preferredLanguages: ["ko"]), localizer: localizer)
        #expect(presentation.actions == [
            PresentationAction(identifier: "ACTION_LIKE", title: "좋아요"),
            PresentationAction(
                identifier: "ACTION_COMMENT", title: "Comment", icon: try NotificationActionIcon(systemImageName: "text.bubble"),
                textInput: PresentationAction.TextInput(buttonTitle: "Send", placeholder: "Say something")),
            PresentationAction(identifier: "ACTION_UNFOLLOW", title: "Unfollow", isDestructive: true, requiresUnlock: true),
            PresentationAction(identifier: "ACTION_SETTING", title: "Setting", launchesApp: true),
        ])
        #expect(!presentation.wantsDismissResponse)
    }

    @Test func aCategoryWithCustomDismissActionWantsTheDismissResponse() throws {
        let presentation = try F.present(
            F.content(category: "CATEGORY_IMAGE_POSTING"), categories: [imagePosting(options: [.customDismissAction])])
        #expect(presentation.wantsDismissResponse)
    }

    @Test func theNotificationsOwnActionsReplaceTheCategorys() throws {
        // The seeds' content extension: after "like", offer "unlike" and no more.
        let unlike = try NotificationAction(identifier: "unlike-action", title: "Unlike")
        let delivered = try F.delivered(F.content(category: "CATEGORY_IMAGE_POSTING")).replacingActions([unlike])
        let context = PresentationContext(notification: delivered, app: F.app(categories: [try imagePosting(options: [.customDismissAction])]))
        let presentation = PresentationPolicy().presentation(for: context)
        #expect(presentation.actions == [PresentationAction(identifier: "unlike-action", title: "Unlike")])
        #expect(presentation.wantsDismissResponse)  // still the category's option
    }

    @Test func withoutARegisteredCategoryThereAreNoActions() throws {
        let none = try F.present(F.content(), categories: [imagePosting()])
        let unregistered = try F.present(F.content(category: "UNKNOWN"), categories: [imagePosting(options: [.customDismissAction])])
        #expect(none.actions.isEmpty && unregistered.actions.isEmpty)
        #expect(!none.wantsDismissResponse && !unregistered.wantsDismissResponse)
    }

    // MARK: - Groups

    func summaryCategory(_ format: LocalizableText?) throws -> NotificationCategory {
        try NotificationCategory(identifier: "PHOTO", actions: [], categorySummaryFormat: format)
    }

    func groupOf(
        _ count: Int, argument: String = "", format: LocalizableText? = nil, settings: NotificationSettings = F.allowed,
        languages: [String] = []
    ) throws -> PresentationGroup {
        var content = F.content(category: "PHOTO", thread: "photos-jane")
        content.summaryArgument = argument
        return try F.present(
            content, settings: settings, categories: [summaryCategory(format)],
            environment: UserEnvironment(preferredLanguages: languages), threadCount: count, localizer: localizer
        ).group
    }

    @Test func aNotificationWithoutAThreadIsInTheAppsGroup() throws {
        let group = try F.present(F.content()).group
        #expect(group == PresentationGroup(threadIdentifier: "", count: 1, summary: "1 more notifications"))
    }

    @Test func theDefaultSummaryCountsTheThreadAndNamesTheSummaryArgument() throws {
        #expect(try groupOf(3) == PresentationGroup(threadIdentifier: "photos-jane", count: 3, summary: "3 more notifications"))
        #expect(try groupOf(3, argument: "Jane Doe").summary == "3 more notifications from Jane Doe")
    }

    @Test func theCategorysSummaryFormatTakesTheCountAndTheSummaryArgument() throws {
        #expect(try groupOf(3, argument: "Jane Doe", format: "%u more photos from %@").summary == "3 more photos from Jane Doe")
        #expect(try groupOf(4, format: "%d photos").summary == "4 photos")
    }

    @Test func aLocalizedSummaryFormatMayReorderItsArgumentsByPosition() throws {
        let format = LocalizableText.localized(key: "MORE_PHOTOS")
        #expect(try groupOf(3, argument: "Jane Doe", format: format, languages: ["ko"]).summary == "Jane Doe님의 사진 3장 더 보기")
        #expect(try groupOf(3, argument: "Jane Doe", format: format, languages: ["en"]).summary == "3 more photos from Jane Doe")
    }

    @Test func aSummaryFormatsOwnArgumentsFollowTheCountAndTheSummaryArgument() throws {
        let format = LocalizableText.localized(key: "%u photos from %@ in %@", arguments: ["Trip"])
        #expect(try groupOf(2, argument: "Jane", format: format).summary == "2 photos from Jane in Trip")
    }

    @Test func aMalformedSummaryFormatNeverCrashes() throws {
        #expect(try groupOf(3, format: "100%% of %u from %@ and %@ %q").summary == "100% of 3 from  and  %q")
    }

    @Test func hiddenPreviewsWithholdTheSummaryArgument() throws {
        let hidden = F.allowed { $0.showPreviewsSetting = .never }
        #expect(try groupOf(3, argument: "Jane Doe", format: "%u more photos from %@", settings: hidden).summary == "3 more notifications")
    }

    @Test func anEngineCanLocalizeTheDefaultSummaries() throws {
        var content = F.content(thread: "photos-jane")
        content.summaryArgument = "Jane"
        let context = PresentationContext(notification: try F.delivered(content), app: F.app(), threadCount: 2)
        let policy = PresentationPolicy(summaryFormat: "알림 %u개 더 보기", summaryFormatWithArgument: "%2$@님의 알림 %1$u개 더 보기")
        #expect(policy.presentation(for: context).group.summary == "Jane님의 알림 2개 더 보기")
    }
}
