import ChimeCore

/// The texts of one presentation: the show-previews rule applied, localized texts resolved in the user's
/// languages, the group summary formatted.
struct PresentedText {
    let title: String
    let subtitle: String
    let body: String
    let summary: String
    let previewsHidden: Bool
    /// Resolves app text in the user's languages (action titles too).
    let resolve: (LocalizableText) -> String

    /// Show previews: `.always` shows the text; `.whenAuthenticated` hides it while the session is
    /// locked; `.never` hides it. Hidden, the title stays only with the category's
    /// `hiddenPreviewsShowTitle`, the subtitle only with `hiddenPreviewsShowSubtitle`, and the body is the
    /// category's `hiddenPreviewsBodyPlaceholder`, else the policy's (iOS: "Notification"); a placeholder's
    /// `%u` is the thread's count (`"%u new photos"`).
    ///
    /// Group summary: the category's `categorySummaryFormat`, else the policy's default; `%u` (or `%d`) is
    /// the thread's count and `%@` the content's `summaryArgument`. As on iOS the arguments come in that
    /// order, so a translation that puts the name first numbers them: `"%2$@님의 사진 %1$u장"`. While
    /// previews are hidden the summary argument (typically a person's name) is preview text too: the
    /// summary is then the policy's default without it ("3 more notifications").
    init(context: PresentationContext, category: NotificationCategory?, policy: PresentationPolicy) {
        let content = context.notification.request.content
        let languages = context.environment.preferredLanguages
        let localizer = context.localizer
        let resolve = { (text: LocalizableText) in localizer.resolve(text, preferredLanguages: languages) }
        let count = String(context.threadCount)
        let hidden = !context.app.settings.showPreviewsSetting.showsPreviews(sessionUnlocked: !context.environment.isLocked)
        let options = category?.options ?? []

        self.previewsHidden = hidden
        self.resolve = resolve
        self.title = hidden && !options.contains(.hiddenPreviewsShowTitle) ? "" : resolve(content.title)
        self.subtitle = hidden && !options.contains(.hiddenPreviewsShowSubtitle) ? "" : resolve(content.subtitle)
        if hidden {
            let placeholder = category?.hiddenPreviewsBodyPlaceholder ?? .literal(policy.hiddenPreviewsBodyPlaceholder)
            self.body = Self.format(placeholder, arguments: [count], resolve: resolve)
        } else {
            self.body = resolve(content.body)
        }

        let argument = hidden ? "" : content.summaryArgument
        let defaultFormat = argument.isEmpty ? policy.summaryFormat : policy.summaryFormatWithArgument
        let summaryFormat = (hidden ? nil : category?.categorySummaryFormat) ?? .literal(defaultFormat)
        self.summary = Self.format(summaryFormat, arguments: [count, argument], resolve: resolve)
    }

    /// A format filled with `arguments`: a localized one is looked up in the user's languages, its own
    /// arguments following `arguments`; a literal one is used as it is.
    private static func format(_ format: LocalizableText, arguments: [String], resolve: (LocalizableText) -> String) -> String {
        switch format {
        case .localized(let key, let own):
            resolve(.localized(key: key, arguments: arguments + own))
        case .literal(let format):
            // A localizer without tables resolves a key to itself and fills in the arguments: Core's
            // format rules (positions, `%%`, nothing crashes on a mismatch) for a literal format too.
            Self.formatter.resolve(.localized(key: format, arguments: arguments), preferredLanguages: [])
        }
    }

    private static let formatter = NotificationLocalizer(tables: [:])
}
