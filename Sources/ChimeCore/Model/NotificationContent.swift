/// What a notification says and how it behaves: every property of Apple's `UNNotificationContent`.
///
/// One mutable value plays both `UNNotificationContent` and `UNMutableNotificationContent`. Set what you
/// need and leave the rest at the defaults; the notification center calls `validate()` when a request is
/// added, and decoding validates too.
///
/// ```swift
/// var content = NotificationContent(title: "Tea is ready", body: .localized(key: "TEA_BODY", arguments: ["Earl Grey"]))
/// content.sound = .default
/// content.badge = 1
/// content.threadIdentifier = "kitchen"
/// content.userInfo = ["teaID": 42]
/// try content.validate()
/// ```
public struct NotificationContent: Sendable, Hashable {
    public var title: LocalizableText
    public var subtitle: LocalizableText
    public var body: LocalizableText
    /// The app's badge after delivery: `nil` leaves it as it is, 0 removes it, a positive number shows it.
    public var badge: Int?
    /// The sound to play, or `nil` for silence.
    public var sound: NotificationSound?
    /// Images, sounds or movies shown with the notification; identifiers are unique.
    public var attachments: [NotificationAttachment]
    /// The app's own data, handed back with the response.
    public var userInfo: [String: JSONValue]
    /// The category whose actions the notification offers; empty for none.
    public var categoryIdentifier: String
    /// Notifications with the same thread identifier are grouped together; empty for the app's group.
    public var threadIdentifier: String
    /// The content (window, document) the notification is about, for the app to bring forward.
    public var targetContentIdentifier: String?
    public var interruptionLevel: InterruptionLevel
    /// How the system ranks this notification in a summary, from 0 (least) to 1 (most relevant).
    public var relevanceScore: Double
    /// The focus filter that decides whether the notification shows during a focus.
    public var filterCriteria: String?
    /// The image to show when the app launches from the notification.
    public var launchImageName: String
    /// Deprecated by Apple since iOS 15: the text inserted in a grouped notifications' summary.
    public var summaryArgument: String
    /// Deprecated by Apple since iOS 15: how many items this notification counts for in the summary.
    public var summaryArgumentCount: Int

    public init(
        title: LocalizableText = .empty,
        subtitle: LocalizableText = .empty,
        body: LocalizableText = .empty,
        badge: Int? = nil,
        sound: NotificationSound? = nil,
        attachments: [NotificationAttachment] = [],
        userInfo: [String: JSONValue] = [:],
        categoryIdentifier: String = "",
        threadIdentifier: String = "",
        targetContentIdentifier: String? = nil,
        interruptionLevel: InterruptionLevel = .active,
        relevanceScore: Double = 0,
        filterCriteria: String? = nil,
        launchImageName: String = "",
        summaryArgument: String = "",
        summaryArgumentCount: Int = 0
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.attachments = attachments
        self.userInfo = userInfo
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.targetContentIdentifier = targetContentIdentifier
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.launchImageName = launchImageName
        self.summaryArgument = summaryArgument
        self.summaryArgumentCount = summaryArgumentCount
    }

    /// Checks the rules a single property cannot enforce by its type.
    ///
    /// Sounds and attachments are valid by construction and are not checked again.
    ///
    /// - Throws: `ChimeError.badgeInputInvalid` for a negative badge; `ChimeError.valueOutOfRange` for a
    ///   relevance score outside `0...1` or not finite, a negative summary argument count, a number in
    ///   `userInfo` that JSON cannot hold (`nan`, infinity), or `userInfo` nesting deeper than
    ///   `maximumUserInfoDepth`; `ChimeError.invalidIdentifier` for a
    ///   localized title, subtitle or body with an empty key, or two attachments with one identifier.
    public func validate() throws(ChimeError) {
        for (field, text) in [("title", title), ("subtitle", subtitle), ("body", body)] where text.key?.isEmpty == true {
            throw ChimeError(.invalidIdentifier, field: field, "a localization key must not be empty")
        }
        if let badge, badge < 0 {
            throw ChimeError(.badgeInputInvalid, field: "badge", "the badge must be 0 or more")
        }
        guard relevanceScore.isFinite, (0...1).contains(relevanceScore) else {
            throw ChimeError(.valueOutOfRange, field: "relevanceScore", "the relevance score must be between 0 and 1")
        }
        guard summaryArgumentCount >= 0 else {
            throw ChimeError(.valueOutOfRange, field: "summaryArgumentCount", "the summary argument count must be 0 or more")
        }
        var identifiers: Set<String> = []
        for attachment in attachments where !identifiers.insert(attachment.identifier).inserted {
            throw ChimeError(.invalidIdentifier, field: "attachments", "two attachments share an identifier")
        }
        for (key, value) in userInfo {
            try Self.checkUserInfo(value, field: "userInfo.\(key)", depth: 1)
        }
    }

    /// How many arrays and objects deep `userInfo` may nest: as deep as JSON readers take it (Foundation's
    /// stops at 512), so that what an app adds in its own process can also be sent as JSON, and the store
    /// reads back every record it wrote.
    public static let maximumUserInfoDepth = 512

    private static func checkUserInfo(_ value: JSONValue, field: String, depth: Int) throws(ChimeError) {
        switch value {
        case .double(let number):
            guard number.isFinite else { throw ChimeError(.valueOutOfRange, field: field, "JSON numbers must be finite") }
        case .array(let elements):
            guard depth < maximumUserInfoDepth else { throw tooDeep(field) }
            for element in elements { try checkUserInfo(element, field: field, depth: depth + 1) }
        case .object(let members):
            guard depth < maximumUserInfoDepth else { throw tooDeep(field) }
            for member in members.values { try checkUserInfo(member, field: field, depth: depth + 1) }
        case .null, .bool, .int, .string:
            break
        }
    }

    private static func tooDeep(_ field: String) -> ChimeError {
        ChimeError(.valueOutOfRange, field: field, "user info nests more than \(maximumUserInfoDepth) arrays and objects deep")
    }
}

extension NotificationContent: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, subtitle, body, badge, sound, attachments, userInfo, categoryIdentifier, threadIdentifier
        case targetContentIdentifier, interruptionLevel, relevanceScore, filterCriteria, launchImageName
        case summaryArgument, summaryArgumentCount
    }

    /// Missing keys take their defaults, so older or hand-written JSON decodes; the result is validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decodeIfPresent(LocalizableText.self, forKey: .title) ?? .empty,
            subtitle: try container.decodeIfPresent(LocalizableText.self, forKey: .subtitle) ?? .empty,
            body: try container.decodeIfPresent(LocalizableText.self, forKey: .body) ?? .empty,
            badge: try container.decodeIfPresent(Int.self, forKey: .badge),
            sound: try container.decodeIfPresent(NotificationSound.self, forKey: .sound),
            attachments: try container.decodeIfPresent([NotificationAttachment].self, forKey: .attachments) ?? [],
            userInfo: try container.decodeIfPresent([String: JSONValue].self, forKey: .userInfo) ?? [:],
            categoryIdentifier: try container.decodeIfPresent(String.self, forKey: .categoryIdentifier) ?? "",
            threadIdentifier: try container.decodeIfPresent(String.self, forKey: .threadIdentifier) ?? "",
            targetContentIdentifier: try container.decodeIfPresent(String.self, forKey: .targetContentIdentifier),
            interruptionLevel: try container.decodeIfPresent(InterruptionLevel.self, forKey: .interruptionLevel) ?? .active,
            relevanceScore: try container.decodeIfPresent(Double.self, forKey: .relevanceScore) ?? 0,
            filterCriteria: try container.decodeIfPresent(String.self, forKey: .filterCriteria),
            launchImageName: try container.decodeIfPresent(String.self, forKey: .launchImageName) ?? "",
            summaryArgument: try container.decodeIfPresent(String.self, forKey: .summaryArgument) ?? "",
            summaryArgumentCount: try container.decodeIfPresent(Int.self, forKey: .summaryArgumentCount) ?? 0)
        try validate()
    }
}
