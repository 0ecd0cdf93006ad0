/// Notification text that is either final or looked up in the user's language when it is delivered.
///
/// `.localized` is Apple's `NSString.localizedUserNotificationString(forKey:arguments:)`: the key and
/// its arguments are stored with the request, and resolved at delivery in the locale the user has
/// *then*, so a language change between scheduling and delivery shows the new language.
///
/// ```swift
/// var content = NotificationContent()
/// content.title = "Tea is ready"                                   // .literal
/// content.body = .localized(key: "TEA_READY_BODY", arguments: ["Earl Grey"])
/// content.body.key  // "TEA_READY_BODY"
/// ```
///
/// Encoded, a literal is a JSON string and a localized text an object:
/// `{"key": "TEA_READY_BODY", "arguments": ["Earl Grey"]}` (`arguments` omitted when empty).
public enum LocalizableText: Sendable, Hashable {
    /// Text shown as is.
    case literal(String)
    /// A key in the app's strings table and the arguments for its format specifiers. An empty key is
    /// rejected by `NotificationContent.validate()`.
    case localized(key: String, arguments: [String] = [])

    /// The empty literal: no text.
    public static let empty = LocalizableText.literal("")

    /// The text of a `.literal`, or `nil` for a localized text.
    public var literal: String? {
        if case .literal(let text) = self { return text }
        return nil
    }

    /// The localization key of a `.localized` text, or `nil` for a literal.
    public var key: String? {
        if case .localized(let key, _) = self { return key }
        return nil
    }

    /// The format arguments of a `.localized` text; empty for a literal.
    public var arguments: [String] {
        if case .localized(_, let arguments) = self { return arguments }
        return []
    }

    /// Whether this is the empty literal. A localized text is never empty before it is resolved.
    public var isEmpty: Bool {
        self == .empty
    }
}

extension LocalizableText: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self = .literal(value)
    }
}

extension LocalizableText: Codable {
    private enum CodingKeys: String, CodingKey { case key, arguments }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .literal(text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try .localized(
            key: container.decode(String.self, forKey: .key),
            arguments: container.decodeIfPresent([String].self, forKey: .arguments) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .literal(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .localized(let key, let arguments):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            if !arguments.isEmpty {
                try container.encode(arguments, forKey: .arguments)
            }
        }
    }
}
