import ChimeCore
import Testing

/// The user's languages from the locale variables, by gettext's rules.
@Suite("User languages from the locale")
struct UserLanguagesTests {
    @Test(arguments: [
        (["LANG": "ko_KR.UTF-8"], ["ko-KR"]),
        (["LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"], ["ko-KR"]),
        (["LANG": "ko_KR.UTF-8", "LC_MESSAGES": "en_GB", "LC_ALL": "pt_BR.ISO-8859-1"], ["pt-BR"]),
        (["LANG": "de_DE.UTF-8", "LANGUAGE": "ko:en"], ["ko", "en", "de-DE"]),
        (["LANG": "ko_KR.UTF-8", "LANGUAGE": "ko_KR"], ["ko-KR"]),
        (["LANG": "sr_RS.UTF-8@latin"], ["sr-RS"]),
        (["LANG": "ko", "LC_ALL": ""], ["ko"]),
    ] as [([String: String], [String])])
    func theMessagesLocaleAndLanguageListGiveTheOrder(environment: [String: String], languages: [String]) {
        #expect(UserLanguages.preferred(environment: environment) == languages)
    }

    /// C and POSIX mean "no translation", and then `LANGUAGE` is ignored too, as gettext does.
    @Test(arguments: [["LC_ALL": "C"], ["LANG": "POSIX", "LANGUAGE": "ko"], ["LANG": "C.UTF-8"], [:], ["LANGUAGE": "ko"], ["LANG": "../../etc"]])
    func noLanguageMeansTheDevelopmentLanguage(environment: [String: String]) {
        #expect(UserLanguages.preferred(environment: environment) == [])
    }
}
