/// Resolves notification text in the user's language at the moment of delivery.
///
/// Holds one app's strings tables by language (the names of its `.lproj` folders: `en`, `ko`, `pt-BR`,
/// `zh-Hans`, `Base`). A `.localized` text is looked up in the user's preferred languages in order —
/// each tried as given, with `-`/`_` swapped, then without its region — then in the development
/// language and `Base`; a key found nowhere shows as the key itself, as on iOS. The arguments are then
/// filled in (`NotificationStringFormat`). A `.literal` is returned unchanged.
///
/// ```swift
/// let localizer = NotificationLocalizer(tables: ["ko": try StringsTable(parsing: #""TEA" = "%@ 준비 완료";"#)])
/// localizer.resolve(.localized(key: "TEA", arguments: ["녹차"]), preferredLanguages: ["ko-KR", "en"])  // "녹차 준비 완료"
/// ```
public struct NotificationLocalizer: Sendable {
    public var tables: [String: StringsTable]
    public var developmentLanguage: String

    public init(tables: [String: StringsTable], developmentLanguage: String = "en") {
        self.tables = tables
        self.developmentLanguage = developmentLanguage
    }

    public func resolve(_ text: LocalizableText, preferredLanguages: [String]) -> String {
        switch text {
        case .literal(let literal):
            return literal
        case .localized(let key, let arguments):
            let format = candidateTables(for: preferredLanguages).lazy.compactMap { $0[key] }.first ?? key
            return NotificationStringFormat.format(format, arguments: arguments)
        }
    }

    /// The language whose table would answer first, for logs and tests.
    public func language(for preferredLanguages: [String]) -> String? {
        candidateNames(for: preferredLanguages).first { tables[$0] != nil }
    }

    private func candidateTables(for preferredLanguages: [String]) -> [StringsTable] {
        candidateNames(for: preferredLanguages).compactMap { tables[$0] }
    }

    private func candidateNames(for preferredLanguages: [String]) -> [String] {
        var names: [String] = []
        for language in preferredLanguages + [developmentLanguage, "Base"] {
            let swapped = language.contains("-") ? language.replacingOccurrences("-", with: "_") : language.replacingOccurrences("_", with: "-")
            let base = String(language.prefix { $0 != "-" && $0 != "_" })
            for name in [language, swapped, base] where !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
