import ChimeCore
import ChimeEngine
import Foundation
import Testing

@Suite("Presentation policy: show previews")
struct PresentationPreviewTests {
    typealias F = PresentationFixtures

    func photoContent(category: String = "PHOTO") throws -> NotificationContent {
        var content = F.content(category: category)
        content.attachments = [try F.photo()]
        return content
    }

    func category(
        options: NotificationCategoryOptions = [], placeholder: LocalizableText? = nil
    ) throws -> NotificationCategory {
        try NotificationCategory(identifier: "PHOTO", actions: [], hiddenPreviewsBodyPlaceholder: placeholder, options: options)
    }

    static let previewCases: [(setting: ShowPreviewsSetting, locked: Bool, hidden: Bool)] = [
        (.always, false, false),
        (.always, true, false),
        (.whenAuthenticated, false, false),
        (.whenAuthenticated, true, true),
        (.never, false, true),
        (.never, true, true),
    ]

    @Test(arguments: previewCases)
    func theShowPreviewsSettingAndTheLockDecideWhetherTextIsHidden(setting: ShowPreviewsSetting, locked: Bool, hidden: Bool) throws {
        let presentation = try F.present(
            photoContent(), settings: F.allowed { $0.showPreviewsSetting = setting },
            categories: [category()], environment: UserEnvironment(isLocked: locked))
        #expect(presentation.previewsHidden == hidden)
        #expect(presentation.title == (hidden ? "" : "New Photo"))
        #expect(presentation.subtitle == (hidden ? "" : "Album: Trip"))
        #expect(presentation.body == (hidden ? "Notification" : "Jane Doe posted a new photo"))
        #expect(presentation.attachments == (hidden ? [] : [try F.photo()]))
    }

    static let hiddenOptionCases: [(options: NotificationCategoryOptions, title: String, subtitle: String)] = [
        ([], "", ""),
        ([.hiddenPreviewsShowTitle], "New Photo", ""),
        ([.hiddenPreviewsShowSubtitle], "", "Album: Trip"),
        ([.hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle], "New Photo", "Album: Trip"),
    ]

    @Test(arguments: hiddenOptionCases)
    func hiddenPreviewsKeepOnlyWhatTheCategoryAsks(options: NotificationCategoryOptions, title: String, subtitle: String) throws {
        let presentation = try F.present(
            photoContent(), settings: F.allowed { $0.showPreviewsSetting = .never }, categories: [category(options: options)])
        #expect(presentation.title == title)
        #expect(presentation.subtitle == subtitle)
        #expect(presentation.body == "Notification")
        #expect(presentation.attachments.isEmpty)
    }

    @Test func theCategorysPlaceholderReplacesTheBodyWithTheThreadsCount() throws {
        let presentation = try F.present(
            photoContent(), settings: F.allowed { $0.showPreviewsSetting = .never },
            categories: [category(placeholder: "%u new photos")], threadCount: 3)
        #expect(presentation.body == "3 new photos")
    }

    @Test func aLocalizedPlaceholderIsResolvedInTheUsersLanguage() throws {
        let localizer = NotificationLocalizer(tables: [
            "en": try StringsTable(parsing: #""PHOTOS_HIDDEN" = "%u new photos";"#),
            "ko": try StringsTable(parsing: #""PHOTOS_HIDDEN" = "새 사진 %u장";"#),
        ])
        let presentation = try F.present(
            photoContent(), settings: F.allowed { $0.showPreviewsSetting = .never },
            categories: [category(placeholder: .localized(key: "PHOTOS_HIDDEN"))],
            environment: UserEnvironment(preferredLanguages: ["ko-KR"]), threadCount: 2, localizer: localizer)
        #expect(presentation.body == "새 사진 2장")
    }

    @Test func anUnregisteredCategoryHidesEverythingBehindTheDefaultPlaceholder() throws {
        let presentation = try F.present(
            photoContent(category: "NOT_REGISTERED"), settings: F.allowed { $0.showPreviewsSetting = .never },
            categories: [category(options: [.hiddenPreviewsShowTitle], placeholder: "%u new photos")])
        #expect(presentation.title == "")
        #expect(presentation.body == "Notification")
    }

    @Test func anEngineCanLocalizeTheDefaultPlaceholder() throws {
        let context = PresentationContext(
            notification: try F.delivered(photoContent()), app: F.app(F.allowed { $0.showPreviewsSetting = .never }))
        let presentation = PresentationPolicy(hiddenPreviewsBodyPlaceholder: "알림").presentation(for: context)
        #expect(presentation.body == "알림")
    }

    @Test func hidingPreviewsChangesTheTextNotWhereOrHowItIsPresented() throws {
        let shown = try F.present(photoContent(), categories: [category()])
        let hidden = try F.present(photoContent(), settings: F.allowed { $0.showPreviewsSetting = .never }, categories: [category()])
        #expect(hidden.destinations == shown.destinations)
        #expect(hidden.sound == shown.sound)
        #expect(hidden.badge == shown.badge)
    }
}
