public import ChimeCore
public import Foundation

/// How one delivered notification is presented: everything a presenter (desktop, terminal, web page)
/// needs to show it, and nothing it would have to decide itself.
///
/// `PresentationPolicy` makes it from a `PresentationContext`; every user setting, the interruption level,
/// the focus, the show-previews rule and the foreground app's choice are already applied. A presenter
/// shows `title`, `subtitle` and `body` as they are, at `destinations`, plays `sound`, sets `badge`, and
/// offers `actions`.
///
/// ```swift
/// let presentation = PresentationPolicy().presentation(for: context)
/// guard !presentation.destinations.isEmpty else { return }    // delivered, shown nowhere
/// bubble.show(summary: presentation.title, body: presentation.body,
///             actions: presentation.actions.map(\.title), persistent: presentation.bannerIsPersistent)
/// if let sound = presentation.sound { player.play(sound) }
/// ```
public struct Presentation: Sendable, Hashable {
    public var appIdentifier: String
    /// The delivered notification's identifier (its request's), which a response names.
    public var notificationIdentifier: String
    /// When the notification was delivered.
    public var date: Date

    /// Where the notification appears; empty for nowhere.
    public var destinations: PresentationDestinations
    /// Whether the banner stays until the user acts on it (`AlertStyle.alert`; freedesktop: no expiry)
    /// rather than going away by itself. `false` when there is no banner.
    public var bannerIsPersistent: Bool

    /// The title to show, resolved; empty for none (or hidden with the preview).
    public var title: String
    /// The subtitle to show, resolved; empty for none (or hidden with the preview).
    public var subtitle: String
    /// The body to show, resolved; the placeholder when previews are hidden.
    public var body: String
    /// Whether the show-previews setting hid the text: then `body` is a placeholder, `title` and
    /// `subtitle` are shown only if the category asks for it, and `attachments` is empty.
    public var previewsHidden: Bool
    /// The images, sounds and movies to show; empty while previews are hidden.
    public var attachments: [NotificationAttachment]

    /// What to play; `nil` for silence.
    public var sound: PresentationSound?
    /// The app's new badge number (0 removes it); `nil` leaves the badge as it is.
    public var badge: Int?

    /// The category the content names (`""` for none), for presenters that pass it on (the freedesktop
    /// `category` hint) or style by it; the actions are already resolved from it.
    public var categoryIdentifier: String
    /// The buttons to offer, in order: the notification's own override, else its category's.
    public var actions: [PresentationAction]
    /// Whether the app wants a response when the user explicitly dismisses the notification (the
    /// category's `customDismissAction`).
    public var wantsDismissResponse: Bool

    /// The level the notification was presented at, after the user's permissions: a critical alert
    /// without the critical-alert permission is `.timeSensitive`, a time-sensitive one the user turned off
    /// is `.active`. (A provisional app's notifications are delivered quietly whatever their level.)
    public var interruptionLevel: InterruptionLevel
    /// Whether a focus was on and the notification alerted anyway (a critical alert, or a time-sensitive
    /// one the focus allows).
    public var brokeThroughFocus: Bool

    /// The thread the notification is grouped in, with the group's summary line.
    public var group: PresentationGroup

    /// Whether the notification was delivered after its fire date because nothing was running then.
    public var isLate: Bool
    /// The fire date the trigger asked for (for a late notification, the last one missed); `nil` when
    /// there was none.
    public var scheduledDate: Date?

    public init(
        appIdentifier: String,
        notificationIdentifier: String,
        date: Date,
        destinations: PresentationDestinations,
        bannerIsPersistent: Bool = false,
        title: String = "",
        subtitle: String = "",
        body: String = "",
        previewsHidden: Bool = false,
        attachments: [NotificationAttachment] = [],
        sound: PresentationSound? = nil,
        badge: Int? = nil,
        categoryIdentifier: String = "",
        actions: [PresentationAction] = [],
        wantsDismissResponse: Bool = false,
        interruptionLevel: InterruptionLevel = .active,
        brokeThroughFocus: Bool = false,
        group: PresentationGroup,
        isLate: Bool = false,
        scheduledDate: Date? = nil
    ) {
        self.appIdentifier = appIdentifier
        self.notificationIdentifier = notificationIdentifier
        self.date = date
        self.destinations = destinations
        self.bannerIsPersistent = bannerIsPersistent
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.previewsHidden = previewsHidden
        self.attachments = attachments
        self.sound = sound
        self.badge = badge
        self.categoryIdentifier = categoryIdentifier
        self.actions = actions
        self.wantsDismissResponse = wantsDismissResponse
        self.interruptionLevel = interruptionLevel
        self.brokeThroughFocus = brokeThroughFocus
        self.group = group
        self.isLate = isLate
        self.scheduledDate = scheduledDate
    }
}
