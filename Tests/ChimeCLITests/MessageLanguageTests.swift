import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

@testable import ChimeCLI

/// `chime`'s messages in English and Korean: the tables agree, every key the code asks for exists, and
/// the user's locale picks the language.
@Suite("chime's messages by language")
struct MessageLanguageTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/ChimeCLI").standardized

    @Test func theKoreanTableHasEveryKeyWithTheSameArguments() throws {
        let english = try #require(CLIText.tables["en"]), korean = try #require(CLIText.tables["ko"])
        #expect(MessageTables.problems(korean, against: english) == [])
    }

    @Test func everyKeyTheCommandsUseIsInTheEnglishTable() throws {
        let used = try MessageTables.keysUsed(by: "localized", under: Self.sources)
        #expect(used.count > 40, "the scan found the calls: \(used.count)")
        let missing = used.subtracting(MessageTables.keys(of: try #require(CLIText.tables["en"])))
        #expect(missing.isEmpty, "\(missing.sorted())")
    }

    @Test func aMissingKeyFallsBackToEnglishThenToTheKey() {
        let catalog = TextCatalog(tables: ["en": Array(#""a" = "A %@";"#.utf8), "ko": Array(#""b" = "비";"#.utf8)], languages: ["ko-KR"])
        #expect(catalog("b") == "비")
        #expect(catalog("a", "x") == "A x")
        #expect(catalog("c") == "c")
    }

    func spawned(_ arguments: [String], _ locale: [String: String]) async throws -> Subprocess.Outcome {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("chime-lang-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: runtime) }
        var environment = ProcessInfo.processInfo.environment.filter { !["LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"].contains($0.key) }
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.merge(locale) { $1 }
        return try await Subprocess.run(ChimeExecutableTests.productsDirectory.appendingPathComponent("chime").path, arguments, environment: environment)
    }

    @Test func aKoreanSessionReadsKorean() async throws {
        let notRunning = try await spawned(["pending"], ["LANG": "ko_KR.UTF-8"])
        #expect(notRunning.status == 1)
        #expect(notRunning.standardError.hasPrefix("chime: 오류: 알림 센터 chimed가 실행 중이 아닙니다"), "\(notRunning.standardError)")
        let usage = try await spawned(["ad"], ["LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"])
        #expect(usage.status == 64)
        #expect(usage.standardError.hasSuffix("'chime --help'를 참고하세요.\n"), "\(usage.standardError)")
    }

    @Test(arguments: [["LANG": "C"], ["LANG": "de_DE.UTF-8"], ["LC_ALL": "C", "LANG": "ko_KR.UTF-8"], [:]])
    func otherSessionsReadEnglish(locale: [String: String]) async throws {
        let notRunning = try await spawned(["pending"], locale)
        #expect(notRunning.standardError.hasPrefix("chime: error: chimed, the notification center, is not running"), "\(notRunning.standardError)")
    }
}
