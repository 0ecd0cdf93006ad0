/// The JSON body of a remote notification, as a provider sends it to APNs and a device receives it.
///
/// A payload is the notification's `NotificationContent` plus two flags that are about delivery, not
/// content: `content-available` (wake the app in the background) and `mutable-content` (let a
/// notification service extension change the content first). `init(jsonData:)` reads a body and
/// `jsonData()` writes one, following Apple's payload key reference ("Generating a remote notification",
/// https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification).
///
/// ```swift
/// let body = Data(#"{"aps":{"alert":{"title":"미팅 초대","body":"일시 : 2022/04/05 오후 2시"},"category":"meetingCategory"},"meetingID":7}"#.utf8)
/// let payload = try APNsPayload(jsonData: body)
/// payload.content.title               // .literal("미팅 초대")
/// payload.content.categoryIdentifier  // "meetingCategory"
/// payload.content.userInfo            // ["meetingID": 7]
///
/// var reply = APNsPayload(content: NotificationContent(body: "Tea is ready"))
/// reply.content.sound = .default
/// String(decoding: try reply.jsonData(), as: UTF8.self)
/// // {"aps":{"alert":"Tea is ready","sound":"default"}}
/// ```
///
/// How the keys map:
///
/// | APNs key | `NotificationContent` |
/// |---|---|
/// | `alert` as a string | `body` (a literal) |
/// | `alert.title`, `alert.subtitle`, `alert.body` | `title`, `subtitle`, `body` as literals |
/// | `alert.title-loc-key` + `title-loc-args` (likewise `subtitle-`, `loc-key` + `loc-args`) | `.localized(key:arguments:)` |
/// | `alert.launch-image` | `launchImageName` |
/// | `alert.summary-arg`, `alert.summary-arg-count` | `summaryArgument`, `summaryArgumentCount` |
/// | `badge` | `badge` |
/// | `sound` as a string (`"default"` is the system sound) | `.default` or `.named(_:)` |
/// | `sound` as `{"critical": 1, "name": …, "volume": …}` | `.defaultCritical(volume:)` or `.criticalNamed(_:volume:)` |
/// | `thread-id`, `category`, `target-content-id`, `filter-criteria` | `threadIdentifier`, `categoryIdentifier`, `targetContentIdentifier`, `filterCriteria` |
/// | `interruption-level`, `relevance-score` | `interruptionLevel`, `relevanceScore` |
/// | every top-level key except `aps` | `userInfo` |
///
/// Decisions where Apple's reference leaves room:
/// - `userInfo` holds the custom top-level keys *without* `aps`. Apple's `userInfo` for a remote
///   notification is the whole payload, `aps` included; Chime keeps what `aps` says in the typed
///   properties instead, so the two cannot disagree. For the same reason `jsonData()` refuses a
///   `userInfo` key named `aps`.
/// - A localization key wins over the literal text beside it (`title-loc-key` over `title`); arguments
///   without their key (`title-loc-args` alone) are ignored, as iOS ignores them, but must still be an
///   array of strings.
/// - Keys Chime does not model are ignored, as APNs and iOS ignore keys they do not know: Live Activity
///   keys (`timestamp`, `event`, `content-state`, `stale-date`, `dismissal-date`, `attributes-type`,
///   `attributes`), `alert.action-loc-key` (actions come from the category), and a `thread-id` written
///   inside `alert` (it belongs directly in `aps`, so such a notification is not grouped). Ignored keys
///   are not kept, so they do not survive a round trip.
/// - A sound dictionary needs a `name`; its `volume` defaults to 1 and only matters when `critical` is 1.
///   `{"critical": 0, "name": "a.aiff"}` is the plain sound `.named("a.aiff")`.
/// - Flags (`content-available`, `mutable-content`, `critical`) are the numbers 0 or 1. A number with a
///   zero fraction counts as an integer (`"badge": 2.0` is 2), because JSON does not tell them apart.
/// - `null` is never "absent": a known key holding `null` has the wrong type.
///
/// Decoding is strict about the JSON itself (see `StrictJSONParser`): trailing commas and repeated keys
/// are errors, although Foundation's parsers accept them. Bodies larger than `maximumSize` bytes are
/// refused before they are parsed; the limit counts UTF-8 bytes, so each Hangul syllable counts 3.
///
/// Attachments are not part of an APNs payload: a notification service extension downloads them after
/// delivery (announced with `mutable-content`). `jsonData()` leaves `content.attachments` out, and a
/// decoded payload has none. Ringtone sounds and a sound file named `default` have no APNs form, so
/// `jsonData()` refuses them; every other content survives `APNsPayload(jsonData: payload.jsonData())`
/// unchanged.
public struct APNsPayload: Sendable, Hashable {
    /// The largest body APNs accepts for a regular remote notification, in bytes. (VoIP pushes may be
    /// 5120 bytes; Chime does not send those.)
    public static let maximumSize = 4096

    /// What the notification shows and how it behaves.
    public var content: NotificationContent
    /// `content-available: 1`: deliver to the app in the background, for it to fetch new data.
    public var contentAvailable: Bool
    /// `mutable-content: 1`: let the app's notification service extension change the content, for
    /// example to download attachments, before it is shown.
    public var mutableContent: Bool

    public init(
        content: NotificationContent = NotificationContent(), contentAvailable: Bool = false, mutableContent: Bool = false
    ) {
        self.content = content
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
    }
}
