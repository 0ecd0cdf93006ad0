public import ChimeCore
import Foundation

/// What Chime itself shows on the desktop (the permission question, the reply dialog), in the language
/// of the session chimed runs in (`LANG`, `LC_MESSAGES`, `LANGUAGE`): `desktop-<language>.strings`.
public enum DesktopText {
    public static let text = catalog(languages: UserLanguages.preferred(environment: ProcessInfo.processInfo.environment))

    /// The tables by language, for tests that check them against each other.
    public static let tables: [String: [UInt8]] = ["en": PackageResources.desktop_en_strings, "ko": PackageResources.desktop_ko_strings]

    public static func catalog(languages: [String]) -> TextCatalog {
        TextCatalog(tables: tables, languages: languages)
    }
}
