import ChimeCore
import Foundation
import Testing

@Suite("Strings table")
struct StringsTableTests {
    @Test func parsesTheFormatXcodeWrites() throws {
        let table = try StringsTable(parsing: #"""
            /* The body of the tea reminder.
               %@ is the tea's name. */
            "TEA_READY_BODY" = "Your %@ is ready";
            // Snooze button
            "SNOOZE" = "Snooze";
            SHORT_KEY = unquoted.value;
            "ECHO";
            "ESCAPES" = "Say \"hi\"\n\tback\\slash \U00E9";
            "미팅" = "회의 초대";
            """#)
        #expect(table.entries == [
            "TEA_READY_BODY": "Your %@ is ready",
            "SNOOZE": "Snooze",
            "SHORT_KEY": "unquoted.value",
            "ECHO": "ECHO",
            "ESCAPES": "Say \"hi\"\n\tback\\slash é",
            "미팅": "회의 초대",
        ])
    }

    @Test func readsUTF16WithByteOrderMarkAndUTF8() throws {
        let text = #""KEY" = "값";"#
        var utf16 = Data([0xFF, 0xFE])
        for unit in text.utf16 { utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        #expect(try StringsTable(data: utf16)["KEY"] == "값")
        #expect(try StringsTable(data: Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8))["KEY"] == "값")
    }

    @Test(arguments: [
        (#""A" = "x""#, "line 1"),
        ("\"A\" \"x\";", "line 1"),
        ("\n\n\"A\" = \"unterminated;", "line 3"),
        ("/* never closed", "line 1"),
        (#""A" = "\U00G1";"#, "line 1"),
        ("\"A\" = ;", "line 1"),
        ("= \"x\";", "line 1"),
    ])
    func rejectsMalformedTablesNamingTheLine(text: String, line: String) {
        #expect {
            _ = try StringsTable(parsing: text)
        } throws: { error in
            let error = error as? ChimeError
            return error?.code == .invalidStringsTable && error?.field == line
        }
    }

    @Test func rejectsBytesThatAreNotText() {
        #expect {
            _ = try StringsTable(data: Data([0x22, 0xC3, 0x28, 0x22]))
        } throws: { ($0 as? ChimeError)?.code == .invalidStringsTable }
    }
}

@Suite("Notification localizer")
struct NotificationLocalizerTests {
    let localizer = NotificationLocalizer(tables: [
        "en": StringsTable(entries: ["TEA": "Your %@ is ready", "ORDER": "%1$@ then %2$@", "ONLY_EN": "English only"]),
        "ko": StringsTable(entries: ["TEA": "%@ 준비 완료", "ORDER": "%2$@ 다음 %1$@"]),
        "pt-BR": StringsTable(entries: ["TEA": "Seu %@ está pronto"]),
    ])

    @Test func resolvesInTheFirstPreferredLanguageThatHasTheKey() {
        let tea = LocalizableText.localized(key: "TEA", arguments: ["녹차"])
        #expect(localizer.resolve(tea, preferredLanguages: ["ko-KR", "en"]) == "녹차 준비 완료")
        #expect(localizer.resolve(tea, preferredLanguages: ["pt_BR"]) == "Seu 녹차 está pronto")
        #expect(localizer.resolve(tea, preferredLanguages: ["fr"]) == "Your 녹차 is ready")  // development language
        #expect(localizer.resolve(.localized(key: "ONLY_EN"), preferredLanguages: ["ko"]) == "English only")
        #expect(localizer.language(for: ["ko-KR"]) == "ko")
    }

    @Test func theSameRequestFollowsALanguageChange() {
        let tea = LocalizableText.localized(key: "TEA", arguments: ["Earl Grey"])
        #expect(localizer.resolve(tea, preferredLanguages: ["en"]) == "Your Earl Grey is ready")
        #expect(localizer.resolve(tea, preferredLanguages: ["ko"]) == "Earl Grey 준비 완료")
    }

    @Test func positionalArgumentsFollowTheTranslation() {
        let order = LocalizableText.localized(key: "ORDER", arguments: ["A", "B"])
        #expect(localizer.resolve(order, preferredLanguages: ["en"]) == "A then B")
        #expect(localizer.resolve(order, preferredLanguages: ["ko"]) == "B 다음 A")
    }

    @Test func anUnknownKeyShowsAsTheKeyAndLiteralsAreUnchanged() {
        #expect(localizer.resolve(.localized(key: "MISSING_KEY", arguments: ["x"]), preferredLanguages: ["ko"]) == "MISSING_KEY")
        #expect(localizer.resolve("Plain %@ text", preferredLanguages: ["ko"]) == "Plain %@ text")
    }

    @Test(arguments: [
        ("%@ and %@", ["one"], "one and "),  // too few arguments: empty, never a crash
        ("%d%% done, %.1f left", ["50", "2.5"], "50% done, 2.5 left"),
        ("%ld items in %s", ["3", "box"], "3 items in box"),
        ("%5$@", ["a"], ""),
        ("100% sure", [], "100ure"),  // as in C, "% s" is a conversion (space flag); translators write %%
        ("trailing %", [], "trailing %"),
        ("%k unknown", [], "%k unknown"),
    ])
    func formatsArgumentsSafely(format: String, arguments: [String], expected: String) {
        let localizer = NotificationLocalizer(tables: ["en": StringsTable(entries: ["K": format])])
        #expect(localizer.resolve(.localized(key: "K", arguments: arguments), preferredLanguages: ["en"]) == expected)
    }
}
