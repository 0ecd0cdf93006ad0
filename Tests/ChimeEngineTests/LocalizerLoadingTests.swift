import ChimeCore
import ChimeEngine
import Foundation
import Testing

@Suite("Loading strings tables")
struct LocalizerLoadingTests {
    let resources = FileManager.default.temporaryDirectory.appendingPathComponent("chime-lproj-\(UUID().uuidString)")

    func write(_ text: String, language: String) throws {
        let folder = resources.appendingPathComponent("\(language).lproj")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("Localizable.strings"))
    }

    @Test func loadsEveryLanguageFolderOfAnAppsResources() throws {
        defer { try? FileManager.default.removeItem(at: resources) }
        try write(#""SNOOZE" = "Snooze";"#, language: "en")
        try write(#""SNOOZE" = "다시 알림";"#, language: "ko")
        try FileManager.default.createDirectory(at: resources.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        let localizer = try NotificationLocalizer(contentsOf: resources)
        #expect(Set(localizer.tables.keys) == ["en", "ko"])
        #expect(localizer.resolve(.localized(key: "SNOOZE"), preferredLanguages: ["ko-KR"]) == "다시 알림")
    }

    @Test func aBrokenTableNamesItsFileAndLine() throws {
        defer { try? FileManager.default.removeItem(at: resources) }
        try write("\"SNOOZE\" = \"Snooze\"\n\"OK\" = \"OK\";", language: "en")
        #expect {
            _ = try NotificationLocalizer(contentsOf: resources)
        } throws: { error in
            let error = error as? ChimeError
            return error?.code == .invalidStringsTable && error?.field == "en.lproj/Localizable.strings line 2"
        }
    }
}
