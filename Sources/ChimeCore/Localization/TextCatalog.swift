/// The user-facing strings of one of Chime's own programs — `chime`'s messages, chimed's permission
/// prompt — in the user's language: `.strings` tables by language, resolved by the same
/// `NotificationLocalizer` that resolves apps' notification texts.
///
/// ```swift
/// let text = TextCatalog(tables: ["en": english, "ko": korean], languages: ["ko-KR"])
/// text("prompt.allow")                 // "허용"
/// text("add.sent", "Tea", "chime")     // arguments fill %1$@, %2$@ ...
/// ```
///
/// Keys are names, not English sentences, so that each table can be checked against the English one
/// (same keys, same arguments). A key missing from every table shows as the key, as on iOS.
public struct TextCatalog: Sendable {
    public let localizer: NotificationLocalizer
    public let languages: [String]

    /// - Parameter tables: Each language's `.strings` file, as bytes; one that does not parse is left
    ///   out (its language then falls back to English), which the programs' tests rule out.
    public init(tables: [String: [UInt8]], languages: [String]) {
        var parsed: [String: StringsTable] = [:]
        for (language, bytes) in tables {
            if let text = String(validating: bytes, as: UTF8.self), let table = try? StringsTable(parsing: text) { parsed[language] = table }
        }
        localizer = NotificationLocalizer(tables: parsed, developmentLanguage: "en")
        self.languages = languages
    }

    public func callAsFunction(_ key: String, _ arguments: String...) -> String {
        text(key, arguments)
    }

    /// The message `key` with `arguments`, for callers that pass their own variadic arguments on.
    public func text(_ key: String, _ arguments: [String]) -> String {
        localizer.resolve(.localized(key: key, arguments: arguments), preferredLanguages: languages)
    }
}
