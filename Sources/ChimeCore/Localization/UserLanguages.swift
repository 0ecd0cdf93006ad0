/// The user's languages, most preferred first, from the locale variables a Linux session sets, as the
/// names `NotificationLocalizer` looks tables up by (`ko-KR`, `pt-BR`, `en`).
///
/// ```swift
/// UserLanguages.preferred(environment: ["LANG": "ko_KR.UTF-8"])                        // ["ko-KR"]
/// UserLanguages.preferred(environment: ["LANG": "de_DE.UTF-8", "LANGUAGE": "ko:en"])  // ["ko", "en", "de-DE"]
/// UserLanguages.preferred(environment: ["LC_ALL": "C"])                                // []
/// ```
///
/// The rules are gettext's: the messages locale is `LC_ALL`, else `LC_MESSAGES`, else `LANG`; when it
/// is set and not `C` or `POSIX`, `LANGUAGE` (a colon-separated list) comes before it. The encoding
/// (`.UTF-8`) and modifier (`@euro`) are dropped. Empty means the program's development language.
public enum UserLanguages {
    public static func preferred(environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, let own = name(of: locale) else { return [] }
        var languages = (environment["LANGUAGE"] ?? "").split(separator: ":").compactMap { name(of: String($0)) }
        if !languages.contains(own) { languages.append(own) }
        return languages
    }

    /// `ko_KR.UTF-8@modifier` → `ko-KR`; `nil` for `C`, `POSIX` and anything that names no language.
    static func name(of locale: String) -> String? {
        let base = locale.prefix { $0 != "." && $0 != "@" }
        guard base != "C", base != "POSIX", let first = base.first, first.isLetter, base.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" })
        else { return nil }
        return String(base.map { $0 == "_" ? "-" : $0 })
    }
}
