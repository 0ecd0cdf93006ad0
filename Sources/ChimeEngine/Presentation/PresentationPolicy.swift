public import ChimeCore

/// Decides how one delivered notification is presented: where it appears, what it says, what it plays,
/// which badge and buttons it brings.
///
/// A pure function of its `PresentationContext`: no clock, no I/O, no global state, so the engine calls it
/// right after recording a delivery and tests call it with plain values. The rules, each documented
/// where it is applied below, in the order they apply:
///
/// 1. **Authorization.** `.notDetermined` and `.denied` show nothing, play nothing, leave the badge.
///    `.provisional` delivers quietly: to the list only, silent, no badge. `.authorized` and
///    `.ephemeral` follow the user's settings.
/// 2. **Interruption level**, after permissions: a critical sound makes a critical alert; a critical
///    alert without the critical-alert permission is time-sensitive; a time-sensitive one the user turned
///    off (`timeSensitiveSetting`) is active.
/// 3. **Focus.** Passive notifications, and active ones while a focus is on, go quietly to the list: no
///    banner, no lock screen, no sound. Time-sensitive ones break through a focus that allows them;
///    critical ones break through every focus and play even when the app's sound is off.
/// 4. **Settings.** `alertSetting` gates every visual destination; `alertStyle` the banner,
///    `notificationCenterSetting` the list, `lockScreenSetting` the lock screen, `soundSetting` the sound,
///    `badgeSetting` the badge.
/// 5. **Foreground app.** Its `willPresent` answer picks among what the rules above allow; it can take
///    away, never add.
/// 6. **Show previews.** Hidden previews replace the body with a placeholder and drop the title,
///    subtitle and attachments, unless the category keeps the title or subtitle.
/// 7. **Grouping.** The stack the user's grouping setting puts it in (its thread, the app's, or none),
///    the stack's size and the summary line.
///
/// ```swift
/// let policy = PresentationPolicy()
/// let presentation = policy.presentation(for: PresentationContext(notification: delivered, app: record))
/// presentation.destinations  // [.banner, .list, .lockScreen] for an app allowed [.alert, .sound, .badge]
/// presentation.sound         // .default when the content asked for .default
/// ```
///
/// The policy's own texts (placeholder, default summaries) are English, as iOS's are in an English
/// session; an engine that localizes them passes its translations to `init`.
public struct PresentationPolicy: Sendable, Hashable {
    /// The body shown while previews are hidden, when the category has no `hiddenPreviewsBodyPlaceholder`.
    /// A format: `%u` is the thread's count.
    public var hiddenPreviewsBodyPlaceholder: String
    /// The group summary when the category has no `categorySummaryFormat` and the content no summary
    /// argument: `%u` is the thread's count.
    public var summaryFormat: String
    /// The group summary when the category has no `categorySummaryFormat` and the content has a summary
    /// argument: `%u` is the thread's count, `%@` the argument.
    public var summaryFormatWithArgument: String

    /// The defaults are iOS's English texts.
    public init(
        hiddenPreviewsBodyPlaceholder: String = "Notification",
        summaryFormat: String = "%u more notifications",
        summaryFormatWithArgument: String = "%u more notifications from %@"
    ) {
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.summaryFormat = summaryFormat
        self.summaryFormatWithArgument = summaryFormatWithArgument
    }

    /// How the notification of `context` is presented.
    public func presentation(for context: PresentationContext) -> Presentation {
        let delivered = context.notification
        let content = delivered.request.content
        let settings = context.app.settings
        let category = context.category
        let level = Self.interruptionLevel(of: content, settings: settings)
        let alerting = Self.alerting(level: level, status: settings.authorizationStatus, focus: context.environment.focus)
        let text = PresentedText(context: context, category: category, policy: self)

        let destinations = Self.destinations(settings: settings, alerting: alerting, foreground: context.foregroundOptions)
        return Presentation(
            appIdentifier: context.app.appIdentifier,
            notificationIdentifier: delivered.identifier,
            date: delivered.date,
            destinations: destinations,
            bannerIsPersistent: destinations.contains(.banner) && settings.alertStyle == .alert,
            title: text.title,
            subtitle: text.subtitle,
            body: text.body,
            previewsHidden: text.previewsHidden,
            attachments: text.previewsHidden ? [] : content.attachments,
            sound: Self.sound(content.sound, level: level, settings: settings, alerting: alerting, foreground: context.foregroundOptions),
            badge: Self.badge(content.badge, settings: settings, foreground: context.foregroundOptions),
            categoryIdentifier: content.categoryIdentifier,
            actions: delivered.actions(in: category).map { PresentationAction($0, resolve: text.resolve) },
            wantsDismissResponse: category?.options.contains(.customDismissAction) ?? false,
            interruptionLevel: level,
            brokeThroughFocus: alerting == .breakingThroughFocus,
            group: Self.group(content, grouping: settings.groupingSetting, count: context.threadCount, summary: text.summary),
            isLate: delivered.isLate,
            scheduledDate: delivered.scheduledDate)
    }

    // MARK: - Grouping

    /// The stack the notification joins, by the user's grouping setting: its thread (automatic), the
    /// app's one stack (by app, thread `""`), or none (off: it stands alone, a group of one).
    static func group(_ content: NotificationContent, grouping: NotificationGrouping, count: Int, summary: String) -> PresentationGroup {
        guard let key = grouping.groupKey(threadIdentifier: content.threadIdentifier) else {
            return PresentationGroup(threadIdentifier: content.threadIdentifier, count: 1, summary: summary, standsAlone: true)
        }
        return PresentationGroup(threadIdentifier: key, count: count, summary: summary)
    }

    // MARK: - Interruption level and focus

    /// The level in effect once the user's permissions are applied.
    ///
    /// - A critical sound asks for a critical alert, whatever the level says: before iOS 15 introduced
    ///   levels, the sound was the only way to ask (the seeds' low-glucose alert sets only
    ///   `.criticalSoundNamed`).
    /// - Critical needs `criticalAlertSetting` enabled; without it the notification is treated as
    ///   time-sensitive, and its critical sound plays as an ordinary one.
    /// - Time-sensitive needs `timeSensitiveSetting` enabled; without it the notification is active.
    public static func interruptionLevel(of content: NotificationContent, settings: NotificationSettings) -> InterruptionLevel {
        var level = content.interruptionLevel
        if content.sound?.isCritical == true {
            level = .critical
        }
        if level == .critical && settings.criticalAlertSetting != .enabled {
            level = .timeSensitive
        }
        if level == .timeSensitive && settings.timeSensitiveSetting != .enabled {
            level = .active
        }
        return level
    }

    /// How far a notification may interrupt, before the user's per-destination settings.
    public enum Alerting: Sendable, Equatable {
        /// Not allowed at all: nothing shown, silent, badge unchanged.
        case nothing
        /// To the list only, silent: provisional, passive, or held back by a focus.
        case quietly
        /// Banner, lock screen and sound as the settings allow; no focus is on.
        case normally
        /// As `.normally`, while a focus is on that let it through.
        case breakingThroughFocus
    }

    /// Authorization first, then level against focus.
    ///
    /// - `.notDetermined` / `.denied`: nothing. (Adding requests then fails, but the user can revoke
    ///   permission while requests are pending.)
    /// - `.provisional`: quietly, whatever the level — the user has not yet said this app may interrupt,
    ///   so not even a critical alert does.
    /// - `.passive`: quietly; it never lights the screen or makes a sound.
    /// - `.active` while a focus is on: quietly (the focus silences it into the list).
    /// - `.timeSensitive` while a focus is on: breaks through when the focus allows time-sensitive
    ///   notifications, else quietly like an active one.
    /// - `.critical` (permitted, see `interruptionLevel(of:settings:)`): breaks through every focus.
    public static func alerting(level: InterruptionLevel, status: AuthorizationStatus, focus: UserEnvironment.Focus) -> Alerting {
        switch status {
        case .notDetermined, .denied: return .nothing
        case .provisional: return .quietly
        case .authorized, .ephemeral: break
        }
        switch (level, focus) {
        case (.passive, _): return .quietly
        case (_, .off): return .normally
        case (.active, .on): return .quietly
        case (.timeSensitive, .on(let allowsTimeSensitive)): return allowsTimeSensitive ? .breakingThroughFocus : .quietly
        case (.critical, .on): return .breakingThroughFocus
        }
    }

    // MARK: - Destinations, sound, badge

    /// Where the notification appears.
    ///
    /// - Provisional (delivered quietly): the list if `notificationCenterSetting` is enabled. The
    ///   provisional settings have `alertSetting` disabled — no alerts yet — so it is not consulted.
    /// - Otherwise nothing unless `alertSetting` is enabled; then the list per
    ///   `notificationCenterSetting`, and, unless the notification goes quietly, the banner when
    ///   `alertStyle` is not `.none` and the lock screen per `lockScreenSetting`.
    /// - A foreground app's choice then keeps the banner only for `.banner` (or the deprecated `.alert`)
    ///   and the list only for `.list` (or `.alert`). The lock screen is never offered: the app is in
    ///   front of a user at an unlocked screen, and presentation options have no lock-screen choice.
    static func destinations(settings: NotificationSettings, alerting: Alerting, foreground: PresentationOptions?) -> PresentationDestinations {
        var destinations: PresentationDestinations = []
        switch alerting {
        case .nothing:
            return []
        case .quietly where settings.authorizationStatus == .provisional:
            if settings.notificationCenterSetting == .enabled { destinations.insert(.list) }
        case .quietly, .normally, .breakingThroughFocus:
            guard settings.alertSetting == .enabled else { return [] }
            if settings.notificationCenterSetting == .enabled { destinations.insert(.list) }
            if alerting != .quietly {
                if settings.alertStyle != .none { destinations.insert(.banner) }
                if settings.lockScreenSetting == .enabled { destinations.insert(.lockScreen) }
            }
        }
        if let foreground {
            var chosen: PresentationDestinations = []
            if foreground.showsBanner { chosen.insert(.banner) }
            if foreground.showsInList { chosen.insert(.list) }
            destinations.formIntersection(chosen)
        }
        return destinations
    }

    /// What to play.
    ///
    /// - Nothing while the notification goes quietly (or not at all).
    /// - A permitted critical alert plays even when `soundSetting` is off, at its own volume: the content's
    ///   critical sound; an ordinary sound file of the content played as a critical one at full volume;
    ///   else (the system sound, or no sound at all) the system's critical sound at full volume. A critical
    ///   alert is never silent.
    /// - Otherwise the content's sound when `soundSetting` is enabled. A critical sound whose permission is
    ///   missing plays as the ordinary sound of the same file (`defaultCritical` as `default`).
    /// - A foreground app's choice keeps the sound only for `.sound`, critical alerts included.
    static func sound(
        _ sound: NotificationSound?, level: InterruptionLevel, settings: NotificationSettings, alerting: Alerting,
        foreground: PresentationOptions?
    ) -> PresentationSound? {
        guard alerting == .normally || alerting == .breakingThroughFocus else { return nil }
        if let foreground, !foreground.contains(.sound) { return nil }
        if level == .critical {
            return switch sound?.kind {
            case .criticalNamed(let name, let volume): .critical(named: name, volume: volume)
            case .defaultCritical(let volume): .critical(named: nil, volume: volume)
            case .named(let name), .ringtone(let name): .critical(named: name, volume: 1)
            case .default, .defaultRingtone, nil: .critical(named: nil, volume: 1)
            }
        }
        guard settings.soundSetting == .enabled, let sound else { return nil }
        return switch sound.kind {
        case .default, .defaultCritical: .default
        case .defaultRingtone: .defaultRingtone
        case .named(let name), .criticalNamed(let name, _): .named(name)
        case .ringtone(let name): .ringtone(name)
        }
    }

    /// The badge to set.
    ///
    /// - The content's badge (`nil` leaves the badge as it is), only when the app is authorized
    ///   (`.authorized` or `.ephemeral`; provisional delivery sets no badge) and `badgeSetting` is enabled.
    /// - Neither the level nor a focus holds a badge back: a badge counts what is waiting, however quietly
    ///   it arrived.
    /// - A foreground app's choice keeps the badge only for `.badge`.
    static func badge(_ badge: Int?, settings: NotificationSettings, foreground: PresentationOptions?) -> Int? {
        guard settings.authorizationStatus == .authorized || settings.authorizationStatus == .ephemeral else { return nil }
        guard settings.badgeSetting == .enabled else { return nil }
        if let foreground, !foreground.contains(.badge) { return nil }
        return badge
    }
}
