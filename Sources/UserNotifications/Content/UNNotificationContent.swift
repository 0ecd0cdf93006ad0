#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// What a notification says and how it behaves, read-only (Apple's `UNNotificationContent`).
///
/// Requests hold an immutable copy of the content they were made with; build content with
/// `UNMutableNotificationContent`. `copy()` gives an immutable `UNNotificationContent`, `mutableCopy()` a
/// new `UNMutableNotificationContent`; both are independent of the original.
///
/// Equal when every property is equal (`userInfo` compared by value).
// @unchecked Sendable: every field sits behind the `fields` lock; `userInfo` values are the app's own, as
// on Apple.
public class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// Apple's properties, as Apple types them; converted to Chime's `NotificationContent` when a request is
    /// added, so an invalid value fails `add`, not the assignment.
    struct Fields {
        var title = ""
        var subtitle = ""
        var body = ""
        var badge: NSNumber?
        var sound: UNNotificationSound?
        var attachments: [UNNotificationAttachment] = []
        var userInfo: [AnyHashable: Any] = [:]
        var categoryIdentifier = ""
        var threadIdentifier = ""
        var targetContentIdentifier: String?
        var interruptionLevel = UNNotificationInterruptionLevel.active
        var relevanceScore: Double = 0
        var filterCriteria: String?
        var launchImageName = ""
        var summaryArgument = ""
        var summaryArgumentCount = 0
    }

    let fields: Locked<Fields>

    /// Empty content.
    public override init() {
        fields = Locked(Fields())
    }

    init(fields: Fields) {
        self.fields = Locked(fields)
    }

    /// The content of a request the engine holds. Localized texts read back as the marked strings of
    /// `localizedUserNotificationString(forKey:arguments:)`.
    convenience init(_ content: NotificationContent) {
        self.init(fields: Fields(content))
    }

    var snapshot: Fields { fields.withLock { $0 } }

    public var title: String { fields.withLock { $0.title } }
    public var subtitle: String { fields.withLock { $0.subtitle } }
    public var body: String { fields.withLock { $0.body } }
    /// The app's badge after delivery: `nil` leaves it, 0 removes it.
    public var badge: NSNumber? { fields.withLock { $0.badge } }
    public var sound: UNNotificationSound? { fields.withLock { $0.sound } }
    public var attachments: [UNNotificationAttachment] { fields.withLock { $0.attachments } }
    public var userInfo: [AnyHashable: Any] { fields.withLock { $0.userInfo } }
    public var categoryIdentifier: String { fields.withLock { $0.categoryIdentifier } }
    public var threadIdentifier: String { fields.withLock { $0.threadIdentifier } }
    public var targetContentIdentifier: String? { fields.withLock { $0.targetContentIdentifier } }
    public var interruptionLevel: UNNotificationInterruptionLevel { fields.withLock { $0.interruptionLevel } }
    public var relevanceScore: Double { fields.withLock { $0.relevanceScore } }
    public var filterCriteria: String? { fields.withLock { $0.filterCriteria } }
    public var launchImageName: String { fields.withLock { $0.launchImageName } }
    /// Deprecated by Apple in iOS 15.
    public var summaryArgument: String { fields.withLock { $0.summaryArgument } }
    /// Deprecated by Apple in iOS 15.
    public var summaryArgumentCount: Int { fields.withLock { $0.summaryArgumentCount } }

    /// Chime's content for these fields.
    ///
    /// - Throws: `ChimeError` for `userInfo` that JSON cannot hold, a sound or attachment Chime cannot use,
    ///   or what `NotificationContent.validate()` refuses (a negative badge, a relevance score outside 0...1).
    func notificationContent() throws(ChimeError) -> NotificationContent {
        let fields = snapshot
        let content = NotificationContent(
            title: DeferredLocalization.text(fields.title),
            subtitle: DeferredLocalization.text(fields.subtitle),
            body: DeferredLocalization.text(fields.body),
            badge: fields.badge?.intValue,
            sound: try fields.sound?.notificationSound(),
            attachments: fields.attachments.map(\.attachment),
            userInfo: try UserInfoConversion.json(fields.userInfo),
            categoryIdentifier: fields.categoryIdentifier,
            threadIdentifier: fields.threadIdentifier,
            targetContentIdentifier: fields.targetContentIdentifier,
            interruptionLevel: fields.interruptionLevel.chime,
            relevanceScore: fields.relevanceScore,
            filterCriteria: fields.filterCriteria,
            launchImageName: fields.launchImageName,
            summaryArgument: fields.summaryArgument,
            summaryArgumentCount: fields.summaryArgumentCount)
        try content.validate()
        return content
    }

    /// An immutable copy.
    public func copy(with zone: NSZone? = nil) -> Any {
        UNNotificationContent(fields: snapshot)
    }

    /// A mutable copy, independent of this content.
    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        UNMutableNotificationContent(fields: snapshot)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationContent else { return false }
        if other === self { return true }
        let (a, b) = (snapshot, other.snapshot)
        return a.title == b.title && a.subtitle == b.subtitle && a.body == b.body && a.badge == b.badge && a.sound == b.sound
            && a.attachments == b.attachments && a.categoryIdentifier == b.categoryIdentifier && a.threadIdentifier == b.threadIdentifier
            && a.targetContentIdentifier == b.targetContentIdentifier && a.interruptionLevel == b.interruptionLevel
            && a.relevanceScore == b.relevanceScore && a.filterCriteria == b.filterCriteria && a.launchImageName == b.launchImageName
            && a.summaryArgument == b.summaryArgument && a.summaryArgumentCount == b.summaryArgumentCount
            && Self.userInfo(a.userInfo, equals: b.userInfo)
    }

    /// Compared as JSON where both convert (so `1` equals `NSNumber(value: 1)`), else as `NSDictionary`s.
    private static func userInfo(_ a: [AnyHashable: Any], equals b: [AnyHashable: Any]) -> Bool {
        if let a = try? UserInfoConversion.json(a), let b = try? UserInfoConversion.json(b) {
            return a == b
        }
        return NSDictionary(dictionary: a).isEqual(NSDictionary(dictionary: b))
    }

    public override var hash: Int {
        let fields = snapshot
        return [fields.title, fields.body, fields.categoryIdentifier].hashValue
    }

    /// Identifiers only: notification text and `userInfo` stay out of logs.
    public override var description: String {
        let fields = snapshot
        return "<\(Swift.type(of: self)) categoryIdentifier: \"\(fields.categoryIdentifier)\", threadIdentifier: \"\(fields.threadIdentifier)\">"
    }
}

/// The content of a notification being built (Apple's `UNMutableNotificationContent`).
///
/// ```swift
/// let content = UNMutableNotificationContent()
/// content.title = "Hello"
/// content.body = "Shared some photo"
/// content.sound = UNNotificationSound.default
/// content.categoryIdentifier = "CATEGORY_IMAGE_POSTING"
/// content.userInfo = ["photoID": 42]
/// ```
///
/// Assignments never fail; `add` checks the whole content (see `UNNotificationContent`). Not meant to be
/// changed from several threads at once, as on Apple; each property access is atomic.
// @unchecked Sendable: as the superclass.
public final class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    public override var title: String {
        get { super.title }
        set { fields.withLock { $0.title = newValue } }
    }
    public override var subtitle: String {
        get { super.subtitle }
        set { fields.withLock { $0.subtitle = newValue } }
    }
    public override var body: String {
        get { super.body }
        set { fields.withLock { $0.body = newValue } }
    }
    public override var badge: NSNumber? {
        get { super.badge }
        set { fields.withLock { $0.badge = newValue } }
    }
    public override var sound: UNNotificationSound? {
        get { super.sound }
        set { fields.withLock { $0.sound = newValue } }
    }
    public override var attachments: [UNNotificationAttachment] {
        get { super.attachments }
        set { fields.withLock { $0.attachments = newValue } }
    }
    /// Only JSON values are accepted when the request is added: see `UserInfoConversion`.
    public override var userInfo: [AnyHashable: Any] {
        get { super.userInfo }
        set { fields.withLock { $0.userInfo = newValue } }
    }
    public override var categoryIdentifier: String {
        get { super.categoryIdentifier }
        set { fields.withLock { $0.categoryIdentifier = newValue } }
    }
    public override var threadIdentifier: String {
        get { super.threadIdentifier }
        set { fields.withLock { $0.threadIdentifier = newValue } }
    }
    public override var targetContentIdentifier: String? {
        get { super.targetContentIdentifier }
        set { fields.withLock { $0.targetContentIdentifier = newValue } }
    }
    public override var interruptionLevel: UNNotificationInterruptionLevel {
        get { super.interruptionLevel }
        set { fields.withLock { $0.interruptionLevel = newValue } }
    }
    public override var relevanceScore: Double {
        get { super.relevanceScore }
        set { fields.withLock { $0.relevanceScore = newValue } }
    }
    public override var filterCriteria: String? {
        get { super.filterCriteria }
        set { fields.withLock { $0.filterCriteria = newValue } }
    }
    public override var launchImageName: String {
        get { super.launchImageName }
        set { fields.withLock { $0.launchImageName = newValue } }
    }
    public override var summaryArgument: String {
        get { super.summaryArgument }
        set { fields.withLock { $0.summaryArgument = newValue } }
    }
    public override var summaryArgumentCount: Int {
        get { super.summaryArgumentCount }
        set { fields.withLock { $0.summaryArgumentCount = newValue } }
    }
}

extension UNNotificationContent.Fields {
    init(_ content: NotificationContent) {
        self.init(
            title: DeferredLocalization.string(content.title),
            subtitle: DeferredLocalization.string(content.subtitle),
            body: DeferredLocalization.string(content.body),
            badge: content.badge.map { NSNumber(value: $0) },
            sound: content.sound.map(UNNotificationSound.init),
            attachments: content.attachments.map(UNNotificationAttachment.init),
            userInfo: UserInfoConversion.foundation(content.userInfo),
            categoryIdentifier: content.categoryIdentifier,
            threadIdentifier: content.threadIdentifier,
            targetContentIdentifier: content.targetContentIdentifier,
            interruptionLevel: UNNotificationInterruptionLevel(content.interruptionLevel),
            relevanceScore: content.relevanceScore,
            filterCriteria: content.filterCriteria,
            launchImageName: content.launchImageName,
            summaryArgument: content.summaryArgument,
            summaryArgumentCount: content.summaryArgumentCount)
    }
}
#endif
